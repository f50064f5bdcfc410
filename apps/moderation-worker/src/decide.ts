import { annotateSpan } from '@rm/runtime';
import { AppError, type DecisionJob, type DecisionResult, type ModeratorView } from '@rm/contracts';
import type { EffectKind } from '@rm/delivery';
import { OpenCaseConflictError, recordedEffects, type CaseEvent, type CaseRecord, type EffectRecord, type SanctionSummary } from '@rm/storage';
import { approvalSanction } from './approval-sanction.js';
import { decisionEffects } from './decision-effects.js';
import type { DecideDeps } from './deps.js';
import { newerCaseOpen, repostCase, type Repost } from './repost-case.js';
import { plan } from './state-machine.js';
import { deadlineOf, scheduleDeadlineAgain } from './schedule-deadlines.js';

/** How many times a decision re-reads the case after losing a compare-and-set race. */
const MAX_RACES = 8;

const refusal = (e: AppError): DecisionResult => ({ ok: false, error: { code: e.code, message: e.message } });

/**
 * Applies one moderator decision to the case of the named report. Refusals are answers, not
 * failures. Idempotent: a decision already recorded answers what it answered the first time.
 */
export async function decide(deps: DecideDeps, job: DecisionJob): Promise<DecisionResult> {
  try {
    return await apply(deps, job);
  } catch (err) {
    if (err instanceof AppError) return refusal(err);
    throw err;
  }
}

async function apply(deps: DecideDeps, job: DecisionJob): Promise<DecisionResult> {
  const { store } = deps;
  const earlier = await store.findDecision(job.decisionId);
  if (earlier) return answerAgain(deps, job, earlier);
  const moderatorRecord = await store.getModerator(job.moderatorId);
  if (!moderatorRecord) throw new AppError('NOT_FOUND', `Moderator ${job.moderatorId} is not registered`);
  const moderator: ModeratorView = { id: moderatorRecord.id, username: moderatorRecord.username };
  const report = await store.getReport(job.reportId);
  if (!report) throw new AppError('NOT_FOUND', `Report ${job.reportId} not found`);

  for (let race = 0; race < MAX_RACES; race++) {
    const c = await store.getCase(report.caseId);
    annotateSpan({ 'rm.case_id': report.caseId });
    if (!c) throw new AppError('NOT_FOUND', `The case of report ${job.reportId} was not found`);
    const p = plan(c, { action: job.action, moderatorId: job.moderatorId, bypassClaimCheck: job.action === 'unclaim' && job.bypassClaimCheck });
    if (!p.ok) {
      const claimer = p.claimer ? await store.getModerator(p.claimer) : null;
      // "The case is claimed by alice": the claimer by name, as moderators know each other.
      throw new AppError(p.code, p.claimer ? `${p.message} by ${claimer?.username ?? 'another moderator'}` : p.message);
    }
    const reports = await store.caseReportIds(c.id);
    // Posted before the transition, keyed by the decision: a retry re-uses the same message.
    const repost = job.action === 'undo' ? await repostCase(deps, job.decisionId, c, report.user.name, reports) : undefined;
    const at = Date.now();
    const sanction = job.action === 'approve' ? await approvalSanction(deps, job, c, at) : undefined;
    const lifted = p.ban === 'lift' ? (await store.sanctionSummariesOfUser(c.userId, { caseId: c.id, states: ['active'] }))[0] : undefined;
    const result = answer(deps.settings, job, c, reports, moderator, repost, sanction ?? lifted);
    const deadline = await deadlineOf(deps, job, c.id, at);
    // Recorded with the decision (the outbox): carried out below, or by the sweep after a crash.
    const effects = decisionEffects(job, c, at, { repost, liftedSanctionId: lifted?.id, expiresAt: sanction?.expiresAt ?? null, deadline });
    try {
      const updated = await store.transitionCase({
        caseId: c.id,
        expectedVersion: c.version,
        expectedState: c.state,
        next: p.next,
        ...(p.ban && { ban: p.ban }),
        ...(sanction && { sanction }),
        // The re-post is the case's message from the undo on, committed with it.
        ...(repost && { caseMessage: { caseId: c.id, channel: deps.settings.reportChannel, messageId: repost.messageId, updatedAt: at } }),
        effects,
        event: { decisionId: job.decisionId, action: job.action, moderatorId: job.moderatorId, at, result },
      });
      if (!updated) continue; // another decision won the race: read the case again
    } catch (err) {
      if (err instanceof OpenCaseConflictError) throw newerCaseOpen(c.userId);
      throw err;
    }
    // A new decision id: its transaction recorded the source's only effects, so they are not read back.
    await carryOut(deps, job.decisionId, recordedEffects(job.decisionId, effects, at));
    return result;
  }
  throw new AppError('INTERNAL', 'The case kept changing under concurrent decisions; try again');
}

