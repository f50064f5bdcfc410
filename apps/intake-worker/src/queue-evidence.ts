import { CAPTURE_ITEMS_PER_JOB, isKeptEvidence, jobIdFor, QUEUES, type CaptureItem, type CaptureJob, type IntakeJob } from '@rm/contracts';
import { MicroBatcher } from '@rm/runtime';
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

/** Capture jobs of these items, in order: CAPTURE_ITEMS_PER_JOB at most in each. */
export function captureJobsOf(items: CaptureItem[]): CaptureJob[] {
  const jobs: CaptureJob[] = [];
  for (let i = 0; i < items.length; i += CAPTURE_ITEMS_PER_JOB) jobs.push({ kind: 'capture', items: items.slice(i, i + CAPTURE_ITEMS_PER_JOB) });
  return jobs;
}

/** The part of a BullMQ queue this needs. */
export interface EvidenceQueue {
  addBulk(jobs: { name: string; data: CaptureJob; opts: { jobId: string; attempts: number; backoff: { type: string; delay: number }; removeOnComplete: number; removeOnFail: number } }[]): Promise<unknown>;
}

/**
 * Queues the captures of stored reports, after their transaction committed. The items of the
 * intake jobs finishing in the same turn of the event loop leave together: one `addBulk` and as
 * few capture jobs as CAPTURE_ITEMS_PER_JOB allows, not one of each per intake job, so keeping
 * evidence adds about one Redis round trip per micro-batch of intake jobs. Job ids come from the
 * first item's report and index: a redelivered intake job (its reports stored already,
 * `created: false`) queues its items again; a job with the same id adds nothing while the first
 * is kept, and one grouped differently finds its items settled and skips them. A crash between the commit and this is
 * mended by that redelivery. A report is never held back by its evidence.
 */
export function captureQueuer(queue: EvidenceQueue): (job: IntakeJob, saved: SavedReport[]) => Promise<number> {
  const batcher = new MicroBatcher<CaptureItem[], number>(async (lists) => {
    const jobs = captureJobsOf(lists.flat());
    await queue.addBulk(jobs.map((data) => ({ name: data.kind, data, opts: { jobId: jobIdFor.evidence(data), attempts: QUEUES.evidence.attempts, backoff: { ...QUEUES.evidence.backoff }, removeOnComplete: 10_000, removeOnFail: 10_000 } })));
    return lists.map((items) => items.length);
  });
  return async (job, saved) => {
    const items = captureItemsOf(job, saved);
    return items.length === 0 ? 0 : batcher.submit(items);
  };
}
