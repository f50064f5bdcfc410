import { CASE_CREATED_OPENING } from '@rm/contracts';
import type { Deadlines } from '@rm/runtime';
import type { ReportRecord } from '@rm/storage';
import { categoryOf, queueSettingsOf, type TriagePolicy } from '@rm/triage';

/**
 * Starts the SLA of a case that a stored report opened: a delayed check, due when the case's
 * category (the opening report's, by the triage policy) allows it to wait unclaimed no longer.
 * Keyed by the case's opening, so a redelivered intake job schedules nothing twice.
 */
export function slaStarter(deadlines: Pick<Deadlines, 'schedule'>, policy: TriagePolicy) {
  const settings = queueSettingsOf(policy);
  return async (caseId: string, report: Pick<ReportRecord, 'answers'>, openedAt: number): Promise<void> => {
    const category = categoryOf(policy, report);
    await deadlines.schedule({ kind: 'sla.check', caseId, openingId: CASE_CREATED_OPENING, category }, openedAt + settings.slaMs(category));
  };
}
