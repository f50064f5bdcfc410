import { isKeptEvidence, jobIdFor, QUEUES, type CaptureJob, type IntakeJob } from '@rm/contracts';
import type { SavedReport } from '@rm/storage';

/** The capture jobs of stored reports: one per evidence item asked to be kept (docs/evidence.md). */
export function captureJobsOf(job: IntakeJob, saved: SavedReport[]): CaptureJob[] {
  const byId = new Map(job.reports.map((r) => [r.reportId, r]));
  return saved.flatMap((s) => {
    const report = byId.get(s.reportId);
    if (!report) return [];
    return report.evidence.flatMap((e, index) =>
      isKeptEvidence(e)
        ? [{ kind: 'capture' as const, reportId: s.reportId, caseId: s.caseId, index, url: e.url, type: e.type, ...(report.requestId !== undefined && { requestId: report.requestId }) }]
        : [],
    );
  });
}

/** The part of a BullMQ queue this needs. */
export interface EvidenceQueue {
  addBulk(jobs: { name: string; data: CaptureJob; opts: { jobId: string; attempts: number; backoff: { type: string; delay: number }; removeOnComplete: number; removeOnFail: number } }[]): Promise<unknown>;
}

/**
 * Queues the captures of stored reports, after their transaction committed. Job ids come from the
 * report id and the item's index: a redelivered intake job (its reports stored already, `created:
 * false`) queues them again, which adds nothing while the first jobs are kept, and a crash between
 * the commit and this is mended by that redelivery. A report is never held back by its evidence:
 * the job only waits one Redis command for this.
 */
export async function queueCaptures(queue: EvidenceQueue, job: IntakeJob, saved: SavedReport[]): Promise<number> {
  const jobs = captureJobsOf(job, saved);
  if (jobs.length === 0) return 0;
  await queue.addBulk(jobs.map((data) => ({ name: data.kind, data, opts: { jobId: jobIdFor.evidence(data), attempts: QUEUES.evidence.attempts, backoff: { ...QUEUES.evidence.backoff }, removeOnComplete: 10_000, removeOnFail: 10_000 } })));
  return jobs.length;
}
