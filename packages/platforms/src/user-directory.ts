import type { AccountStore } from '@rm/storage';

/** A player as the game platform's user directory knows them. */
export interface DirectoryUser {
  id: string;
  name: string;
  displayName: string;
  avatar: string | null;
}

/** The game platform's user directory: who a user id belongs to. */
export interface UserDirectory {
  /** null when the platform knows no such user; throws when the directory cannot answer. */
  getUser(id: string): Promise<DirectoryUser | null>;
}

/** The embedded directory: players registered with the admin CLI (`user add`). */
export function embeddedDirectory(store: AccountStore): UserDirectory {
  return { getUser: (id) => store.getUser(id) };
}
