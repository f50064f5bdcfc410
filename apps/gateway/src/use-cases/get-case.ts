import { AppError, type CaseResponse } from '@rm/contracts';
import type { AccountStore, AppealStore, CaseTriageRecord, DecisionStore, EvidenceStore, ReporterStore, ReportStore, SanctionStore, TriageStore } from '@rm/storage';
import { appealSettingsOf, assessCase, caseCategory, caseReportsWithCredibility, categoryOf, kindsOf, proposeStep, reporterKey, type TriagePolicy } from '@rm/triage';
import type { UserDirectory } from '@rm/platforms';
import { caseSummary, moderatorNames } from './case-views.js';
import { playerNames } from './player-names.js';
import { toView } from './sanction-status.js';
import { evidenceItemsOf } from './evidence-items.js';
import { appealsWithHistory } from './appeal-views.js';

/**
 * One case in full: its reports (answers, evidence, the reporter with their credibility), its
 * decisions oldest first, and the player's sanctions. A case not triaged yet (its first report was
 * stored a moment ago) is assessed here, without acting on any rule.
 */
export async function getCase(
  store: ReportStore & ReporterStore & TriageStore & DecisionStore & SanctionStore & AppealStore & EvidenceStore & AccountStore,
  directory: UserDirectory,
  policy: TriagePolicy,
  caseId: string,
  now = Date.now(),
): Promise<CaseResponse> {
  const c = await store.getCase(caseId);
  if (!c) throw new AppError('NOT_FOUND', `Case ${caseId} not found`);
  const [{ reports, credibility }, stored, history, sanctions, players, appeals] = await Promise.all([
    caseReportsWithCredibility(store, caseId),
    store.getCaseTriage(caseId),
    store.caseHistory(caseId),
    store.sanctionsOfUser(c.userId),
    playerNames(directory, [c.userId]),
    store.listAppeals({ states: ['open', 'claimed', 'upheld', 'overturned'], caseId, limit: 100 }),
  ]);
  const kept = await store.evidenceOfReports(reports.map((r) => r.id));
  const triage: CaseTriageRecord = stored ?? { caseId, ...assessCase(policy, reports, credibility, null, false), updatedAt: now };
  const proposal = proposeStep(policy, caseCategory(policy, triage), sanctions, now);
  const moderators = await moderatorNames(store, [...(c.claimedBy ? [c.claimedBy] : []), ...history.map((e) => e.moderatorId), ...sanctions.map((x) => x.moderatorId)]);
  return {
    success: true,
    case: {
      ...caseSummary(policy, c, triage, moderators, players, now),
      reports: reports.map((r) => {
        const reporter = credibility.get(reporterKey({ platform: r.reporterPlatform, id: r.reporterId }))!;
        return {
          id: r.id,
          receivedAt: r.receivedAt,
          reportType: r.reportType,
          category: categoryOf(policy, r),
          answers: r.answers,
          evidence: r.evidence,
          evidenceItems: evidenceItemsOf(r, kept),
          reporter: { id: r.reporterId, platform: r.reporterPlatform, approved: reporter.approved, dismissed: reporter.dismissed, credibility: reporter.credibility },
        };
      }),
      decisions: history.map((e) => ({
        decisionId: e.decisionId,
        action: e.action,
        moderator: { id: e.moderatorId, username: moderators.get(e.moderatorId)?.username ?? e.moderatorId },
        fromState: e.fromState,
        toState: e.toState,
        at: e.at,
      })),
      sanctions: sanctions.map((x) => toView(x, moderators.get(x.moderatorId)?.username ?? x.moderatorId)),
      appeals: await appealsWithHistory(store, appeals, appealSettingsOf(policy).slaMs),
      proposedSanction: {
        category: proposal.category,
        kind: proposal.kind,
        label: kindsOf(policy)[proposal.kind]?.label ?? proposal.kind,
        duration: proposal.duration,
        offences: proposal.offences,
        step: proposal.step,
      },
    },
  };
}

