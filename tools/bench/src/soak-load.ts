import { Agent, request } from 'node:http';
import { checkBody, randomOf, submissionBody } from './fixtures.js';
import { Samples } from './stats.js';

/** The operations of the soak's mix, each with its share of the requests (percent). */
export const SOAK_MIX = { submit: 40, check: 25, ban: 20, feed: 10, decide: 5 } as const;
export type SoakOperation = keyof typeof SOAK_MIX;

/** A player of the decision cycle: its case's first report, and the decision it is due next. */
interface Decided {
  userId: string;
  reportId: string;
  next: 'approve' | 'undo';
  busy: boolean;
}

/** One minute of the load: latencies and statuses per operation, and what went wrong. */
export class MinuteOfLoad {
  readonly ops = Object.fromEntries(Object.keys(SOAK_MIX).map((k) => [k, new Samples()])) as Record<SoakOperation, Samples>;
  /** Answers that were not the operation's 200, and requests that got none (refused, reset, timed out), by what happened. */
  readonly errors: Record<string, number> = {};
  /** Requests not sent because `maxInFlight` were still unanswered: the system fell behind the rate. */
  shed = 0;

  error(what: string): void {
    this.errors[what] = (this.errors[what] ?? 0) + 1;
  }

  get errorCount(): number {
    return Object.values(this.errors).reduce((a, b) => a + b, 0) + this.shed;
  }
}

export interface SoakLoadOptions {
  baseUrl: URL;
  auth: string;
  /** Requests per second offered, whatever the answers' speed (an open loop: latency is not hidden by waiting for it). */
  rate: number;
  /** Players reported about and checked. */
  players: string[];
  /** Players whose case is approved and undone in turn (one report each, stored). */
  decided: { userId: string; reportId: string }[];
  moderatorId: string;
  maxInFlight: number;
}

/**
 * The soak's mixed load, at a steady rate: submits and checks about `players`, the ban API about
 * any player, a game server following the sanctions feed (each read after the last `next`), and a
 * moderator approving, then undoing, the case of each `decided` player in turn, so the feed and
 * the ban answers change all along. Every request of the mix is due a 200; anything else counts as
 * an error of the minute it was sent in.
 */
export class SoakLoad {
  private minute = new MinuteOfLoad();
  private readonly agent: Agent;
  private readonly decided: Decided[];
  private readonly player: () => string;
  private readonly anyPlayer: () => string;
  private feedCursor: string | undefined;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private owed = 0;
  private turn = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly o: SoakLoadOptions) {
    this.agent = new Agent({ keepAlive: true, maxSockets: o.maxInFlight });
    this.decided = o.decided.map((d) => ({ ...d, next: 'approve', busy: false }));
    this.player = randomOf(o.players);
    this.anyPlayer = randomOf([...o.players, ...o.decided.map((d) => d.userId)]);
  }

  start(): void {
    const tickMs = 20;
    this.timer = setInterval(() => {
      this.owed += (this.o.rate * tickMs) / 1000;
      for (; this.owed >= 1; this.owed -= 1) {
        if (this.inFlight >= this.o.maxInFlight) this.minute.shed += 1;
        else this.send(this.pick());
      }
    }, tickMs);
  }

  /** This minute's figures, and a fresh minute from now on (requests in flight count where they were sent). */
  takeMinute(): MinuteOfLoad {
    const done = this.minute;
    this.minute = new MinuteOfLoad();
    return done;
  }

  /** Stops sending and waits for the answers still owed. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.pending);
    this.agent.destroy();
  }

  private pick(): SoakOperation {
    let r = Math.random() * 100;
    for (const [name, share] of Object.entries(SOAK_MIX) as [SoakOperation, number][]) {
      r -= share;
      if (r < 0) return name;
    }
    return 'submit';
  }

  private send(op: SoakOperation): void {
    const minute = this.minute;
    let call: { method: string; path: string; body?: string; done?: (status: number, body: string) => void };
    switch (op) {
      case 'submit':
        call = { method: 'POST', path: '/v1/reports/new', body: submissionBody(this.player()) };
        break;
      case 'check':
        call = { method: 'POST', path: '/v1/reports/check', body: checkBody(this.player()) };
        break;
      case 'ban':
        call = { method: 'GET', path: `/v1/sanctions/${this.anyPlayer()}` };
        break;
      case 'feed':
        call = {
          method: 'GET',
          path: `/v1/sanctions?limit=100${this.feedCursor ? `&after=${encodeURIComponent(this.feedCursor)}` : ''}`,
          done: (status, body) => {
            if (status === 200) this.feedCursor = (JSON.parse(body) as { next?: string }).next ?? this.feedCursor;
          },
        };
        break;
      case 'decide': {
        // The next player not already waiting on a decision, round robin; none free: a ban read instead.
        const player = this.nextDecided();
        if (!player) return this.send('ban');
        player.busy = true;
        call = {
          method: 'POST',
          path: `/v1/reports/${player.reportId}/${player.next}`,
          body: JSON.stringify(player.next === 'approve' ? { moderator: { id: this.o.moderatorId }, dm: false } : { moderator: { id: this.o.moderatorId } }),
          done: (status) => {
            player.busy = false;
            if (status === 200) player.next = player.next === 'approve' ? 'undo' : 'approve';
          },
        };
        break;
      }
    }
    this.inFlight += 1;
    const t0 = process.hrtime.bigint();
    const settled = new Promise<void>((resolve) => {
      const req = request(
        {
          agent: this.agent,
          host: this.o.baseUrl.hostname,
          port: this.o.baseUrl.port,
          method: call.method,
          path: call.path,
          headers: { authorization: this.o.auth, ...(call.body && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(call.body) }) },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            minute.ops[op].add(Number(process.hrtime.bigint() - t0) / 1e6, status);
            if (status !== 200) minute.error(`${op} ${status}`);
            call.done?.(status, body);
            resolve();
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', (err) => {
        minute.error(`${op} ${(err as NodeJS.ErrnoException).code ?? err.message}`);
        call.done?.(0, '');
        resolve();
      });
      req.end(call.body);
    });
    this.pending.add(settled);
    void settled.finally(() => {
      this.inFlight -= 1;
      this.pending.delete(settled);
    });
  }

  private nextDecided(): Decided | undefined {
    for (let i = 0; i < this.decided.length; i++) {
      const d = this.decided[(this.turn + i) % this.decided.length]!;
      if (!d.busy) {
        this.turn = (this.turn + i + 1) % this.decided.length;
        return d;
      }
    }
    return undefined;
  }
}
