import type { CaseSummary, PlayerNames } from '@rm/contracts';
import { SLA_BREACHED_FLAG, type AccountStore, type CaseRecord, type CaseTriageRecord, type ModeratorRecord } from '@rm/storage';
import { ageTerm, round, type TriagePolicy } from '@rm/triage';

const isOpen = (c: CaseRecord) => c.state === 'open' || c.state === 'claimed';

/** Usernames of the moderators named, read once each. */
export async function moderatorNames(store: AccountStore, ids: Iterable<string>): Promise<Map<string, ModeratorRecord | null>> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => store.getModerator(id)));
  return new Map(unique.map((id, i) => [id, found[i] ?? null]));
}

/** A case as GET /v1/cases lists it: the stored priority plus, while it is open, the age term. */
export function caseSummary(
  policy: TriagePolicy,
  c: CaseRecord,
  t: CaseTriageRecord,
  moderators: Map<string, ModeratorRecord | null>,
  players: Map<string, PlayerNames | null>,
  now: number,
): CaseSummary {
  const claimer = c.claimedBy ? moderators.get(c.claimedBy) : null;
  return {
    caseId: c.id,
    userId: c.userId,
    player: players.get(c.userId) ?? null,
    state: c.state,
    priority: round(t.priority + (isOpen(c) ? ageTerm(policy, c.createdAt, now) : 0)),
    reportCount: t.reportCount,
    distinctReporters: t.distinctReporters,
    categories: t.categories,
    claimedBy: c.claimedBy ? { id: c.claimedBy, username: claimer?.username ?? c.claimedBy } : null,
    openedAt: c.createdAt,
    lastReportAt: t.lastReportAt,
    // The triage's flags, and the case's own SLA breach (stored with the breach, not by the triage).
    flags: c.slaBreached && !t.flags.includes(SLA_BREACHED_FLAG) ? [...t.flags, SLA_BREACHED_FLAG] : t.flags,
  };
}
