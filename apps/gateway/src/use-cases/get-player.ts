import type { PlayerResponse } from '@rm/contracts';
import type { UserDirectory } from '@rm/platforms';
import { findReportedUser } from './find-user.js';

/** A player from the game platform's directory (cached): 404 when it has none, 500 when it cannot answer. */
export async function getPlayer(directory: UserDirectory, userId: string): Promise<PlayerResponse> {
  const user = await findReportedUser(directory, userId);
  // The directory's own id may be numeric; the player's id is the one asked for.
  return { success: true, player: { id: userId, name: user.name, displayName: user.displayName, avatar: user.avatar ?? null } };
}
