import { MicroBatcher, type Redis } from '@rm/runtime';
import { ADMIT_MANY, DAILY_GIVE_BACK, DAILY_TAKE, NOTE_OPEN_CASES, PROBE_MANY, RATE, SYNC_USER, USER_GIVE_BACK, USER_PEEK, USER_TAKE } from './scripts.js';

export type Refusal = 'rate' | 'daily' | 'banned' | 'duplicate';
export type AdmitOutcome = { ok: true; appended: boolean } | { ok: false; refusal: Refusal };
export type ProbeOutcome = { ok: true } | { ok: false; refusal: Refusal };

export interface GuardRequest {
  /** API key id, for its per-minute rate limit. */
  keyId: string;
  /** Requests per minute, 0 for none. */
  rateLimit: number;
  reporterId: string;
  userId: string;
  maxPerDay: number;
  now?: number;
}

export interface ReportGuardOptions {
  /**
   * Checks all admits (and all probes) asked for during one event-loop turn with one script call.
   * Its keys span entities, so it needs a standalone Redis; the default is on unless `redis` is a
   * Cluster, where each submission runs one script per slot instead.
   */
  batch?: boolean;
}

type ScriptFn = (...args: (string | number)[]) => Promise<string>;
type UserTake = 'opened' | 'appended' | 'banned' | 'duplicate';
type Stamped = GuardRequest & { now: number };
type OpenCaseNote = { userId: string; reporterIds: string[] };

/**
 * Lone surrogates replaced by U+FFFD, as every other command sends them (UTF-8). JSON would escape
 * them, and Redis's JSON decoder refuses the escape, which would fail the whole batch.
 */
const wellFormed = (s: string): string => (s as string & { toWellFormed(): string }).toWellFormed();

/** UTC day number: the daily maximum resets at midnight UTC. */
const dayOf = (now: number) => Math.floor(now / 86_400_000);
const minuteOf = (now: number) => Math.floor(now / 60_000);

const stamped = (r: GuardRequest): Stamped => (r.now === undefined ? { ...r, now: Date.now() } : (r as Stamped));
const admitOutcome = (out: string): AdmitOutcome =>
  out === 'opened' || out === 'appended' ? { ok: true, appended: out === 'appended' } : { ok: false, refusal: out as Refusal };
const probeOutcome = (out: string): ProbeOutcome => (out === 'ok' ? { ok: true } : { ok: false, refusal: out as Refusal });

/** The refusal an admit answers when several checks refuse at once, most general first. */
function firstRefusal(...outcomes: (string | undefined)[]): Refusal | undefined {
  return (['rate', 'daily', 'banned', 'duplicate'] as const).find((r) => outcomes.includes(r));
}

/**
 * The Redis-side view that submissions are checked against: per-key request rates, each
 * reporter's reports today, banned users, and who already reported the user's open case.
 * Storage stays the system of record; workers keep this view in step after every change.
 *
 * Keys are grouped by hash tag per API key, per reporter and per reported user, so on a Redis
 * Cluster they spread over the nodes. There the three checks of a submission run at once, each
 * atomic in its own slot (one round trip, pipelined); when one refuses, what the others reserved
 * is given back. On a standalone Redis the checks of every submission of one event-loop turn run
 * in one script, in order: one command however many requests are in flight.
 */
