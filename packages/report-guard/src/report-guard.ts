import { MicroBatcher, type Redis } from '@rm/runtime';
import { luaScript, type ScriptFn } from './lua-script.js';
import { ABANDON_VERDICTS, RESERVE_MANY, TAKE_VERDICTS, DAILY_RELEASE, DAILY_RELEASE_ONCE, DAILY_RESERVE, DAILY_RESERVE_ONCE, USER_RELEASE_ONCE, USER_RESERVE_ONCE, NOTE_OPEN_CASES, CHECK_MANY, RATE, SYNC_USER, USER_RELEASE, USER_CHECK, USER_RESERVE } from './scripts.js';

export type Refusal = 'rate' | 'daily' | 'banned' | 'duplicate';
export type ReserveOutcome = { ok: true; appended: boolean } | { ok: false; refusal: Refusal };
export type CheckOutcome = { ok: true } | { ok: false; refusal: Refusal };

/** A reporter is a platform and an id: the same id on two platforms is two people. */
export interface Reporter {
  platform: string;
  id: string;
}

export interface GuardRequest {
  /** API key id, for its per-minute rate limit. */
  keyId: string;
  /** Requests per minute, 0 for none. */
  rateLimit: number;
  reporterId: string;
  /** The reporter's platform: with reporterId, whose daily count and earlier report are checked. */
  reporterPlatform: string;
  userId: string;
  maxPerDay: number;
  now?: number;
  /**
   * The report's id, when the request reserves for one: on a Redis Cluster its reservations are then
   * idempotent (sent again, they answer what they did) and released by it (see reserve).
   */
  reportId?: string;
}

export interface ReportGuardOptions {
  /**
   * Runs all reservations (and all checks) asked for during one event-loop turn as one script call.
   * Its keys span entities, so it needs a standalone Redis; the default is on unless `redis` is a
   * Cluster, where each submission runs one script per slot instead.
   */
  batch?: boolean;
}

type UserReserve = 'opened' | 'appended' | 'banned' | 'duplicate';
/** A request with its instant fixed: sent again, it names the same minute and day. */
export type Stamped = GuardRequest & { now: number };
type OpenCaseNote = { userId: string; reporters: Reporter[] };

/** How a reporter is named in Redis (the daily key's tag, the open case's reporters set). */
const reporterName = (platform: string, id: string) => `${platform}:${id}`;
/** A reporter as a member of a user's open-case reporters: platform and id. */
export const nameOf = (r: Reporter) => reporterName(r.platform, r.id);
const requestReporter = (r: GuardRequest) => reporterName(r.reporterPlatform, r.reporterId);

/**
 * Lone surrogates replaced by U+FFFD, as every other command sends them (UTF-8). JSON would escape
 * them, and Redis's JSON decoder refuses the escape, which would fail the whole batch.
 */
const wellFormed = (s: string): string => (s as string & { toWellFormed(): string }).toWellFormed();

/** UTC day number: the daily maximum resets at midnight UTC. */
const dayOf = (now: number) => Math.floor(now / 86_400_000);
const minuteOf = (now: number) => Math.floor(now / 60_000);

/** How long an intake job's verdicts outlive the storing of its reports (see retireVerdicts). */
const VERDICTS_KEPT_S = 60;

export const stamped = (r: GuardRequest): Stamped => (r.now === undefined ? { ...r, now: Date.now() } : (r as Stamped));
const reserveOutcome = (out: string): ReserveOutcome =>
  out === 'opened' || out === 'appended' ? { ok: true, appended: out === 'appended' } : { ok: false, refusal: out as Refusal };
const checkOutcome = (out: string): CheckOutcome => (out === 'ok' ? { ok: true } : { ok: false, refusal: out as Refusal });

/** The refusal a reservation answers when several checks refuse at once, most general first. */
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
 * is released. On a standalone Redis the checks of every submission of one event-loop turn run
 * in one script, in order: one command however many requests are in flight.
 */
