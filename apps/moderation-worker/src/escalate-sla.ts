import { CASE_CREATED_OPENING } from '@rm/contracts';
import { slaEscalationText, type ChatPlatform } from '@rm/platforms';
import type { DecisionStore, ReportStore, TriageStore } from '@rm/storage';

export interface EscalateDeps {
  store: ReportStore & DecisionStore & TriageStore;
  chat: Pick<ChatPlatform, 'post'>;
  /** Counts a breach in the metrics (once per breach recorded by this process). */
  slaBreached: (category: string) => void;
  settings: { escalationChannel: string };
}

export type SlaOutcome = 'escalated' | 'met' | 'stale';

/**
 * A case's SLA ran out. If the case is still waiting unclaimed in the opening the check was
 * scheduled for, it is escalated once: the breach is recorded and the case flagged (storage),
 * a message goes to the escalation channel, the metric counts it. A case claimed or decided
 * meanwhile met its SLA; one reopened since is timed by the check of its new opening.
 */
export async function escalateSla(deps: EscalateDeps, job: { caseId: string; openingId: string; category: string }, slaMs: number): Promise<SlaOutcome> {
  const c = await deps.store.getCase(job.caseId);
  if (!c || c.state !== 'open') return 'met';
  const history = await deps.store.caseHistory(job.caseId);
  const current = history.findLast((e) => e.action === 'undo')?.decisionId ?? CASE_CREATED_OPENING;
  if (current !== job.openingId) return 'stale';
  const recorded = await deps.store.recordSlaBreach({ caseId: job.caseId, openingId: job.openingId, category: job.category, at: Date.now() });
  const reports = await deps.store.caseReportIds(job.caseId);
  // Keyed by the opening: a retried job (say, after the platform failed) posts once.
  await deps.chat.post(deps.settings.escalationChannel, {
    kind: 'case.escalated',
    content: slaEscalationText(job.caseId, c.userId, job.category, slaMs, reports),
    dedupeKey: `sla-${job.caseId}-${job.openingId}`,
  });
  if (recorded) deps.slaBreached(job.category);
  return 'escalated';
}
