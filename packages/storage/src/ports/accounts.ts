import type { Permission } from '@rm/contracts';

export interface ApiKeyRecord {
  key: string;
  name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  secretHash: string;
  permissions: Permission[];
  elevated: boolean;
  admin: boolean;
  /** Requests per minute, or null for no per-key limit. */
  rateLimit: number | null;
  createdAt: number;
  revokedAt: number | null;
  /** The moderator this key is bound to: it may act only as them. Absent for an unbound key. */
  moderatorId?: string;
}

/** A player in the game platform's user directory. */
export interface UserRecord {
  id: string;
  name: string;
  displayName: string;
  avatar: string | null;
}

export interface ModeratorRecord {
  id: string;
  username: string;
  createdAt: number;
}

/** Keys and people: API keys, players (the user directory's copy), moderators. */
export interface AccountStore {
  createApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(key: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** Returns false when no such key exists or it was already revoked. */
  revokeApiKey(key: string, at: number): Promise<boolean>;
  addUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | null>;
  addModerator(moderator: ModeratorRecord): Promise<void>;
  /**
   * Adds the moderator, or renames them when they exist (their `createdAt` stays): a person who
   * signs in through the identity provider is recorded on their first sign-in, and their name kept current.
   */
  saveModerator(moderator: ModeratorRecord): Promise<void>;
  getModerator(id: string): Promise<ModeratorRecord | null>;
  listModerators(): Promise<ModeratorRecord[]>;
}
