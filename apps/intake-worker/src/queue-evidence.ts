import { CAPTURE_ITEMS_PER_JOB, isKeptEvidence, jobIdFor, QUEUES, type CaptureItem, type CaptureJob, type IntakeJob } from '@rm/contracts';
import type { SavedReport } from '@rm/storage';

/** The items of stored reports asked to be kept (docs/evidence.md), in report then evidence order. */
export function captureItemsOf(job: IntakeJob, saved: SavedReport[]): CaptureItem[] {
  const byId = new Map(job.reports.map((r) => [r.reportId, r]));
  return saved.flatMap((s) => {
    const report = byId.get(s.reportId);
    if (!report) return [];
    return report.evidence.flatMap((e, index) =>
      isKeptEvidence(e) ? [{ reportId: s.reportId, caseId: s.caseId, index, url: e.url, type: e.type, ...(report.requestId !== undefined && { requestId: report.requestId }) }] : [],
    );
  });
}

/** The capture jobs of those items: CAPTURE_ITEMS_PER_JOB at most in each. */
export function captureJobsOf(job: IntakeJob, saved: SavedReport[]): CaptureJob[] {
  const items = captureItemsOf(job, saved);
  const jobs: CaptureJob[] = [];
  for (let i = 0; i < items.length; i += CAPTURE_ITEMS_PER_JOB) jobs.push({ kind: 'capture', items: items.slice(i, i + CAPTURE_ITEMS_PER_JOB) });
  return jobs;
}

/** The part of a BullMQ queue this needs. */
export interface EvidenceQueue {
  addBulk(jobs: { name: string; data: CaptureJob; opts: { jobId: string; attempts: number; backoff: { type: string; delay: number }; removeOnComplete: number; removeOnFail: number } }[]): Promise<unknown>;
}

/**
 * Queues the captures of stored reports, after their transaction committed: one job per intake
 * job (per CAPTURE_ITEMS_PER_JOB items), not one per report, so intake pays one more queued job
 * per batch. Job ids come from the first item's report and index: a redelivered intake job (its
 * reports stored already, `created: false`) queues the same jobs again, which adds nothing while
 * the first are kept, and a crash between the commit and this is mended by that redelivery. A
 * report is never held back by its evidence: the job only waits one Redis command for this.
 */
export async function queueCaptures(queue: EvidenceQueue, job: IntakeJob, saved: SavedReport[]): Promise<number> {
  const jobs = captureJobsOf(job, saved);
  if (jobs.length === 0) return 0;
  await queue.addBulk(jobs.map((data) => ({ name: data.kind, data, opts: { jobId: jobIdFor.evidence(data), attempts: QUEUES.evidence.attempts, backoff: { ...QUEUES.evidence.backoff }, removeOnComplete: 10_000, removeOnFail: 10_000 } })));
  return jobs.reduce((n, j) => n + j.items.length, 0);
}
