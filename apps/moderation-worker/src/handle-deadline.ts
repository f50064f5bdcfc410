import type { DeadlineJob } from '@rm/contracts';
import type { AppealStore } from '@rm/storage';
import type { DeadlineDeps } from './deadlines-deps.js';
import { escalateSla, type EscalateDeps } from './escalate-sla.js';
import { expireClaim, type ExpireClaimDeps } from './expire-claim.js';
import { expireAppealClaim } from './expire-appeal-claim.js';
import { escalateAppealSla } from './escalate-appeal-sla.js';

/** Routes a due deadline to its use case; every kind of the contract has one (exhaustive switch). */
export function handleDeadline(deps: ExpireClaimDeps & EscalateDeps & Pick<DeadlineDeps, 'policy'> & { store: AppealStore; appealSlaMs: number }, job: DeadlineJob): Promise<string> {
  switch (job.kind) {
    case 'claim.expiry':
      return expireClaim(deps, job.caseId, job.claimDecisionId);
    case 'sla.check':
      return escalateSla(deps, job, deps.policy.slaMs(job.category));
    case 'appeal.claim.expiry':
      return expireAppealClaim(deps, job.appealId, job.claimDecisionId);
    case 'appeal.sla.check':
      return escalateAppealSla(deps, job.appealId, deps.appealSlaMs);
  }
}
