import type { SanctionStatusResponse, SanctionView } from '@rm/contracts';
import { sanctionVersion, type SanctionStatusCache } from '@rm/report-guard';
import type { SanctionRecord, Store } from '@rm/storage';

/**
 * GET /v1/sanctions/{userId}, called on every player join. Answered from the Redis cache when it
 * holds the player (the JSON as sent); a miss, or Redis failing, reads storage, the system of
 * record, and caches the answer under the player's sanction version (see SanctionStatusCache).
 */
export async function sanctionStatus(deps: { store: Store; cache: SanctionStatusCache }, userId: string): Promise<string> {
  const cached = await deps.cache.get(userId).catch(() => null);
  if (cached) return cached;
  const sanctions = await deps.store.sanctionsOfUser(userId);
  const json = JSON.stringify(await statusOf(deps.store, userId, sanctions));
  await deps.cache.put(userId, sanctionVersion(sanctions), json).catch(() => undefined);
  return json;
}

async function statusOf(store: Store, userId: string, sanctions: SanctionRecord[]): Promise<SanctionStatusResponse> {
  const names = new Map<string, string>();
  for (const id of new Set(sanctions.map((s) => s.moderatorId))) names.set(id, (await store.getModerator(id))?.username ?? id);
  return {
    success: true,
    userId,
    banned: sanctions.some((s) => s.state === 'active'),
    sanctions: sanctions.map((s) => toView(s, names.get(s.moderatorId) ?? s.moderatorId)),
  };
}

export function toView(s: SanctionRecord, moderatorName: string): SanctionView {
  return {
    id: s.id,
    userId: s.userId,
    caseId: s.caseId,
    kind: s.kind,
    ...(s.reason !== null && { reason: s.reason }),
    moderator: { id: s.moderatorId, username: moderatorName },
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
    state: s.state,
    ...(s.liftedAt !== null && { liftedAt: s.liftedAt }),
    ...(s.liftedBy !== null && { liftedBy: s.liftedBy }),
  };
}
