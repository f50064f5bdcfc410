import type { NotificationJob, NotificationKind, NotificationOf } from '@rm/contracts';
import { approvalDmText, dismissalDmText, markSuperseded } from '@rm/platforms';
import type { NotificationDeps } from './deps.js';
import { fanOutDecision } from './fan-out.js';
import { syncCaseMessage } from './sync-case-message.js';

/** One handler per kind: a kind added to the contract without a handler fails to compile. */
type Handlers = { [K in NotificationKind]: (job: NotificationOf<K>, jobId: string) => Promise<unknown> };

/** Routes each notification to its use case. `jobId` is the dedupe key of what it sends. */
export function notificationHandlers(deps: NotificationDeps): (job: NotificationJob, jobId: string) => Promise<unknown> {
  const sync = (job: { caseId: string }) => syncCaseMessage(deps, job.caseId);
  const handlers: Handlers = {
    'case.opened': sync,
    'case.appended': sync,
    'case.sync': sync,
    // Queued by versions before `case.sync`, when a decision's deliveries and sync were one job.
    'case.claimed': sync,
    'case.unclaimed': sync,
    // A decision's deliveries; its `case.sync` brings the message in line.
    'case.approved': (job) => fanOutDecision(deps, job),
    'case.dismissed': (job) => fanOutDecision(deps, job),
    'case.reopened': async (job) => {
      await fanOutDecision(deps, job);
      // A job of an earlier version: it still marks the message the undo superseded.
      if (job.previousMessage) await markSuperseded(deps.chat, deps.store, job.caseId, job.previousMessage);
    },
    'reporter.dm': (job, jobId) =>
      deps.chat.sendDm(job.reporterId, { kind: 'reporter.dm', content: job.outcome === 'actioned' ? approvalDmText() : dismissalDmText(job.reason), dedupeKey: jobId }),
    'decision.webhook': async (job, jobId) => {
      // Enqueued while a webhook was configured; it has been switched off since.
      if (!deps.webhook) return { skipped: 'DECISION_WEBHOOK_URL is not set' };
      await deps.webhook.send(jobId, job.body);
      return { delivered: true };
    },
    'sanction.webhook': async (job, jobId) => {
      if (!deps.webhook) return { skipped: 'DECISION_WEBHOOK_URL is not set' };
      await deps.webhook.send(jobId, job.body);
      return { delivered: true };
    },
  };
  return (job, jobId) => (handlers[job.kind] as (job: NotificationJob, jobId: string) => Promise<unknown>)(job, jobId);
}