export class ReportGuard {
  private readonly scripts: Record<
    'rate' | 'dailyReserve' | 'dailyRelease' | 'userReserve' | 'userCheck' | 'userRelease' | 'syncUser' | 'dailyReserveOnce' | 'dailyReleaseOnce' | 'userReserveOnce' | 'userReleaseOnce',
    ScriptFn
  >;
  private readonly reservations?: MicroBatcher<Stamped, ReserveOutcome>;
  private readonly checks?: MicroBatcher<Stamped, CheckOutcome>;
  private readonly notes?: MicroBatcher<OpenCaseNote, void>;
  private readonly noteOpenCases: ScriptFn;
  private readonly takeVerdictsScript: (key: string) => Promise<string | null>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: ReportGuardOptions = {},
  ) {
    if (options.batch ?? !redis.isCluster) {
      const reserveMany = luaScript(redis, RESERVE_MANY, 0);
      const checkMany = luaScript(redis, CHECK_MANY, 0);
      this.reservations = new MicroBatcher(async (rs) => (await this.many(reserveMany, rs)).map(reserveOutcome));
      this.checks = new MicroBatcher(async (rs) => (await this.many(checkMany, rs)).map(checkOutcome));
      this.notes = new MicroBatcher(async (notes) => {
        await this.noteMany(notes);
        return notes.map(() => undefined);
      });
    }
    this.noteOpenCases = luaScript(redis, NOTE_OPEN_CASES);
    this.takeVerdictsScript = luaScript(redis, TAKE_VERDICTS, 1) as unknown as (key: string) => Promise<string | null>;
    this.scripts = {
      rate: luaScript(redis, RATE, 1),
      dailyReserve: luaScript(redis, DAILY_RESERVE, 1),
      dailyRelease: luaScript(redis, DAILY_RELEASE, 1),
      userReserve: luaScript(redis, USER_RESERVE, 3),
      userCheck: luaScript(redis, USER_CHECK, 3),
      userRelease: luaScript(redis, USER_RELEASE, 3),
      // Scripts rather than MULTI: a MULTI on a connection BullMQ shares costs a pipeline object
      // that copies every script BullMQ defined, which showed as 11 % of an intake worker's CPU.
      syncUser: luaScript(redis, SYNC_USER, 3),
      dailyReserveOnce: luaScript(redis, DAILY_RESERVE_ONCE, 2),
      dailyReleaseOnce: luaScript(redis, DAILY_RELEASE_ONCE, 2),
      userReserveOnce: luaScript(redis, USER_RESERVE_ONCE, 4),
      userReleaseOnce: luaScript(redis, USER_RELEASE_ONCE, 4),
    };
  }

  private rateKey(subject: string, now: number) {
    return `${this.prefix}:rl:{k:${subject}}:${minuteOf(now)}`;
  }
  private dailyKey(r: Stamped) {
    return `${this.prefix}:daily:{r:${requestReporter(r)}}:${dayOf(r.now)}`;
  }
  /** Per-slot reservations (no batches) of a request naming its report: idempotent, released by report. */
  private keyedByReport(r: Stamped): boolean {
    return r.reportId !== undefined && !this.reservations;
  }
  /** The markers of one report's per-slot reservations: in the reporter's slot and in the user's. */
  private markerKeys(r: Stamped & { reportId: string }): [daily: string, user: string] {
    return [`${this.dailyKey(r)}:r:${r.reportId}`, `${this.prefix}:u:{${r.userId}}:r:${r.reportId}`];
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
    return this.batchJson(
      rs.map((r) => ({ ...r, keyId: wellFormed(r.keyId), userId: wellFormed(r.userId), reporterId: wellFormed(r.reporterId), reporterPlatform: wellFormed(r.reporterPlatform) })),
    );
  }

  private batchJson(rs: Stamped[]): string {
    return JSON.stringify(rs.map((r) => [this.rateKey(r.keyId, r.now), this.dailyKey(r), ...this.userKeys(r.userId), r.rateLimit, r.maxPerDay, requestReporter(r)]));
  }

  /** The connection its scripts run on (to tell whether Redis is reachable: see redisRefusing). */
  get connection(): Redis {
    return this.redis;
  }

  /** True when reservations are made a batch at a time (standalone Redis), so reserveRecorded works. */
  get batches(): boolean {
    return this.reservations !== undefined;
  }

  /**
   * Reserves for a batch like `reserve`, with its answers also kept in Redis under `verdictsKey`, so
   * a job holding every request of the batch can be sent right behind it, on the same `connection`,
   * without waiting: Redis runs one connection's commands in order, so the answers are there before
   * the job is, and the worker stores only what was reserved (takeVerdicts). One round trip, and one
   * AOF fsync, for the checks and the job together. Sent as EVAL rather than EVALSHA: a NOSCRIPT
   * retry would come after the job. Idempotent on `verdictsKey` (the same requests, stamped, give
   * the same answers and reserve once), so a caller that lost the answer sends it again.
   * Standalone Redis only (see `batches`).
   */
  async reserveRecorded(connection: Redis, requests: Stamped[], verdictsKey: string): Promise<ReserveOutcome[]> {
    const reserveAndRecord = async (batch: string) => (await connection.eval(RESERVE_MANY, 0, batch, verdictsKey)) as string;
    return (await this.many(reserveAndRecord, requests)).map(reserveOutcome);
  }

  /**
   * Gives up a reserveRecorded whose job could not be confirmed: releases what it reserved and
   * makes a job that lands later store nothing. Null when that is done; the outcomes when a worker
   * had already taken the job (its reports are being stored).
   */
  async abandonRecorded(connection: Redis, requests: Stamped[], verdictsKey: string): Promise<ReserveOutcome[] | null> {
    const answer = (await connection.eval(ABANDON_VERDICTS, 0, this.batchArgument(requests), verdictsKey)) as string;
    return answer === 'abandoned' ? null : answer.split(',').map(reserveOutcome);
  }

  /**
   * Which requests of an intake job were reserved, in order, taken for storing (the gateway can no
   * longer abandon them); null when there is nothing to store (the checks failed, or abandoned).
   */
  async takeVerdicts(verdictsKey: string): Promise<boolean[] | null> {
    const answer = await this.takeVerdictsScript(verdictsKey);
    return answer === null ? null : answer.split(',').map((a) => reserveOutcome(a).ok);
  }

  /**
   * Once the job's reserved reports are stored, its verdicts are kept VERDICTS_KEPT_S more (not
   * dropped): a gateway confirming a submit whose answer was lost still reads them then.
   */
  async retireVerdicts(verdictsKey: string): Promise<void> {
    await this.redis.expire(verdictsKey, VERDICTS_KEPT_S);
  }

  /** Where reserveRecorded keeps the answers for an intake job. */
  verdictsKey(jobId: string): string {
    return `${this.prefix}:verdicts:${jobId}`;
  }

  /** Checks and reserves: on ok the report is counted and must be enqueued or released. */
  async reserve(request: GuardRequest): Promise<ReserveOutcome> {
    // One instant for the checks and any release, so both name the same minute and day.
    const r = stamped(request);
    return this.reservations ? this.reservations.submit(r) : this.reserveBySlot(r);
  }

  /**
   * The checks as three single-slot scripts at once, for a Redis Cluster. With a report id they
   * are idempotent: when one fails (its answer may be lost), nothing is released here; the caller
   * sends the request again (only the rate is counted again) or releases it (`release`).
   */
  private async reserveBySlot(r: Stamped): Promise<ReserveOutcome> {
    const once = this.keyedByReport(r) ? this.markerKeys(r as Stamped & { reportId: string }) : undefined;
    const settled = await Promise.allSettled([
      this.rate(r),
      once ? this.scripts.dailyReserveOnce(this.dailyKey(r), once[0], r.maxPerDay) : this.scripts.dailyReserve(this.dailyKey(r), r.maxPerDay),
      (once
        ? this.scripts.userReserveOnce(...this.userKeys(r.userId), once[1], requestReporter(r))
        : this.scripts.userReserve(...this.userKeys(r.userId), requestReporter(r))) as Promise<UserReserve | 'released'>,
    ]);
    const [rate, daily, user] = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    // Released already (a sending that came after its release): nothing is reserved.
    if (daily === 'released' || user === 'released') throw new Error(`the reservations of report ${r.reportId} were released`);
    const refusal = firstRefusal(rate, daily, user);
    if (!failed && !refusal) return { ok: true, appended: user === 'appended' };
    if (failed && once) throw failed.reason;
    await this.releaseReserved(r, { daily: daily === 'ok', user: user === 'opened' || user === 'appended', opened: user === 'opened' });
    if (failed) throw failed.reason;
    return { ok: false, refusal: refusal! };
  }

  /** The check operation: counts against the rate limit, reserves nothing. */
  async check(request: GuardRequest): Promise<CheckOutcome> {
    const r = stamped(request);
    if (this.checks) return this.checks.submit(r);
    const [rate, today, user] = await Promise.all([
      this.rate(r),
      this.redis.get(this.dailyKey(r)),
      this.scripts.userCheck(...this.userKeys(r.userId), requestReporter(r)),
    ]);
    const refusal = firstRefusal(rate, Number(today ?? 0) >= r.maxPerDay ? 'daily' : undefined, user);
    return refusal ? { ok: false, refusal } : { ok: true };
  }

  /**
   * Rate limit alone, for operations without report checks: counts one request of `subject` (an
   * API key id, or a caller without a key named by what it is: `appeal-page:<address>`) in the
   * current minute, false when that is over `rateLimit` (0: none).
   */
  async withinRate(subject: string, rateLimit: number, now = Date.now()): Promise<boolean> {
    if (rateLimit <= 0) return true;
    return (await this.scripts.rate(this.rateKey(subject, now), rateLimit)) === 'ok';
  }

  /**
   * Releases what `reserve` reserved, when the report could not be enqueued. With a report id
   * (Redis Cluster), whatever its reservations did, even unanswered: `appended` is then not needed.
   */
  async release(request: GuardRequest, appended = false): Promise<void> {
    await this.releaseReserved(stamped(request), { daily: true, user: true, opened: !appended });
  }

  private async releaseReserved(r: Stamped, taken: { daily: boolean; user: boolean; opened: boolean }): Promise<void> {
    if (this.keyedByReport(r)) {
      const [daily, user] = this.markerKeys(r as Stamped & { reportId: string });
      await Promise.all([
        this.scripts.dailyReleaseOnce(this.dailyKey(r), daily),
        this.scripts.userReleaseOnce(...this.userKeys(r.userId), user, requestReporter(r)),
      ]);
      return;
    }
    await Promise.all([
      taken.daily && this.scripts.dailyRelease(this.dailyKey(r)),
      taken.user && this.scripts.userRelease(...this.userKeys(r.userId), requestReporter(r), taken.opened ? 1 : 0),
    ]);
  }

  /**
   * Records that the user has an open case with these reporters. Additive only: reports accepted
   * but not yet stored are already in the set, and must stay there.
   */
  async noteOpenCase(userId: string, reporters: Reporter[]): Promise<void> {
    const note = { userId, reporters };
    await (this.notes ? this.notes.submit(note) : this.noteMany([note]));
  }

  /** NOTE_OPEN_CASES over several users (one user per call on a Redis Cluster). */
  private async noteMany(notes: OpenCaseNote[]): Promise<void> {
    const keys = notes.flatMap((n) => this.userKeys(n.userId).slice(1));
    await this.noteOpenCases(keys.length, ...keys, ...notes.flatMap((n) => [n.reporters.length, ...n.reporters.map(nameOf)]));
  }

  /**
   * Brings the view of one user in step with storage after a decision: the ban, and the open case
   * (null when the user has none). Idempotent, so a redelivered decision job can call it again.
   */
  async syncUser(userId: string, state: { banned: boolean; openCaseReporters: Reporter[] | null }): Promise<void> {
    const open = state.openCaseReporters;
    await this.scripts.syncUser(...this.userKeys(userId), state.banned ? 1 : 0, open ? 1 : 0, ...(open ?? []).map(nameOf));
  }
}
