import { AppError } from '@rm/contracts';
import type { DirectoryUser, UserDirectory } from '@rm/platforms';

/** The reported user from the game platform's directory, or a 404 the caller can act on. */
export async function findReportedUser(directory: UserDirectory, userId: string): Promise<DirectoryUser> {
  let user: DirectoryUser | null;
  try {
    user = await directory.getUser(userId);
  } catch (err) {
    throw new AppError('UNAVAILABLE', `The game platform user directory is unavailable: ${(err as Error).message}`);
  }
  if (!user) throw new AppError('NOT_FOUND', `User ${userId} not found on the game platform`);
  return user;
}
