import { AppError } from '@rm/contracts';
import { PlatformError, type DirectoryUser, type UserDirectory } from '@rm/platforms';

/** The reported user from the game platform's directory, or a 404 the caller can act on. */
export async function findReportedUser(directory: UserDirectory, userId: string): Promise<DirectoryUser> {
  let user: DirectoryUser | null;
  try {
    user = await directory.getUser(userId);
  } catch (err) {
    const why = err instanceof PlatformError ? err.reason : (err as Error).message;
    throw new AppError('UNAVAILABLE', `The game platform user directory is unavailable: ${why}; nothing was recorded, try again`);
  }
  if (!user) throw new AppError('NOT_FOUND', `User ${userId} not found on the game platform`);
  return user;
}
