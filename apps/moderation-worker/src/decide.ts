import { AppError, type DecisionJob, type DecisionResult, type ModeratorView } from '@rm/contracts';
import type { ChatPlatform } from '@rm/platforms';
import type { ReportGuard } from '@rm/report-guard';
import { OpenCaseConflictError, type CaseRecord, type ReportRecord, type Store } from '@rm/storage';
import { dismissalDmText, reopenedCaseText } from './chat-text.js';
import { plan } from './state-machine.js';

export interface DecideDeps {
  store: Store;
  guard: ReportGuard;
  chat: ChatPlatform;
  settings: { hideUsername: boolean; reportChannel: string };
}

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
  if (earlier) {
    const c = await store.getCase(earlier.caseId);
    if (c) await syncGuard(deps, c.userId);
    return earlier.result as DecisionResult;
  }
  const moderatorRecord = await store.getModerator(job.moderatorId);
  if (!moderatorRecord) throw new AppError('NOT_FOUND', `Moderator ${job.moderatorId} is not registered`);
  const moderator: ModeratorView = { id: moderatorRecord.id, username: moderatorRecord.username };
  const report = await store.getReport(job.reportId);
  if (!report) throw new AppError('NOT_FOUND', `Report ${job.reportId} not found`);

  for (let race = 0; race < MAX_RACES; race++) {
    const c = await store.getCase(report.caseId);
    if (!c) throw new AppError('NOT_FOUND', `The case of report ${job.reportId} was not found`);
    const p = plan(c, { action: job.action, moderatorId: job.moderatorId, bypassClaimCheck: job.action === 'unclaim' && job.bypassClaimCheck });
    if (!p.ok) {
      const claimer = p.claimer ? await store.getModerator(p.claimer) : null;
      throw new AppError(p.code, claimer ? `${p.message} by ${claimer.username}` : p.message);
    }
    const result = await answer(deps, job, c, report, moderator);
    try {
      const updated = await store.transitionCase({
        caseId: c.id,
        expectedVersion: c.version,
        expectedState: c.state,
        next: p.next,
        ...(p.ban && { ban: p.ban }),
        event: { decisionId: job.decisionId, action: job.action, moderatorId: job.moderatorId, at: Date.now(), result },
      });
      if (!updated) continue; // another decision won the race: read the case again
    } catch (err) {
      if (err instanceof OpenCaseConflictError) {
        throw new AppError('INVALID_STATE', `A newer case about user ${c.userId} is open; handle it instead of undoing this one`);
      }
      throw err;
    }
    await syncGuard(deps, c.userId);
    if (job.action === 'dismiss' && job.dm) await dmReporters(deps, c, job.decisionId, job.reason);
    return result;
  }
  throw new AppError('INTERNAL', 'The case kept changing under concurrent decisions; try again');
}

/** The answer for a decision that is about to be applied (spec 4.4-4.8). */
async function answer(deps: DecideDeps, job: DecisionJob, c: CaseRecord, report: ReportRecord, moderator: ModeratorView): Promise<DecisionResult> {
  const { hideUsername, reportChannel } = deps.settings;
  const reports = await deps.store.caseReportIds(c.id);
  switch (job.action) {
    case 'claim':
      return { ok: true, action: 'claim', data: { message: `Report claimed by ${moderator.username}`, reportId: job.reportId, moderator } };
    case 'unclaim':
      return { ok: true, action: 'unclaim', data: { message: `Report unclaimed by ${moderator.username}`, reportId: job.reportId, moderator } };
    case 'approve':
      return {
        ok: true,
        action: 'approve',
        data: { message: `Report approved: user ${c.userId} is banned`, reportId: job.reportId, moderator, reports, reportedUser: c.userId, hideUsername },
      };
    case 'dismiss':
      return {
        ok: true,
        action: 'dismiss',
        data: { message: 'Report dismissed', reportId: job.reportId, moderator, reports, reportedUser: c.userId, reportChannel, hideUsername },
      };
    case 'undo': {
      // Posted before the transition, keyed by the decision: a retry re-uses the same message.
      const posted = await deps.chat.post({
        channel: reportChannel,
        kind: 'case.reopened',
        content: reopenedCaseText(c, reports, report.user.name, hideUsername),
        dedupeKey: `${job.decisionId}:repost`,
      });
      const what = c.state === 'approved' ? 'approval undone, ban lifted' : 'dismissal undone';
      return { ok: true, action: 'undo', data: { message: `Decision undone (${what}); the case is open again`, newMessageId: posted.id, reports, moderator, hideUsername } };
    }
  }
}

async function dmReporters(deps: DecideDeps, c: CaseRecord, decisionId: string, reason: string | undefined): Promise<void> {
  for (const reporterId of await deps.store.caseReporterIds(c.id)) {
    await deps.chat.post({ channel: `dm:${reporterId}`, kind: 'reporter.dm', content: dismissalDmText(reason), dedupeKey: `${decisionId}:dm:${reporterId}` });
  }
}

/** Puts the gateway's Redis view of the user in step with storage after a decision. */
async function syncGuard(deps: DecideDeps, userId: string): Promise<void> {
  const [banned, open] = await Promise.all([deps.store.isBanned(userId), deps.store.openCaseOfUser(userId)]);
  await deps.guard.syncUser(userId, { banned, openCaseReporters: open ? await deps.store.caseReporterIds(open.id) : null });
}
