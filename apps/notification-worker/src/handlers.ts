import type { NotificationJob, NotificationKind, NotificationOf } from '@rm/contracts';
import { approvalDmText, dismissalDmText } from '@rm/platforms';
import type { NotificationDeps } from './deps.js';
import { fanOutDecision } from './fan-out.js';
import { markSuperseded } from './mark-superseded.js';
import { syncCaseMessage } from './sync-case-message.js';

/** One handler per kind: a kind added to the contract without a handler fails to compile. */
type Handlers = { [K in NotificationKind]: (job: NotificationOf<K>, jobId: string) => Promise<unknown> };

/** Routes each notification to its use case. `jobId` is the dedupe key of what it sends. */
export function notificationHandlers(deps: NotificationDeps): (job: NotificationJob, jobId: string) => Promise<unknown> {
  const sync = (job: { caseId: string }) => syncCaseMessage(deps, job.caseId);
  const decided = async (job: NotificationOf<'case.approved' | 'case.dismissed'>) => {
    await fanOutDecision(deps, job);
    return sync(job);
  };
  const handlers: Handlers = {
    'case.opened': sync,
    'case.appended': sync,
    'case.claimed': sync,
    'case.unclaimed': sync,
    'case.approved': decided,
    'case.dismissed': decided,
    'case.reopened': async (job) => {
      await fanOutDecision(deps, job);
      const synced = await sync(job);
      if (job.previousMessage) await markSuperseded(deps, job.previousMessage, synced.messageId);
      return synced;
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
