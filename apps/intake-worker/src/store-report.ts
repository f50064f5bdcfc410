import type { IntakeJob, IntakeReport, NotificationJob } from '@rm/contracts';
import type { DirectoryUser, UserDirectory } from '@rm/platforms';
import type { ReportGuard } from '@rm/report-guard';
import type { Logger } from '@rm/runtime';
import type { NewReport, SavedReport } from '@rm/storage';

export interface IntakeDeps {
  /** Stores one report; the reports of the jobs running at once share one transaction (see main.ts). */
  saveReport: (report: NewReport) => Promise<SavedReport>;
  directory: UserDirectory;
  guard: ReportGuard;
  notify: (job: NotificationJob) => Promise<void>;
  /** Starts the SLA of a case a report opened (see start-sla.ts). */
  startSla: (caseId: string, userId: string, openedAt: number) => Promise<void>;
  log: Pick<Logger, 'warn'>;
}

/**
 * Stores the admitted reports of an intake job; a failure of any fails the job, which is retried
 * whole. A job sent together with its limit checks (`verdicts`) holds refused reports too: only
 * those the checks admitted are stored, and the answers are dropped once they are. Answers that
 * are missing mean the checks failed (every caller was told to retry), or that an earlier attempt
 * stored the reports and dropped them: either way there is nothing to store.
 */
export async function storeReports(deps: IntakeDeps, job: IntakeJob): Promise<SavedReport[]> {
  if (job.verdicts === undefined) return Promise.all(job.reports.map((report) => storeReport(deps, report)));
  const admitted = await deps.guard.admittedOf(job.verdicts);
  if (admitted === null) return [];
  const saved = await Promise.all(job.reports.filter((_, i) => admitted[i]).map((report) => storeReport(deps, report)));
  // Not awaited: stored and notified, the job is done, and need not wait one more round trip for
  // this. A crash before it is sent leaves the answers behind, a few bytes.
  deps.guard.forgetVerdicts(job.verdicts).catch((err: Error) => deps.log.warn({ err: err.message, key: job.verdicts }, 'could not drop the answers of a stored intake job'));
  return saved;
}

/**
 * Persists one accepted report into its user's open case (or a new one), then asks for the case's
 * chat message to be posted or updated. Idempotent on the report id, so a redelivered job changes
 * nothing (its notification has the same job id). A storage error throws, and the job is retried.
 */
async function storeReport(deps: IntakeDeps, job: IntakeReport): Promise<SavedReport> {
  // The report was accepted: a directory that has since lost the user must not lose the report.
  const user: DirectoryUser = (await deps.directory.getUser(job.userId)) ?? { id: job.userId, name: job.userId, displayName: job.userId, avatar: null };
  const saved = await deps.saveReport({
    id: job.reportId,
    userId: job.userId,
    reporterId: job.reporter.id,
    reporterPlatform: job.reporter.platform,
    reportType: job.reportType ?? null,
    answers: job.answers,
    evidence: job.evidence,
    receivedAt: job.receivedAt,
    user: { name: user.name, displayName: user.displayName, avatar: user.avatar },
  });
  const about = { caseId: saved.caseId, reportId: job.reportId, ...(job.requestId !== undefined && { requestId: job.requestId }) };
  await Promise.all([
    // Keeps `appended` and the duplicate check right even if a decision closed the case meanwhile.
    deps.guard.noteOpenCase(job.userId, [job.reporter.id]),
    deps.notify(saved.openedCase ? { kind: 'case.opened', ...about } : { kind: 'case.appended', ...about }),
    // A redelivered report (created: false) may have opened its case before a crash: schedule
    // again, which adds nothing when the check is already there.
    saved.openedCase || !saved.created ? deps.startSla(saved.caseId, job.userId, job.receivedAt) : undefined,
  ]);
  return saved;
}
