import { AppError, type DecisionJob } from '@rm/contracts';
import type { CaseRecord, EvidenceStore, ReportStore, SanctionStore, Transition, TriageStore } from '@rm/storage';
import { assembleStatement, caseCategory, ESCALATED, kindsOf, OFFENCE_STATES, proposeStep } from '@rm/triage';
import type { DecideDeps } from './deps.js';

type Approval = Extract<DecisionJob, { action: 'approve' }>;

/**
 * The sanction an approval creates. Without a kind or duration it is the next step of the case
 * category's ladder; a kind or duration named by the moderator (or the rule) overrides it (kind
 * absent with a duration: `ban`, as before kinds; duration absent: permanent), and the ladder's
 * proposal is kept with the sanction (the audit of an override).
 */
export async function approvalSanction(deps: Pick<DecideDeps, 'triagePolicy'> & { store: TriageStore & ReportStore & SanctionStore & EvidenceStore }, job: Approval, c: CaseRecord, at: number): Promise<NonNullable<Transition['sanction']>> {
  const policy = deps.triagePolicy;
  const [triage, reports] = await Promise.all([deps.store.getCaseTriage(c.id), deps.store.caseReports(c.id)]);
  const category = job.category ?? caseCategory(policy, triage);
  // Only the player's offences in the category: a long history of lifted sanctions is not read.
  const offences = await deps.store.sanctionSummariesOfUser(c.userId, { category, states: OFFENCE_STATES });
  const proposed = proposeStep(policy, category, offences, at);
  const named = job.kind !== undefined || job.durationMs !== undefined;
  const kind = named ? (job.kind ?? 'ban') : proposed.kind;
  const durationMs = named ? (job.durationMs ?? null) : proposed.durationMs;
  const known = kindsOf(policy);
  // The gateway checked the kind against its policy; this worker's may differ during a rollout.
  if (!(kind in known)) throw new AppError('VALIDATION_FAILED', `kind must be one of ${Object.keys(known).join(', ')}`, [{ field: 'kind', message: `kind must be one of ${Object.keys(known).join(', ')}` }]);
  const expiresAt = durationMs === null ? null : at + durationMs;
  const kept = new Map((await deps.store.evidenceOfReports(reports.map((r) => r.id))).map((e) => [`${e.reportId}/${e.index}`, e.sha256]));
  const byRule = job.ruleId !== undefined;
  const statement = assembleStatement(policy, {
    category,
    kind,
    from: at,
    until: expiresAt,
    reason: job.sanctionReason ?? null,
    origin: 'reports',
    reports: reports.length === 0 ? null : { count: reports.length, firstAt: reports[0]!.receivedAt, lastAt: reports.at(-1)!.receivedAt },
    evidence: reports.flatMap((r) => r.evidence.map((e, i) => ({ url: e.url, sha256: kept.get(`${r.id}/${i}`) ?? null }))),
    // Players' reports found it (a notice), not a machine; a rule decided alone, or raised the
    // case to the moderator who decided (docs/decisions.md, issue 28).
    automatedDetection: false,
    automatedDecision: byRule ? 'fully' : triage?.flags.includes(ESCALATED) ? 'partially' : 'not',
    illegalContent: job.illegalContent,
    issuedAt: at,
  });
  return {
    reason: job.sanctionReason ?? null,
    expiresAt,
    kind,
    blocksLogin: known[kind]!.blocksLogin,
    category,
    source: job.ruleId !== undefined ? { type: 'rule', id: job.ruleId } : { type: 'case', id: c.id },
    ladder: {
      offences: proposed.offences,
      proposed: { kind: proposed.kind, durationMs: proposed.durationMs },
      overridden: named && (kind !== proposed.kind || durationMs !== proposed.durationMs),
    },
    statement,
  };
}
