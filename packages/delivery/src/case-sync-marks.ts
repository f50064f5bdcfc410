import { MicroBatcher, type Redis } from '@rm/runtime';

/**
 * How long a mark lasts at most. A sync job normally clears it within moments; this only bounds
 * how long a lost mark (its job never added, then its intake job failed for good) can hold back
 * the syncs of later reports. Past it, BullMQ's deduplication still coalesces them.
 */
const MARK_TTL_MS = 60_000;

/**
 * Per case, marks the sync job queued and not started yet. ARGV: the mark's lifetime, then per
 * KEY the id of the job that would sync it. Answers per key '1' when that job is to be added (no
 * mark, or the mark is this very job's, as on a retry) and the mark is now its, else '0'.
 */
const CLAIM = `
local out = {}
for i, key in ipairs(KEYS) do
  local mark = redis.call('GET', key)
  if not mark or mark == ARGV[i + 1] then
    redis.call('SET', key, ARGV[i + 1], 'PX', ARGV[1])
    out[i] = '1'
  else
    out[i] = '0'
  end
end
return table.concat(out)
`;

type Claim = { caseId: string; jobId: string };

/**
 * Case-message syncs, one per stored report, are mostly redundant under load: while a sync of a
 * case waits in the queue, it will read the case as it is when it runs, reports stored meanwhile
 * included. The notifier asks here before adding one: each mark says that a case's sync is queued
 * and not started, and a report stored while it stands needs no job of its own, not even the
 * building of one. The sync clears the mark before it reads the case, so a report stored after
 * that read is never covered by it: its claim finds no mark and adds a job.
 *
 * The claims of one event-loop turn go in one script on a standalone Redis; a Redis Cluster (keys
 * of many cases span slots) gets one script per case.
 */
export class CaseSyncMarks {
  private readonly batch: MicroBatcher<Claim, boolean>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.batch = new MicroBatcher(async (claims) => {
      if (redis.isCluster) return Promise.all(claims.map((c) => this.claimAll([c]))).then((answers) => answers.flat());
      return this.claimAll(claims);
    });
  }

  private key(caseId: string): string {
    return `${this.prefix}:sync-mark:{${caseId}}`;
  }

  private async claimAll(claims: Claim[]): Promise<boolean[]> {
    const keys = claims.map((c) => this.key(c.caseId));
    const answer = (await this.redis.eval(CLAIM, keys.length, ...keys, MARK_TTL_MS, ...claims.map((c) => c.jobId))) as string;
    return [...answer].map((a) => a === '1');
  }

  /** True when the sync job `jobId` is to be added for the case; false when a queued one covers it. */
  claim(caseId: string, jobId: string): Promise<boolean> {
    return this.batch.submit({ caseId, jobId });
  }

  /** Called by a sync before it reads the case: reports stored from now on need a sync of their own. */
  async clear(caseId: string): Promise<void> {
    await this.redis.del(this.key(caseId));
  }
}
