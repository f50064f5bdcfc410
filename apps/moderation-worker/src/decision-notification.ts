import type { DecisionJob, NotificationJob } from '@rm/contracts';
import type { CaseState } from '@rm/storage';

type Applied = { caseId: string; fromState: CaseState; at: number };

/**
 * What an applied decision sends besides the sync of the case's message: an approval's, a
 * dismissal's or an undo's DMs and decision webhook. A claim or an unclaim sends nothing of its own.
 */
export function decisionDeliveries(job: DecisionJob, applied: Applied): NotificationJob | null {
  const common = {
    caseId: applied.caseId,
    decisionId: job.decisionId,
    moderatorId: job.moderatorId,
    at: applied.at,
    ...(job.requestId !== undefined && { requestId: job.requestId }),
  };
  switch (job.action) {
    case 'claim':
    case 'unclaim':
      return null;
    case 'approve':
      return { kind: 'case.approved', ...common, ...(job.dm !== undefined && { dm: job.dm }) };
    case 'dismiss':
      return { kind: 'case.dismissed', ...common, dm: job.dm, ...(job.reason !== undefined && { reason: job.reason }) };
    case 'undo':
      return { kind: 'case.reopened', ...common, undid: applied.fromState === 'approved' ? 'approved' : 'dismissed' };
  }
}

/** The sync of the case's chat message that every decision queues; those of quick decisions coalesce (notifier.ts). */
export function decisionSync(job: DecisionJob, caseId: string): NotificationJob {
  return { kind: 'case.sync', caseId, decisionId: job.decisionId, ...(job.requestId !== undefined && { requestId: job.requestId }) };
}
