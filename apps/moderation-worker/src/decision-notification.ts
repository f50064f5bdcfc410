import type { DecisionJob, NotificationJob } from '@rm/contracts';
import type { CaseState } from '@rm/storage';
import type { Repost } from './repost-case.js';

/** The notification an applied decision sends (the chat message edit, DMs, webhook follow from it). */
export function decisionNotification(job: DecisionJob, applied: { caseId: string; fromState: CaseState; at: number }, previous?: Repost['previous']): NotificationJob {
  const common = {
    caseId: applied.caseId,
    decisionId: job.decisionId,
    moderatorId: job.moderatorId,
    at: applied.at,
    ...(job.requestId !== undefined && { requestId: job.requestId }),
  };
  switch (job.action) {
    case 'claim':
      return { kind: 'case.claimed', ...common };
    case 'unclaim':
      return { kind: 'case.unclaimed', ...common };
    case 'approve':
      return { kind: 'case.approved', ...common, ...(job.dm !== undefined && { dm: job.dm }) };
    case 'dismiss':
      return { kind: 'case.dismissed', ...common, dm: job.dm, ...(job.reason !== undefined && { reason: job.reason }) };
    case 'undo':
      return { kind: 'case.reopened', ...common, undid: applied.fromState === 'approved' ? 'approved' : 'dismissed', ...(previous && { previousMessage: previous }) };
  }
}
