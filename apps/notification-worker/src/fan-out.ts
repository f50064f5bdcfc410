import { reporterDmOutcome, SANCTION_STATES, type DecisionDeliveries, type DecisionWebhookBody } from '@rm/contracts';
import type { AccountStore, ReportStore, SanctionStore } from '@rm/storage';
import type { NotificationDeps } from './deps.js';

/**
 * A decision's own deliveries as jobs of their own, so each retries (and dead-letters) on its own:
 * a DM to every chat-platform reporter of an approval (unless `dm: false`) or of a dismissal with
 * `dm: true`, and the webhook when one is configured.
 * Their ids derive from the decision, so running this twice enqueues nothing twice.
 */
export async function fanOutDecision(deps: Pick<NotificationDeps, 'notify' | 'webhook'> & { store: ReportStore & AccountStore & SanctionStore }, job: DecisionDeliveries): Promise<void> {
  const { caseId, decisionId, requestId } = job;
  const trace = requestId !== undefined ? { requestId } : {};
  const outcome = reporterDmOutcome(job);
  if (outcome !== null) {
    // Only reporters on the chat platform: an id from another platform may be someone else there.
    const onChat = (await deps.store.caseReporters(caseId)).filter((r) => r.platform === 'chatplatform');
    const reason = job.kind === 'case.dismissed' ? job.reason : undefined;
    for (const { id: reporterId } of onChat) {
      await deps.notify({ kind: 'reporter.dm', caseId, decisionId, reporterId, outcome, ...(reason !== undefined && { reason }), ...trace });
    }
  }
  if (deps.webhook) await deps.notify({ kind: 'decision.webhook', decisionId, body: await webhookBody(deps.store, job), ...trace });
}

async function webhookBody(store: ReportStore & AccountStore & SanctionStore, job: DecisionDeliveries): Promise<DecisionWebhookBody> {
  const [c, reportIds, moderator] = await Promise.all([store.getCase(job.caseId), store.caseReportIds(job.caseId), store.getModerator(job.moderatorId)]);
  if (!c) throw new Error(`case ${job.caseId} not found`);
  const common = {
    decisionId: job.decisionId,
    caseId: job.caseId,
    userId: c.userId,
    reportIds,
    moderator: { id: job.moderatorId, username: moderator?.username ?? job.moderatorId },
    at: job.at,
  };
  // The case's sanction, newest first: the one this approval imposed, or the one this undo lifted.
  const caseSanctionBlocksLogin = async () => (await store.sanctionSummariesOfUser(c.userId, { caseId: job.caseId, states: SANCTION_STATES }))[0]?.blocksLogin ?? true;
  switch (job.kind) {
    case 'case.approved':
      // A chat restriction or a warning bans nobody.
      return { ...common, event: 'approved', ban: (await caseSanctionBlocksLogin()) ? 'set' : null };
    case 'case.dismissed':
      return { ...common, event: 'dismissed', ban: null, ...(job.reason !== undefined && { reason: job.reason }) };
    case 'case.reopened':
      // `lift` only once the player is banned no more: another login-blocking sanction keeps them banned.
      return { ...common, event: 'undone', ban: job.undid === 'approved' && (await caseSanctionBlocksLogin()) && !(await store.isBanned(c.userId)) ? 'lift' : null };
  }
}