export class ReportGuard {
  private readonly scripts: Record<'rate' | 'dailyTake' | 'dailyGiveBack' | 'userTake' | 'userPeek' | 'userGiveBack' | 'syncUser', ScriptFn>;
  private readonly admits?: MicroBatcher<Stamped, AdmitOutcome>;
  private readonly probes?: MicroBatcher<Stamped, ProbeOutcome>;
  private readonly notes?: MicroBatcher<OpenCaseNote, void>;
  private readonly noteOpenCases: ScriptFn;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: ReportGuardOptions = {},
  ) {
    /** A script as a command of the connection; without numberOfKeys the caller passes the count first. */
    const define = (name: string, lua: string, numberOfKeys?: number): ScriptFn => {
      const command = `rmGuard_${name}`;
      if (!(command in redis)) redis.defineCommand(command, { lua, ...(numberOfKeys !== undefined && { numberOfKeys }) });
      const fn = (redis as unknown as Record<string, (...args: unknown[]) => unknown>)[command]!;
      return fn.bind(redis) as ScriptFn;
    };
    if (options.batch ?? !redis.isCluster) {
      const admitMany = define('admitMany', ADMIT_MANY, 0);
      const probeMany = define('probeMany', PROBE_MANY, 0);
      this.admits = new MicroBatcher(async (rs) => (await this.many(admitMany, rs)).map(admitOutcome));
      this.probes = new MicroBatcher(async (rs) => (await this.many(probeMany, rs)).map(probeOutcome));
      this.notes = new MicroBatcher(async (notes) => {
        await this.noteMany(notes);
        return notes.map(() => undefined);
      });
    }
    this.noteOpenCases = define('noteOpenCases', NOTE_OPEN_CASES);
    this.scripts = {
      rate: define('rate', RATE, 1),
      dailyTake: define('dailyTake', DAILY_TAKE, 1),
      dailyGiveBack: define('dailyGiveBack', DAILY_GIVE_BACK, 1),
      userTake: define('userTake', USER_TAKE, 3),
      userPeek: define('userPeek', USER_PEEK, 3),
      userGiveBack: define('userGiveBack', USER_GIVE_BACK, 3),
      // Scripts rather than MULTI: a MULTI on a connection BullMQ shares costs a pipeline object
      // that copies every script BullMQ defined, which showed as 11 % of an intake worker's CPU.
      syncUser: define('syncUser', SYNC_USER, 3),
    };
  }

  private rateKey(keyId: string, now: number) {
    return `${this.prefix}:rl:{k:${keyId}}:${minuteOf(now)}`;
  }
  private dailyKey(r: Stamped) {
    return `${this.prefix}:daily:{r:${r.reporterId}}:${dayOf(r.now)}`;
  }
  /** Banned flag, open-case flag, reporters of the open case: one slot, so a script may span them. */
  private userKeys(userId: string): [banned: string, open: string, reporters: string] {
    const base = `${this.prefix}:u:{${userId}}`;
    return [`${base}:banned`, `${base}:open`, `${base}:reporters`];
  }

  private async rate(r: Stamped): Promise<string | undefined> {
    return r.rateLimit > 0 ? this.scripts.rate(this.rateKey(r.keyId, r.now), r.rateLimit) : undefined;
  }

  /** Runs a `*_MANY` script (given the batch argument) over a batch: one answer per request. */
  private async many(script: (batch: string) => Promise<string>, rs: Stamped[]): Promise<string[]> {
    return (await script(this.batchArgument(rs))).split(',');
  }

  /** The BATCH layout of scripts.ts. */
  private batchArgument(rs: Stamped[]): string {
    const json = this.batchJson(rs);
    // JSON escapes a lone surrogate as \udXXX; without one (nearly always) the text goes as it is.
    if (!json.includes('\\ud')) return json;
    return this.batchJson(rs.map((r) => ({ ...r, keyId: wellFormed(r.keyId), userId: wellFormed(r.userId), reporterId: wellFormed(r.reporterId) })));
  }

  private batchJson(rs: Stamped[]): string {
    return JSON.stringify(rs.map((r) => [this.rateKey(r.keyId, r.now), this.dailyKey(r), ...this.userKeys(r.userId), r.rateLimit, r.maxPerDay, r.reporterId]));
  }

  /** True when admits are checked a batch at a time (standalone Redis), so admitRecorded works. */
  get batches(): boolean {
    return this.admits !== undefined;
  }

  /**
   * Admits a batch like `admit`, with its answers also kept in Redis under `verdictKey`, so a job
   * holding every request of the batch can be sent right behind it, on the same `connection`,
   * without waiting: Redis runs one connection's commands in order, so the answers are there before
   * the job is, and the worker stores only what was admitted (admittedOf). One round trip, and one
   * AOF fsync, for the checks and the job together. Sent as EVAL rather than EVALSHA: a NOSCRIPT
   * retry would come after the job. Standalone Redis only (see `batches`).
   */
  async admitRecorded(connection: Redis, requests: GuardRequest[], verdictKey: string): Promise<AdmitOutcome[]> {
    const admitAndRecord = async (batch: string) => (await connection.eval(ADMIT_MANY, 0, batch, verdictKey)) as string;
    return (await this.many(admitAndRecord, requests.map(stamped))).map(admitOutcome);
  }

  /** Which requests admitRecorded admitted, in order; null when it recorded nothing (it failed). */
  async admittedOf(verdictKey: string): Promise<boolean[] | null> {
    const answer = await this.redis.get(verdictKey);
    return answer === null ? null : answer.split(',').map((a) => admitOutcome(a).ok);
  }

  /** Drops what admitRecorded kept, once the job's admitted reports are stored. */
  async forgetVerdicts(verdictKey: string): Promise<void> {
    await this.redis.del(verdictKey);
  }

  /** Where admitRecorded keeps the answers for an intake job. */
  verdictKey(jobId: string): string {
    return `${this.prefix}:verdicts:${jobId}`;
  }

  /** Checks and reserves: on ok the report is counted and must be enqueued or released. */
  async admit(request: GuardRequest): Promise<AdmitOutcome> {
    // One instant for the checks and any give-back, so both name the same minute and day.
    const r = stamped(request);
    return this.admits ? this.admits.submit(r) : this.admitBySlot(r);
  }

  /** The checks as three single-slot scripts at once, for a Redis Cluster. */
  private async admitBySlot(r: Stamped): Promise<AdmitOutcome> {
    const settled = await Promise.allSettled([
      this.rate(r),
      this.scripts.dailyTake(this.dailyKey(r), r.maxPerDay),
      this.scripts.userTake(...this.userKeys(r.userId), r.reporterId) as Promise<UserTake>,
    ]);
    const [rate, daily, user] = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    const refusal = firstRefusal(rate, daily, user);
    if (!failed && !refusal) return { ok: true, appended: user === 'appended' };
    await this.giveBack(r, { daily: daily === 'ok', user: user === 'opened' || user === 'appended', opened: user === 'opened' });
    if (failed) throw failed.reason;
    return { ok: false, refusal: refusal! };
  }

  /** The check operation: counts against the rate limit, reserves nothing. */
  async probe(request: GuardRequest): Promise<ProbeOutcome> {
    const r = stamped(request);
    if (this.probes) return this.probes.submit(r);
    const [rate, today, user] = await Promise.all([
      this.rate(r),
      this.redis.get(this.dailyKey(r)),
      this.scripts.userPeek(...this.userKeys(r.userId), r.reporterId),
    ]);
    const refusal = firstRefusal(rate, Number(today ?? 0) >= r.maxPerDay ? 'daily' : undefined, user);
    return refusal ? { ok: false, refusal } : { ok: true };
  }

  /** Rate limit alone, for operations without report checks. */
  async withinRate(keyId: string, rateLimit: number, now = Date.now()): Promise<boolean> {
    if (rateLimit <= 0) return true;
    return (await this.scripts.rate(this.rateKey(keyId, now), rateLimit)) === 'ok';
  }

  /** Gives back what admit reserved, when the report could not be enqueued. */
  async release(request: GuardRequest, appended: boolean): Promise<void> {
    await this.giveBack(stamped(request), { daily: true, user: true, opened: !appended });
  }

  private async giveBack(r: Stamped, taken: { daily: boolean; user: boolean; opened: boolean }): Promise<void> {
    await Promise.all([
      taken.daily && this.scripts.dailyGiveBack(this.dailyKey(r)),
      taken.user && this.scripts.userGiveBack(...this.userKeys(r.userId), r.reporterId, taken.opened ? 1 : 0),
    ]);
  }

  /**
   * Records that the user has an open case with these reporters. Additive only: reports accepted
   * but not yet stored are already in the set, and must stay there.
   */
  async noteOpenCase(userId: string, reporterIds: string[]): Promise<void> {
    const note = { userId, reporterIds };
    await (this.notes ? this.notes.submit(note) : this.noteMany([note]));
  }

  /** NOTE_OPEN_CASES over several users (one user per call on a Redis Cluster). */
  private async noteMany(notes: OpenCaseNote[]): Promise<void> {
    const keys = notes.flatMap((n) => this.userKeys(n.userId).slice(1));
    await this.noteOpenCases(keys.length, ...keys, ...notes.flatMap((n) => [n.reporterIds.length, ...n.reporterIds]));
  }

  /**
   * Brings the view of one user in step with storage after a decision: the ban, and the open case
   * (null when the user has none). Idempotent, so a redelivered decision job can call it again.
   */
  async syncUser(userId: string, state: { banned: boolean; openCaseReporters: string[] | null }): Promise<void> {
    const open = state.openCaseReporters;
    await this.scripts.syncUser(...this.userKeys(userId), state.banned ? 1 : 0, open ? 1 : 0, ...(open ?? []));
  }
}