/** A redelivered job: the same answer, and again whatever effect is still pending. */
async function answerAgain(deps: DecideDeps, job: DecisionJob, earlier: CaseEvent): Promise<DecisionResult> {
  await carryOut(deps, job.decisionId);
  await scheduleDeadlineAgain(deps, job, earlier.caseId, earlier.at);
  return earlier.result as DecisionResult;
}

/**
 * The effects the answer waits for: the player's Redis view (so `check` sees a ban at once); an
 * undo's re-post as the case's message, in outboxes of versions before the transition set it.
 */
export const BEFORE_ANSWER: ReadonlySet<string> = new Set<EffectKind>(['case.message', 'redis.user']);

/**
 * Carries out the decision's recorded effects: up to the last one the answer waits for now, the
 * rest (notifications, webhooks, an expiry, a deadline) right after, while the answer goes back. The decision
 * is committed: a failing effect stays pending for the sweep and never turns the answer into an
 * error, and one a crash cuts short is carried out by the sweep.
 */
async function carryOut(deps: DecideDeps, decisionId: string, recorded?: EffectRecord[]): Promise<void> {
  const onError = (err: unknown) => deps.onEffectError?.(err);
  await deps.relay.runSplit(decisionId, (e) => !BEFORE_ANSWER.has(e.kind), onError, recorded).catch(onError);
}

/**
 * The answer for a decision that is about to be applied (spec 4.4-4.8). `sanction` is the one an
 * approval imposes or an undo lifts: its message says a ban only of a sanction that blocks login.
 */
function answer(
  settings: DecideDeps['settings'],
  job: DecisionJob,
  c: CaseRecord,
  reports: string[],
  moderator: ModeratorView,
  repost: Repost | undefined,
  sanction: Partial<Pick<SanctionSummary, 'kind' | 'blocksLogin'>> | undefined,
): DecisionResult {
  // A sanction without a kind is a ban (as before kinds).
  const ban = sanction?.blocksLogin !== false;
  const { hideUsername, reportChannel } = settings;
  switch (job.action) {
    case 'claim':
      return { ok: true, action: 'claim', data: { message: `Report claimed by ${moderator.username}`, reportId: job.reportId, moderator } };
    case 'unclaim':
      return { ok: true, action: 'unclaim', data: { message: `Report unclaimed by ${moderator.username}`, reportId: job.reportId, moderator } };
    case 'approve':
      return {
        ok: true,
        action: 'approve',
        data: { message: `Report approved: user ${c.userId} ${ban ? 'is banned' : sanction?.kind === 'warning' ? 'is warned' : `is restricted (${sanction?.kind})`}`, reportId: job.reportId, moderator, reports, reportedUser: c.userId, hideUsername },
      };
    case 'dismiss':
      return {
        ok: true,
        action: 'dismiss',
        data: { message: 'Report dismissed', reportId: job.reportId, moderator, reports, reportedUser: c.userId, reportChannel, hideUsername },
      };
    case 'undo': {
      const what = c.state === 'approved' ? `approval undone, its ${ban ? 'ban' : 'sanction'} lifted` : 'dismissal undone';
      return { ok: true, action: 'undo', data: { message: `Decision undone (${what}); the case is open again`, newMessageId: repost!.messageId, reports, moderator, hideUsername } };
    }
  }
}
