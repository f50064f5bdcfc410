import { report, type System } from '../harness.js';

/** What a load answered: the ids acknowledged, and every status counted. */
export interface LoadOutcome {
  /** Report ids answered 200. */
  accepted: string[];
  /** Users whose approval was answered 200: each must be banned, once. */
  approved: string[];
  statuses: Record<string, number>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Submits and decisions at once, the way clients send them, until `stop()`:
 * - `submitters` loops submit reports about `reported` (a report each time, a new reporter each);
 * - `deciders` loops approve, one after the other, the first report of each of `toApprove`
 *   (userId → report id). A 500 (Redis down) leaves that user for a later round; anything else
 *   (200, or 400 because a decision that answered 500 was applied later) settles the user. A
 *   moderator clicks every `decisionGapMs`, so decisions go on across the whole fault.
 * A client pauses 50 ms after a failure, as a real one backs off, so a fast refusal does not
 * become a flood; a submitter also waits `submitGapMs` after each 200 (none by default), for a
 * steady rate rather than the most the machine can take.
 */
export class MixedLoad {
  readonly outcome: LoadOutcome = { accepted: [], approved: [], statuses: {} };
  private running = true;
  private readonly loops: Promise<void>[];
  private n = 0;

  constructor(
    private readonly sys: System,
    private readonly auth: string,
    options: { reported: string[]; submitters: number; toApprove: Map<string, string>; deciders: number; moderatorId: string; decisionGapMs: number; submitGapMs?: number },
  ) {
    const pending = [...options.toApprove.entries()];
    const submit = async () => {
      while (this.running) {
        const userId = options.reported[this.n % options.reported.length]!;
        const reporter = `mixed-${this.n++}-${Math.random()}`;
        const answer = await this.post('/v1/reports/new', report(userId, reporter));
        if (answer?.status === 200 && answer.body.id) {
          this.outcome.accepted.push(answer.body.id);
          if (options.submitGapMs) await pause(options.submitGapMs);
        } else await pause(50);
      }
    };
    const decide = async () => {
      while (this.running) {
        const next = pending.shift();
        if (!next) return void (await pause(50));
        const [userId, reportId] = next;
        const answer = await this.post(`/v1/reports/${reportId}/approve`, { moderator: { id: options.moderatorId }, dm: false });
        if (answer?.status === 200) this.outcome.approved.push(userId);
        else if (answer === undefined || answer.status === 500) pending.push(next);
        await pause(options.decisionGapMs);
      }
    };
    this.loops = [...Array.from({ length: options.submitters }, submit), ...Array.from({ length: options.deciders }, decide)];
  }

  private async post(path: string, body: unknown): Promise<{ status: number; body: any } | undefined> {
    try {
      const res = await fetch(`${this.sys.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: this.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const answer = { status: res.status, body: (await res.json()) as any };
      this.count(String(res.status));
      return answer;
    } catch {
      this.count('no answer');
      return undefined;
    }
  }

  private count(status: string): void {
    this.outcome.statuses[status] = (this.outcome.statuses[status] ?? 0) + 1;
  }

  /** Stops every loop once its request in flight is answered. */
  async stop(): Promise<LoadOutcome> {
    this.running = false;
    await Promise.all(this.loops);
    return this.outcome;
  }
}
