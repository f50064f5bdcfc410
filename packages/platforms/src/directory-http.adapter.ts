import { z } from 'zod';
import { PlatformError } from './errors.js';
import { callPlatform, isAddressable, isOk, statusError, urlOf } from './http.js';
import type { DirectoryUser, UserDirectory } from './user-directory.js';

const PLATFORM = 'the game platform user directory';

const UserBody = z.object({
  id: z.union([z.string().min(1), z.number()]),
  name: z.string(),
  displayName: z.string(),
  avatar: z.string().nullish(),
});

/**
 * The game platform's directory over HTTP: `GET {USER_DIRECTORY_URL}/users/{id}` answers
 * `{id, name, displayName, avatar}`, 404 for an unknown user. Anything else, or no answer within
 * the timeout, is a PlatformError naming the directory.
 */
export function httpDirectory(options: { baseUrl: string; timeoutMs: number }): UserDirectory {
  // The gateway waits on this call, so a 429 is not waited out: the caller hears it at once.
  const target = { platform: PLATFORM, metric: 'directory' as const, timeoutMs: options.timeoutMs, maxInlineRetryAfterMs: 0 };
  return {
    async getUser(id): Promise<DirectoryUser | null> {
      // `/users/..` would address another path: no user the directory serves can have such an id.
      if (!isAddressable(id)) return null;
      const answer = await callPlatform(target, 'GET', urlOf(options.baseUrl, 'users', id));
      // 414 / 431: the id is too long for the directory's URLs, so it names no user it has.
      if (answer.status === 404 || answer.status === 414 || answer.status === 431) return null;
      if (!isOk(answer.status)) throw statusError(PLATFORM, `the lookup of user ${id}`, answer.status);
      const parsed = UserBody.safeParse(answer.body);
      if (!parsed.success) throw new PlatformError(PLATFORM, `answered the lookup of user ${id} with an unexpected body`, false, answer.status);
      return { id: String(parsed.data.id), name: parsed.data.name, displayName: parsed.data.displayName, avatar: parsed.data.avatar ?? null };
    },
  };
}
