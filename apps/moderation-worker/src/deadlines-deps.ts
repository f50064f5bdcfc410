import type { Deadlines, QueuePolicy } from '@rm/runtime';

/** What decisions and deadline jobs need to schedule and time deadlines, built by main.ts. */
export interface DeadlineDeps {
  deadlines: Pick<Deadlines, 'schedule'>;
  policy: QueuePolicy;
}
