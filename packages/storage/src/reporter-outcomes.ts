import type { Transition } from './ports/decisions.js';
import { DECIDED_STATES, type CaseState } from './ports/reports.js';

const decided = (s: CaseState) => DECIDED_STATES.includes(s);

/**
 * What a transition does to the outcomes of its case's reports, the same on every adapter: a
 * decision (into approved or dismissed) gives each report its outcome; the undo of one marks each
 * reopened; anything else (claim, unclaim) changes none.
 */
export function outcomeChange(t: Transition): { actioned: boolean; reopened: boolean } | null {
  if (decided(t.next.state) && !decided(t.expectedState)) return { actioned: t.next.state === 'approved', reopened: false };
  if (decided(t.expectedState) && !decided(t.next.state)) return { actioned: false, reopened: true };
  return null;
}
