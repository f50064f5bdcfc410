import { AppError, AppealDecisionResult, type AppealDecisionJob, type AppealResponse } from '@rm/contracts';
import type { AccountStore, AppealStore, SanctionStore } from '@rm/storage';
import { appealSettingsOf } from '@rm/triage';
import type { GatewayDeps } from '../deps.js';
import { appealDetail } from './appeal-views.js';
import { runDecisionJob } from './request-decision.js';

type Deps = Pick<GatewayDeps, 'decisions' | 'config'> & { store: AppealStore & AccountStore & SanctionStore };

/**
 * Hands a moderator's decision about an appeal to the moderation worker (the decisions queue, as
 * case decisions: one writer, races have one winner) and answers the appeal as it now is. Past
 * DECISION_TIMEOUT_MS the job stays queued and is still applied once; the caller gets a 500.
 */
export async function requestAppealDecision(deps: Deps, job: AppealDecisionJob, trace: string | undefined): Promise<AppealResponse> {
  const result = AppealDecisionResult.parse(await runDecisionJob(deps, job, trace));
  if (!result.ok) throw new AppError(result.error.code, result.error.message);
  const appeal = await deps.store.getAppeal(result.appealId);
  if (!appeal) throw new AppError('INTERNAL', `Appeal ${result.appealId} was decided but cannot be read`);
  return { success: true, appeal: await appealDetail(deps.store, appeal, appealSettingsOf(deps.config.TRIAGE_POLICY).slaMs) };
}
