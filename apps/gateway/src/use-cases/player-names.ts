import type { PlayerNames } from '@rm/contracts';
import type { UserDirectory } from '@rm/platforms';

/**
 * Names of the players, one directory lookup each (through its in-process and Redis caches). A
 * player the directory does not know, or cannot answer for now, is null: the queue shows the id
 * alone rather than failing for a name.
 */
export async function playerNames(directory: UserDirectory, userIds: Iterable<string>): Promise<Map<string, PlayerNames | null>> {
  const unique = [...new Set(userIds)];
  const found = await Promise.all(
    unique.map(async (id) => {
      const user = await directory.getUser(id).catch(() => null);
      return user ? { name: user.name, displayName: user.displayName } : null;
    }),
  );
  return new Map(unique.map((id, i) => [id, found[i] ?? null]));
}
