import { QUEUES, type QueueKey } from '@rm/contracts';
import type { System } from '../harness.js';

/** The queues a worker takes jobs from at once (deadlines and sanctions hold delayed jobs by design). */
const WORKED: QueueKey[] = ['intake', 'decisions', 'notifications', 'evidence'];

/** Jobs waiting or running on each worked queue (for intake and decisions, delayed for a retry too), by queue name; empty when none. */
export async function waitingJobs(sys: System): Promise<Record<string, number>> {
  const waiting: Record<string, number> = {};
  for (const key of WORKED) {
    const c = await sys.queue(key).getJobCounts('wait', 'prioritized', 'active', 'delayed');
    const stuck = (c['wait'] ?? 0) + (c['prioritized'] ?? 0) + (c['active'] ?? 0) + (key === 'intake' || key === 'decisions' ? (c['delayed'] ?? 0) : 0);
    if (stuck > 0) waiting[QUEUES[key].name] = stuck;
  }
  return waiting;
}

/**
 * Fails, naming the queues, if a worked queue still holds jobs after `timeoutMs`: a worker that
 * sits idle with jobs waiting after a fault (the BullMQ reconnection bug the issue cites) never
 * drains them; a live one drains them in seconds.
 */
export async function expectWorkersDrain(sys: System, timeoutMs = 60_000): Promise<void> {
  let waiting: Record<string, number> = {};
  try {
    await sys.waitFor(async () => Object.keys((waiting = await waitingJobs(sys))).length === 0, timeoutMs, 'the queues to drain');
  } catch {
    throw new Error(`a worker sits idle with jobs waiting after the fault: ${JSON.stringify(waiting)}`);
  }
}
