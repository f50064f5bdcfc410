import { isBannedBy, sanctionVersion, type ReportGuard, type UserStateSync } from '@rm/report-guard';
import type { Redis } from '@rm/runtime';
import type { ReportStore, SanctionStore, TriageStore } from '@rm/storage';

/** How often every moderation worker looks for a Redis that lost its derived state. */
export const REBUILD_CHECK_MS = 1_000;

/** Banned players and open cases read per page while rebuilding. */
const REBUILD_PAGE = 500;

/**
 * Redis holds derived state only (DESIGN 15): the ban flags the submit and check scripts read
 * are rebuilt from storage when Redis has lost them. A marker key is set once a rebuild is done;
 * Redis without it (a FLUSHALL, a new or restored server) gets every active sanction's ban flag
 * and every open case's reporters (added: a mark of a report accepted meanwhile stays) again,
 * and `afterRebuild` (the sweep's scheduler, itself kept in Redis). Checked at start and
 * every REBUILD_CHECK_MS; idempotent, so several workers may rebuild at once.
 */
export class GuardRebuild {
  private running?: Promise<boolean>;

  constructor(
    private readonly deps: { store: SanctionStore & TriageStore & ReportStore; redis: Redis; prefix: string; userSync: UserStateSync; guard: ReportGuard; afterRebuild: () => Promise<void> },
  ) {}

  private get marker(): string {
    return `${this.deps.prefix}:guard:built`;
  }

  /** Rebuilds when the marker is missing; true when it rebuilt. */
  ensure(): Promise<boolean> {
    this.running ??= this.check().finally(() => (this.running = undefined));
    return this.running;
  }

  private async check(): Promise<boolean> {
    if ((await this.deps.redis.exists(this.marker)) === 1) return false;
    // A page at a time, by id: the store never answers with every banned player or open case at once.
    for (let after = ''; ; ) {
      const banned = await this.deps.store.bannedUserIds(after, REBUILD_PAGE);
      if (banned.length === 0) break;
      for (const userId of banned) {
        const tally = await this.deps.store.sanctionTallyOfUser(userId);
        await this.deps.userSync.apply(userId, { version: sanctionVersion(tally), banned: isBannedBy(tally) }, null);
      }
      after = banned.at(-1)!;
    }
    for (let after = ''; ; ) {
      const open = await this.deps.store.openCases(after, REBUILD_PAGE);
      if (open.length === 0) break;
      for (const c of open) await this.deps.guard.noteOpenCase(c.userId, await this.deps.store.caseReporters(c.caseId));
      after = open.at(-1)!.caseId;
    }
    await this.deps.afterRebuild();
    await this.deps.redis.set(this.marker, String(Date.now()));
    return true;
  }
}
