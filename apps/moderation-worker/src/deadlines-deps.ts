import type { Deadlines } from '@rm/runtime';
import type { TriageStore } from '@rm/storage';
import type { QueuePolicy, TriagePolicy } from '@rm/triage';

/** What decisions and deadline jobs need to schedule and time deadlines, built by main.ts. */
export interface DeadlineDeps {
  deadlines: Pick<Deadlines, 'schedule'>;
  /** The triage policy's claimTtl and sla (queueSettingsOf). */
  policy: QueuePolicy;
  /** The triage policy itself, for the category of a reopened case. */
  triagePolicy: TriagePolicy;
  store: Pick<TriageStore, 'getCaseTriage'>;
}
