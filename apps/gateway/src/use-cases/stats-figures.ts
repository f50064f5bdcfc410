import type { AppealFigures, CategoryStats, DecisionCounts, ModeratorStats, StatsResponse } from '@rm/contracts';
import type { AppealRecord, CaseTimeline, OpenCaseSummary, SlaBreach } from '@rm/storage';

/** The moderator id of decisions the service takes itself (a claim released by its TTL). */
const SYSTEM = 'system';

type Kind = keyof DecisionCounts;

/** Samples gathered for one group (everything, a moderator, a category). */
class Tally {
  readonly decisions: DecisionCounts = { claim: 0, unclaim: 0, expire: 0, approve: 0, dismiss: 0, undo: 0 };
  readonly toClaim: number[] = [];
  readonly toDecision: number[] = [];
  decided = 0;
  overturned = 0;

  figures() {
    return {
      decisions: { ...this.decisions },
      medianTimeToClaimMs: median(this.toClaim),
      medianTimeToDecisionMs: median(this.toDecision),
      overturnRate: this.decided === 0 ? null : this.overturned / this.decided,
    };
  }
}

/** Appeals of one group: received in the window, and decided in it by outcome. */
class AppealTally {
  received = 0;
  upheld = 0;
  overturned = 0;

  add(a: AppealRecord, inWindow: (at: number) => boolean): void {
    if (inWindow(a.createdAt)) this.received++;
    if (a.decidedAt !== null && inWindow(a.decidedAt)) {
      if (a.state === 'upheld') this.upheld++;
      if (a.state === 'overturned') this.overturned++;
    }
  }

  figures(): AppealFigures {
    const decided = this.upheld + this.overturned;
    return { received: this.received, upheld: this.upheld, overturned: this.overturned, overturnRate: decided === 0 ? null : this.overturned / decided };
  }
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

const group = <T>(map: Map<string, T>, key: string, make: () => T): T => {
  let v = map.get(key);
  if (!v) map.set(key, (v = make()));
  return v;
};

export interface StatsInput {
  window: string;
  since: number;
  until: number;
  openCases: OpenCaseSummary[];
  reportsReceived: number;
  timelines: CaseTimeline[];
  breaches: SlaBreach[];
  /** Appeals submitted or decided since `since` (appealsSince). */
  appeals: AppealRecord[];
  categoryOf: (c: { caseId: string; userId: string }) => string;
}

/**
 * The queue-health figures from what storage holds. Decisions count when they fall in the window.
 * Time to claim runs from the moment the case last became open and unclaimed (creation, unclaim,
 * expiry, undo) to the claim; time to decision from the case's opening (creation or the last
 * undo) to the approval or dismissal. A decision is overturned when an undo follows it. An expired
 * claim counts as `expire`, and per moderator against the moderator whose claim it was.
 */
export function statsFigures(input: StatsInput): StatsResponse {
  const inWindow = (at: number) => at >= input.since && at <= input.until;
  const all = new Tally();
  const byModerator = new Map<string, Tally>();
  const byCategory = new Map<string, Tally>();

  for (const t of input.timelines) {
    const category = group(byCategory, input.categoryOf(t), () => new Tally());
    let waitingSince = t.createdAt;
    let openedAt = t.createdAt;
    let claimer: string | null = null;
    t.events.forEach((e, i) => {
      const isExpiry = e.action === 'unclaim' && e.moderatorId === SYSTEM;
      const kind: Kind = isExpiry ? 'expire' : e.action;
      const who = isExpiry ? (claimer ?? SYSTEM) : e.moderatorId;
      const tallies = [all, category, group(byModerator, who, () => new Tally())];
      if (inWindow(e.at)) {
        for (const tally of tallies) tally.decisions[kind]++;
        if (kind === 'claim') for (const tally of tallies) tally.toClaim.push(e.at - waitingSince);
        if (kind === 'approve' || kind === 'dismiss') {
          const overturned = t.events[i + 1]?.action === 'undo';
          for (const tally of tallies) {
            tally.toDecision.push(e.at - openedAt);
            tally.decided++;
            if (overturned) tally.overturned++;
          }
        }
      }
      if (e.action === 'claim') claimer = e.moderatorId;
      if (e.action === 'unclaim' || e.action === 'undo') {
        claimer = null;
        waitingSince = e.at;
      }
      if (e.action === 'undo') openedAt = e.at;
    });
  }

  // Appeals: received when submitted in the window, upheld or overturned when decided in it;
  // per moderator against the one whose sanction was appealed, per category by the sanction's.
  const appealsAll = new AppealTally();
  const appealsByModerator = new Map<string, AppealTally>();
  const appealsByCategory = new Map<string, AppealTally>();
  for (const a of input.appeals) {
    const tallies = [appealsAll, group(appealsByModerator, a.sanctionModeratorId, () => new AppealTally()), group(appealsByCategory, a.category ?? input.categoryOf({ caseId: a.caseId ?? '', userId: a.userId }), () => new AppealTally())];
    for (const t of tallies) t.add(a, inWindow);
  }

  const queue = (cases: OpenCaseSummary[], breaches: SlaBreach[]) => ({
    open: cases.filter((c) => c.state === 'open').length,
    claimed: cases.filter((c) => c.state === 'claimed').length,
    oldestOpenAgeMs: cases.length === 0 ? null : Math.max(0, input.until - Math.min(...cases.map((c) => c.createdAt))),
    slaBreaches: breaches.length,
    openSlaBreached: cases.filter((c) => c.slaBreached).length,
  });

  const openByCategory = new Map<string, OpenCaseSummary[]>();
  for (const c of input.openCases) group(openByCategory, input.categoryOf(c), () => []).push(c);
  const breachesByCategory = new Map<string, SlaBreach[]>();
  for (const b of input.breaches) group(breachesByCategory, b.category, () => []).push(b);
  const categories = [...new Set([...byCategory.keys(), ...openByCategory.keys(), ...breachesByCategory.keys(), ...appealsByCategory.keys()])].sort();
  const claimedBy = new Map<string, number>();
  for (const c of input.openCases) if (c.claimedBy) claimedBy.set(c.claimedBy, (claimedBy.get(c.claimedBy) ?? 0) + 1);
  const moderators = [...new Set([...byModerator.keys(), ...claimedBy.keys(), ...appealsByModerator.keys()])].sort();

  return {
    success: true,
    window: input.window,
    since: input.since,
    until: input.until,
    ...queue(input.openCases, input.breaches),
    reportsReceived: input.reportsReceived,
    ...all.figures(),
    appeals: appealsAll.figures(),
    byModerator: moderators.map((moderatorId): ModeratorStats => ({
      moderatorId,
      claimed: claimedBy.get(moderatorId) ?? 0,
      ...(byModerator.get(moderatorId) ?? new Tally()).figures(),
      appeals: (appealsByModerator.get(moderatorId) ?? new AppealTally()).figures(),
    })),
    byCategory: categories.map((category): CategoryStats => ({
      category,
      ...queue(openByCategory.get(category) ?? [], breachesByCategory.get(category) ?? []),
      ...(byCategory.get(category) ?? new Tally()).figures(),
      appeals: (appealsByCategory.get(category) ?? new AppealTally()).figures(),
    })),
  };
}
