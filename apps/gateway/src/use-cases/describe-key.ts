import { PERMISSIONS, type MeResponse } from '@rm/contracts';
import type { AccountStore, ApiKeyRecord } from '@rm/storage';

/** The calling key and, when it is bound, its moderator (GET /v1/me). */
export async function describeKey(store: Pick<AccountStore, 'getModerator'>, key: ApiKeyRecord): Promise<MeResponse> {
  const moderator = key.moderatorId === undefined ? null : await store.getModerator(key.moderatorId);
  return {
    success: true,
    key: { id: key.key, name: key.name, permissions: key.admin ? [...PERMISSIONS] : [...key.permissions] },
    moderator: moderator && { id: moderator.id, username: moderator.username },
  };
}
