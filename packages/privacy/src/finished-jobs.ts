/** The part of a BullMQ queue an erasure uses: its finished jobs, read a page at a time and removed. */
export interface FinishedJobsQueue {
  readonly name: string;
  getJobs(types: ('completed' | 'failed')[], start: number, end: number): Promise<({ id?: string | undefined; data: unknown; remove(): Promise<void> } | undefined)[]>;
}

const PAGE = 500;

/** The queues whose finished jobs may hold a subject's data: every erasure and the retention sweep read these. */
export const FINISHED_JOB_QUEUES = ['intake', 'evidence', 'decisions', 'notifications', 'notificationsDead'] as const;

/**
 * Removes the finished (completed or failed) jobs whose data names one of `ids` (report and case
 * ids of the subject, as JSON strings): a kept intake job holds whole reports, names and text
 * included, and BullMQ keeps the last thousands of them. Jobs still waiting are left to run.
 * Answers how many went.
 */
export async function removeFinishedJobsNaming(queues: FinishedJobsQueue[], ids: Set<string>, onProgress?: (queue: string, read: number) => void): Promise<number> {
  if (ids.size === 0) return 0;
  const needles = [...ids].map((id) => JSON.stringify(id));
  let removed = 0;
  for (const queue of queues) {
    for (const type of ['completed', 'failed'] as const) {
      let start = 0;
      for (;;) {
        const jobs = await queue.getJobs([type], start, start + PAGE - 1);
        let gone = 0;
        for (const job of jobs) {
          if (!job) continue;
          const data = JSON.stringify(job.data ?? null);
          if (needles.some((n) => data.includes(n))) {
            await job.remove();
            gone += 1;
          }
        }
        removed += gone;
        onProgress?.(queue.name, start + jobs.length);
        if (jobs.length < PAGE) break;
        // What was removed shifted the rest down by as many.
        start += PAGE - gone;
      }
    }
  }
  return removed;
}
