import { CASE_CREATED_OPENING } from '@rm/contracts';
import { categoryOf, type Deadlines, type QueuePolicy } from '@rm/runtime';

/**
 * Starts the SLA of a case that a stored report opened: a delayed check, due when the case's
 * category allows it to wait unclaimed no longer. Keyed by the case's opening, so a redelivered
 * intake job schedules nothing twice.
 */
export function slaStarter(deadlines: Pick<Deadlines, 'schedule'>, policy: QueuePolicy) {
  return async (caseId: string, userId: string, openedAt: number): Promise<void> => {
    const category = categoryOf({ caseId, userId });
    await deadlines.schedule({ kind: 'sla.check', caseId, openingId: CASE_CREATED_OPENING, category }, openedAt + policy.slaMs(category));
  };
}
