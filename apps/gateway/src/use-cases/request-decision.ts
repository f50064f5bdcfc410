import { AppError, DecisionResult, type DecisionDataByAction, type DecisionJob, type OneDecision } from '@rm/contracts';
import { carryingTrace } from '@rm/runtime';
import type { GatewayDeps } from '../deps.js';
import { unavailable } from '../errors/unavailable.js';
import { DecisionQueueError, DecisionTimeoutError } from './decision-answer.js';

type Deps = Pick<GatewayDeps, 'decisions' | 'config'>;

/**
 * Queues a decision job (a case's or an appeal's) for the moderation worker and waits for its raw
 * answer. If the wait times out the job stays queued and is still applied exactly once; the
 * caller gets a 500 saying so.
 */
export async function runDecisionJob(deps: Deps, job: OneDecision, trace: string | undefined): Promise<unknown> {
  try {
    // The request's trace rides with the decision in its batched job (the worker continues it).
    return await deps.decisions.run(carryingTrace(job, trace));
  } catch (err) {
    if (err instanceof DecisionQueueError) throw unavailable('The queue (Redis)', 'the decision was not recorded, try again', err.cause);
    if (err instanceof DecisionTimeoutError) {
      throw new AppError('TIMEOUT', `The moderation worker did not answer within ${deps.config.DECISION_TIMEOUT_MS} ms; the decision stays queued and will be applied once`);
    }
    throw Object.assign(new AppError('INTERNAL', 'The moderation worker failed to apply the decision'), { cause: err });
  }
}

/** Hands a moderator's decision about a case to the moderation worker and answers its result. */
export async function requestDecision<J extends DecisionJob>(deps: Deps, job: J, trace: string | undefined): Promise<{ success: true; data: DecisionDataByAction[J['action']] }> {
  const result = DecisionResult.parse(await runDecisionJob(deps, job, trace));
  if (!result.ok) throw new AppError(result.error.code, result.error.message);
  if (result.action !== job.action) throw new AppError('INTERNAL', `The moderation worker answered a ${result.action} for a ${job.action}`);
  return { success: true, data: result.data as DecisionDataByAction[J['action']] };
}
