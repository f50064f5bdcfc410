import type { SanctionStatusResponse, SanctionView } from '@rm/contracts';
import { isBannedBy, sanctionVersion, tallyOf, type SanctionStatusCache } from '@rm/report-guard';
import { WARNING_KIND } from '@rm/triage';
import type { AccountStore, SanctionRecord, SanctionStore } from '@rm/storage';

/**
 * GET /v1/sanctions/{userId}, called on every player join. Answered from the Redis cache when it
 * holds the player (the JSON as sent); a miss, or Redis failing, reads storage, the system of
 * record, and caches the answer under the player's sanction version (see SanctionStatusCache).
 */
export async function sanctionStatus(deps: { store: SanctionStore & AccountStore; cache: SanctionStatusCache }, userId: string): Promise<string> {
  const cached = await deps.cache.get(userId).catch(() => null);
  // An answer cached by a version before restrictions, or before statements of reasons (for up to
  // 10 minutes after an upgrade), is rebuilt: a game server reads `restrictions` on every join.
  if (cached && cached.includes('"restrictions":') && (cached.includes('"sanctions":[]') || cached.includes('"statement":'))) return cached;
  const sanctions = await deps.store.sanctionsOfUser(userId);
  const json = JSON.stringify(await statusOf(deps.store, userId, sanctions));
  await deps.cache.put(userId, sanctionVersion(tallyOf(sanctions)), json).catch(() => undefined);
  return json;
}

async function statusOf(store: AccountStore, userId: string, all: SanctionRecord[]): Promise<SanctionStatusResponse> {
  // A ban wave not effective yet is not shown: nothing of it is enforced before effectiveAt (nor
  // ever, for one of its sanctions lifted before then).
  const sanctions = all.filter((s) => tookEffect(s));
  const names = await creatorNames(store, sanctions);
  return {
    success: true,
    userId,
    banned: isBannedBy(tallyOf(sanctions)),
    restrictions: restrictionsOf(sanctions),
    sanctions: sanctions.map((s) => toView(s, names.get(s.moderatorId) ?? s.moderatorId)),
  };
}

/** False for a scheduled sanction, and for one lifted before its wave started. */
export function tookEffect(s: SanctionRecord): boolean {
  if (s.state === 'scheduled') return false;
  return !(s.effectiveAt !== null && s.liftedAt !== null && s.liftedAt < s.effectiveAt);
}

/** The distinct kinds active now, in the order of their newest sanction; a warning restricts nothing. */
export function restrictionsOf(sanctions: SanctionRecord[]): string[] {
  return [...new Set(sanctions.filter((s) => s.state === 'active' && s.kind !== WARNING_KIND).map((s) => s.kind))];
}

/**
 * Who created each sanction, by name: a moderator (approvals, rules), or for a trusted system's
 * sanction the name of its API key (its moderatorId is the key id).
 */
export async function creatorNames(store: AccountStore, sanctions: SanctionRecord[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const s of sanctions) {
    if (names.has(s.moderatorId)) continue;
    const moderator = await store.getModerator(s.moderatorId);
    const name = moderator?.username ?? (s.caseId === null ? (await store.getApiKey(s.moderatorId))?.name : undefined);
    names.set(s.moderatorId, name ?? s.moderatorId);
  }
  return names;
}

export function toView(s: SanctionRecord, moderatorName: string): SanctionView {
  return {
    id: s.id,
    userId: s.userId,
    caseId: s.caseId,
    kind: s.kind,
    blocksLogin: s.blocksLogin,
    category: s.category,
    source: s.source,
    ...(s.effectiveAt !== null && { effectiveAt: s.effectiveAt }),
    ...(s.ladder !== null && { ladder: s.ladder }),
    ...(s.evidence.length > 0 && { evidence: s.evidence }),
    ...(s.reason !== null && { reason: s.reason }),
    moderator: { id: s.moderatorId, username: moderatorName },
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
    state: s.state,
    ...(s.liftedAt !== null && { liftedAt: s.liftedAt }),
    ...(s.liftedBy !== null && { liftedBy: s.liftedBy }),
    ...(s.liftReason !== null && { liftReason: s.liftReason }),
    statement: s.statement,
  };
}
