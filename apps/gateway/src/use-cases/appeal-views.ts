import type { AppealDetail, AppealEventView, AppealView, ModeratorView } from '@rm/contracts';
import type { AccountStore, AppealEvent, AppealRecord, AppealStore, SanctionStore } from '@rm/storage';
import { creatorNames, toView } from './sanction-status.js';

/** Names of the moderators (or, for a trusted system's sanction, API keys) an appeal mentions, read once each. */
export async function appealNames(store: AccountStore, ids: Iterable<string | null>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of ids) {
    if (id === null || names.has(id)) continue;
    const name = (await store.getModerator(id))?.username ?? (await store.getApiKey(id))?.name;
    names.set(id, name ?? id);
  }
  return names;
}

const who = (names: Map<string, string>, id: string): ModeratorView => ({ id, username: names.get(id) ?? id });

/** An appeal as the API shows it; `dueAt` is its SLA's end (the policy's appeals.sla after submission). */
export function toAppealView(a: AppealRecord, names: Map<string, string>, slaMs: number): AppealView {
  return {
    id: a.id,
    sanctionId: a.sanctionId,
    userId: a.userId,
    caseId: a.caseId,
    category: a.category,
    statement: a.statement,
    state: a.state,
    claimedBy: a.claimedBy === null ? null : who(names, a.claimedBy),
    sanctionModerator: who(names, a.sanctionModeratorId),
    automated: a.automated,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    dueAt: a.createdAt + slaMs,
    slaBreached: a.slaBreached,
    decidedAt: a.decidedAt,
    decidedBy: a.decidedBy === null ? null : who(names, a.decidedBy),
    reason: a.decisionReason,
  };
}

export function toAppealEventView(e: AppealEvent, names: Map<string, string>): AppealEventView {
  return {
    decisionId: e.decisionId,
    action: e.action,
    moderator: e.moderatorId === null ? null : who(names, e.moderatorId),
    fromState: e.fromState,
    toState: e.toState,
    reason: e.reason,
    at: e.at,
  };
}

const namedIn = (a: AppealRecord) => [a.claimedBy, a.sanctionModeratorId, a.decidedBy];

/** Views of a page of appeals. */
export async function appealViews(store: AccountStore, appeals: AppealRecord[], slaMs: number): Promise<AppealView[]> {
  const names = await appealNames(store, appeals.flatMap(namedIn));
  return appeals.map((a) => toAppealView(a, names, slaMs));
}

/** Appeals with their stories (oldest first): what the case's audit shows. */
export async function appealsWithHistory(store: AppealStore & AccountStore, appeals: AppealRecord[], slaMs: number): Promise<(AppealView & { history: AppealEventView[] })[]> {
  const histories = await Promise.all(appeals.map((a) => store.appealHistory(a.id)));
  const names = await appealNames(store, [...appeals.flatMap(namedIn), ...histories.flat().map((e) => e.moderatorId)]);
  return appeals.map((a, i) => ({ ...toAppealView(a, names, slaMs), history: histories[i]!.map((e) => toAppealEventView(e, names)) }));
}

/** One appeal in full: its story and the sanction it contests. */
export async function appealDetail(store: AppealStore & SanctionStore & AccountStore, a: AppealRecord, slaMs: number): Promise<AppealDetail> {
  const [[withHistory], sanction] = await Promise.all([appealsWithHistory(store, [a], slaMs), store.getSanction(a.sanctionId)]);
  const creator = sanction ? (await creatorNames(store, [sanction])).get(sanction.moderatorId)! : '';
  return { ...withHistory!, sanction: sanction ? toView(sanction, creator) : null };
}
