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
  startSla: (caseId: string, report: Pick<NewReport, 'answers'>, openedAt: number) => Promise<void>;
  log: Pick<Logger, 'warn'>;
}

/**
 * Stores the reserved reports of an intake job; a failure of any fails the job, which is retried
 * whole. A job sent together with its reservations (`verdictsKey`) holds refused reports too: only
 * those reserved for are stored. The verdicts are taken first (the gateway can then no longer
 * abandon the job) and retired once stored. Verdicts that are missing mean the reservations failed
 * (every caller was told to retry), or that the gateway abandoned the job (it could not confirm
 * it, released what it reserved and told its callers to retry): either way there is nothing to store.
 */
export async function storeReports(deps: IntakeDeps, job: IntakeJob): Promise<SavedReport[]> {
  const key = job.verdictsKey;
  if (key === undefined) return Promise.all(job.reports.map((report) => storeReport(deps, report)));
  const reserved = await deps.guard.takeVerdicts(key);
  if (reserved === null) return [];
  const saved = await Promise.all(job.reports.filter((_, i) => reserved[i]).map((report) => storeReport(deps, report)));
  // Not awaited: stored and notified, the job is done, and need not wait one more round trip for
  // this. A crash before it is sent leaves the verdicts behind, a few bytes.
  deps.guard.retireVerdicts(key).catch((err: Error) => deps.log.warn({ err: err.message, key }, 'could not retire the verdicts of a stored intake job'));
  return saved;
}

/**
 * The user's names for a job queued by an older gateway, which did not keep them in the job. The
 * report was accepted: a directory that lost the user, or fails, must not hold the report up.
 */
async function userOfOlderJob(deps: IntakeDeps, userId: string): Promise<Omit<DirectoryUser, 'id'>> {
  const found = await deps.directory.getUser(userId).catch((err: Error) => {
    deps.log.warn({ err: err.message, userId }, 'directory unavailable: a report of an older job is stored with the user id as its name');
    return null;
  });
  return found ?? { name: userId, displayName: userId, avatar: null };
}

/**
 * Persists one accepted report into its user's open case (or a new one), then asks for the case's
 * chat message to be posted or updated. Idempotent on the report id, so a redelivered job changes
 * nothing (its notification has the same job id). A storage error throws, and the job is retried.
 */
async function storeReport(deps: IntakeDeps, job: IntakeReport): Promise<SavedReport> {
  const user = job.user ?? (await userOfOlderJob(deps, job.userId));
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
    deps.guard.noteOpenCase(job.userId, [job.reporter]),
    deps.notify(saved.openedCase ? { kind: 'case.opened', ...about } : { kind: 'case.appended', ...about }),
    // A redelivered report (created: false) may have opened its case before a crash: schedule
    // again, which adds nothing when the check is already there.
    saved.openedCase || !saved.created ? deps.startSla(saved.caseId, job, job.receivedAt) : undefined,
  ]);
  return saved;
}
