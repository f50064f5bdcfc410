import { AppError, AppealDecisionResult, QUEUES, jobIdFor, type AppealDecisionJob, type AppealResponse } from '@rm/contracts';
import { appealSettingsOf } from '@rm/triage';
import type { GatewayDeps } from '../deps.js';
import { unavailable } from '../errors/unavailable.js';
import { appealDetail } from './appeal-views.js';

type Deps = Pick<GatewayDeps, 'decisionsQueue' | 'decisionEvents' | 'config' | 'store'>;

/**
 * Hands a moderator's decision about an appeal to the moderation worker (the decisions queue, as
 * case decisions: one writer, races have one winner) and answers the appeal as it now is. Past
 * DECISION_TIMEOUT_MS the job stays queued and is still applied once; the caller gets a 500.
 */
export async function requestAppealDecision(deps: Deps, job: AppealDecisionJob): Promise<AppealResponse> {
  let queued;
  try {
    queued = await deps.decisionsQueue.add(QUEUES.decisions.name, job, { jobId: jobIdFor.decisions(job.decisionId) });
  } catch (err) {
    throw unavailable('The queue (Redis)', 'the decision was not recorded, try again', err);
  }
  let raw: unknown;
  try {
    raw = await queued.waitUntilFinished(deps.decisionEvents, deps.config.DECISION_TIMEOUT_MS);
  } catch (err) {
    if (((err as Error).message ?? '').includes('timed out')) {
      throw new AppError('TIMEOUT', `The moderation worker did not answer within ${deps.config.DECISION_TIMEOUT_MS} ms; the decision stays queued and will be applied once`);
    }
    throw Object.assign(new AppError('INTERNAL', 'The moderation worker failed to apply the decision'), { cause: err });
  }
  const result = AppealDecisionResult.parse(raw);
  if (!result.ok) throw new AppError(result.error.code, result.error.message);
  const appeal = await deps.store.getAppeal(result.appealId);
  if (!appeal) throw new AppError('INTERNAL', `Appeal ${result.appealId} was decided but cannot be read`);
  return { success: true, appeal: await appealDetail(deps.store, appeal, appealSettingsOf(deps.config.TRIAGE_POLICY).slaMs) };
}
