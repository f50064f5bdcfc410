import { AppError, type IntakeReport, type SubmitReportBody, type SubmitReportResponse } from '@rm/contracts';
import { uuidv7 } from '@rm/runtime';
import type { ApiKeyRecord } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { findReportedUser } from './find-user.js';
import { rateLimited, refusalError } from '../errors/refusals.js';
import { orUnavailable } from '../errors/unavailable.js';

type Deps = Pick<GatewayDeps, 'directory' | 'intake' | 'config' | 'guard'>;

/**
 * Accepts a report: checks it against the API key's, the reporter's and the user's limits and
 * answers only once the intake job holding it is stored in Redis (see intake/).
 */
export async function submitReport(deps: Deps, key: ApiKeyRecord, body: SubmitReportBody, request: { id?: string; traceparent?: string } = {}): Promise<SubmitReportResponse> {
  if (body.reportType !== undefined && !key.admin && !key.elevated) {
    throw new AppError('FORBIDDEN', 'Only admin or elevated API keys may set reportType');
  }
  const now = Date.now();
  const rateLimit = key.rateLimit ?? 0;
  // The key's rate is counted before the directory call, so a key cannot make unlimited lookups
  // (or enumerate player ids) through 404s; the reservation below then does not count it again.
  if (rateLimit > 0 && !(await orUnavailable('Redis', () => deps.guard.withinRate(key.key, rateLimit, now)))) {
    throw rateLimited(rateLimit);
  }
  const user = await findReportedUser(deps.directory, body.userId);

  const guardRequest = {
    keyId: key.key,
    rateLimit: 0,
    reporterId: body.reporter.id,
    reporterPlatform: body.reporter.platform,
    userId: body.userId,
    maxPerDay: deps.config.MAX_REPORTS_PER_DAY,
    now,
  };
  const reportId = uuidv7(now);
  const report: IntakeReport = {
    reportId,
    receivedAt: now,
    userId: body.userId,
    reporter: body.reporter,
    answers: body.answers,
    evidence: body.evidence,
    keyId: key.key,
    // Kept in the job, so the intake worker stores the report without asking the directory again.
    user: { name: user.name, displayName: user.displayName, avatar: user.avatar },
    ...(body.reportType !== undefined && { reportType: body.reportType }),
    ...(request.id !== undefined && { requestId: request.id }),
    // The request's trace rides with the report in its batched intake job (carryingTrace: the worker's span links it).
    ...(request.traceparent !== undefined && { trace: request.traceparent }),
  };
  const reserved = await deps.intake.accept(guardRequest, report);
  if (!reserved.ok) throw refusalError(reserved.refusal, guardRequest);
  return reserved.appended
    ? { success: true, id: reportId, message: 'Report added to the open case about this user', appended: true }
    : { success: true, id: reportId, message: 'Report submitted' };
}
