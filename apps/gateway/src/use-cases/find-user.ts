import { AppError } from '@rm/contracts';
import { PlatformError, type DirectoryUser, type UserDirectory } from '@rm/platforms';
import { unavailable } from '../errors/unavailable.js';

/** The reported user from the game platform's directory, or a 404 the caller can act on. */
export async function findReportedUser(directory: UserDirectory, userId: string): Promise<DirectoryUser> {
  let user: DirectoryUser | null;
  try {
    user = await directory.getUser(userId);
  } catch (err) {
    // A timeout or a status is our own wording and helps the caller; anything else stays in the log.
    const why = err instanceof PlatformError && /^(did not answer|answered)/.test(err.reason) ? `${err.reason}; ` : '';
    throw unavailable('The game platform user directory', `${why}nothing was recorded, try again`, err);
  }
  if (!user) throw new AppError('NOT_FOUND', `User ${userId} not found on the game platform`);
  return user;
}
