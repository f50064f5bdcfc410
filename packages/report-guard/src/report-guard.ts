import type { Redis } from 'ioredis';
import { ADMIT, PROBE, RATE_ONLY, RELEASE } from './scripts.js';

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

type ScriptFn = (...args: (string | number)[]) => Promise<unknown>;

/** UTC day number: the daily maximum resets at midnight UTC. */
const dayOf = (now: number) => Math.floor(now / 86_400_000);
const minuteOf = (now: number) => Math.floor(now / 60_000);

/**
 * The Redis-side view that submissions are checked against: per-key request rates, each
 * reporter's reports today, banned users, and who already reported the user's open case.
 * Storage stays the system of record; workers keep this view in step after every change.
 */
export class ReportGuard {
  private readonly scripts: Record<'admit' | 'probe' | 'rateOnly' | 'release', ScriptFn>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    const define = (name: string, lua: string, numberOfKeys: number): ScriptFn => {
      const command = `rmGuard_${name}`;
      if (!(command in redis)) redis.defineCommand(command, { lua, numberOfKeys });
      const fn = (redis as unknown as Record<string, ScriptFn>)[command]!;
      return fn.bind(redis);
    };
    this.scripts = {
      admit: define('admit', ADMIT, 5),
      probe: define('probe', PROBE, 5),
      rateOnly: define('rateOnly', RATE_ONLY, 1),
      release: define('release', RELEASE, 5),
    };
  }

  private keys(r: GuardRequest): string[] {
    const now = r.now ?? Date.now();
    return [
      `${this.prefix}:rl:${r.keyId}:${minuteOf(now)}`,
      `${this.prefix}:daily:${r.reporterId}:${dayOf(now)}`,
      this.bannedKey(r.userId),
      this.openKey(r.userId),
      this.reportersKey(r.userId),
    ];
  }

  private bannedKey(userId: string) {
    return `${this.prefix}:banned:${userId}`;
  }
  private openKey(userId: string) {
    return `${this.prefix}:case:${userId}:open`;
  }
  private reportersKey(userId: string) {
    return `${this.prefix}:case:${userId}:reporters`;
  }

  /** Checks and reserves in one step: on ok the report is counted and must be enqueued or released. */
  async admit(r: GuardRequest): Promise<AdmitOutcome> {
    const [outcome, appended] = (await this.scripts.admit(...this.keys(r), r.rateLimit, r.maxPerDay, r.reporterId)) as [string, number];
    return outcome === 'ok' ? { ok: true, appended: appended === 1 } : { ok: false, refusal: outcome as Refusal };
  }

  /** The check operation: counts against the rate limit, reserves nothing. */
  async probe(r: GuardRequest): Promise<ProbeOutcome> {
    const [outcome] = (await this.scripts.probe(...this.keys(r), r.rateLimit, r.maxPerDay, r.reporterId)) as [string, number];
    return outcome === 'ok' ? { ok: true } : { ok: false, refusal: outcome as Refusal };
  }

  /** Rate limit alone, for operations without report checks. */
  async withinRate(keyId: string, rateLimit: number, now = Date.now()): Promise<boolean> {
    if (rateLimit <= 0) return true;
    return (await this.scripts.rateOnly(`${this.prefix}:rl:${keyId}:${minuteOf(now)}`, rateLimit)) === 'ok';
  }

  /** Gives back what admit reserved, when the report could not be enqueued. */
  async release(r: GuardRequest, appended: boolean): Promise<void> {
    await this.scripts.release(...this.keys(r), r.reporterId, appended ? 1 : 0);
  }

  /**
   * Records that the user has an open case with these reporters. Additive only: reports accepted
   * but not yet stored are already in the set, and must stay there.
   */
  async noteOpenCase(userId: string, reporterIds: string[]): Promise<void> {
    const tx = this.redis.multi().set(this.openKey(userId), '1');
    if (reporterIds.length > 0) tx.sadd(this.reportersKey(userId), ...reporterIds);
    await tx.exec();
  }

  /**
   * Brings the view of one user in step with storage after a decision: the ban, and the open case
   * (null when the user has none). Idempotent, so a redelivered decision job can call it again.
   */
  async syncUser(userId: string, state: { banned: boolean; openCaseReporters: string[] | null }): Promise<void> {
    const tx = this.redis.multi();
    if (state.banned) tx.set(this.bannedKey(userId), '1');
    else tx.del(this.bannedKey(userId));
    if (state.openCaseReporters) {
      tx.set(this.openKey(userId), '1');
      if (state.openCaseReporters.length > 0) tx.sadd(this.reportersKey(userId), ...state.openCaseReporters);
    } else {
      tx.del(this.openKey(userId), this.reportersKey(userId));
    }
    await tx.exec();
  }
}
