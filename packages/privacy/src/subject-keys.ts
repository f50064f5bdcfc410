import type { Redis } from '@rm/runtime';
import type { PrivacySubject } from '@rm/storage';

const DAY_MS = 86_400_000;

/**
 * The Redis keys an erasure deletes or edits (docs/privacy.md). For a player: the directory's cached
 * record (names) and the ban API's cached answer (rebuilt from the store on its next read). The ban
 * flag, its version and the open-case marks stay: they carry no names and enforcement reads them.
 * For a reporter: their daily counters (their id is in the key; the counter lives two days), and
 * their place in the reporter sets of open cases, which takes their pseudonym instead (the set
 * refuses a second report of one reporter: the store's reports name the pseudonym now).
 */
export async function eraseSubjectKeys(redis: Redis, prefix: string, subject: PrivacySubject, erased: { pseudonym: string; openCaseUsers: string[]; now: number }): Promise<number> {
  if (subject.kind === 'player') {
    // One key per command: on a Redis Cluster they live in different slots.
    return (await redis.del(`${prefix}:directory:user:${subject.userId}`)) + (await redis.del(`${prefix}:u:{${subject.userId}}:sanctions`));
  }
  const day = Math.floor(erased.now / DAY_MS);
  const reporterTag = `{r:${subject.platform}:${subject.reporterId}}`;
  // One key per command: on a Redis Cluster the days share a slot, the users' sets do not.
  let changed = 0;
  for (const d of [day - 1, day, day + 1]) changed += await redis.del(`${prefix}:daily:${reporterTag}:${d}`);
  for (const userId of erased.openCaseUsers) {
    const key = `${prefix}:u:{${userId}}:reporters`;
    if ((await redis.srem(key, `${subject.platform}:${subject.reporterId}`)) > 0) {
      await redis.sadd(key, `${subject.platform}:${erased.pseudonym}`);
      changed += 1;
    }
  }
  return changed;
}
