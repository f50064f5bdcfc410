import { AppError, type IntakeReport, type SubmitReportBody, type SubmitReportResponse } from '@rm/contracts';
import { uuidv7 } from '@rm/runtime';
import type { ApiKeyRecord } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { findReportedUser } from './find-user.js';
import { refusalError } from './refusals.js';
import { orUnavailable } from './unavailable.js';

type Deps = Pick<GatewayDeps, 'guard' | 'directory' | 'intakeProducer' | 'config'>;

/**
 * Accepts a report: checks it against the reporter's and the user's limits in one Redis round
 * trip, then answers only once the intake job is stored in Redis.
 */
export async function submitReport(deps: Deps, key: ApiKeyRecord, body: SubmitReportBody, requestId?: string): Promise<SubmitReportResponse> {
  if (body.reportType !== undefined && !key.admin && !key.elevated) {
    throw new AppError('FORBIDDEN', 'Only admin or elevated API keys may set reportType');
  }
  await findReportedUser(deps.directory, body.userId);

  const now = Date.now();
  const guardRequest = {
    keyId: key.key,
    rateLimit: key.rateLimit ?? 0,
    reporterId: body.reporter.id,
    userId: body.userId,
    maxPerDay: deps.config.MAX_REPORTS_PER_DAY,
    now,
  };
  const admitted = await orUnavailable('Redis', () => deps.guard.admit(guardRequest));
  if (!admitted.ok) throw refusalError(admitted.refusal, guardRequest);

  const reportId = uuidv7(now);
  const report: IntakeReport = {
    reportId,
    receivedAt: now,
    userId: body.userId,
    reporter: body.reporter,
    answers: body.answers,
    evidence: body.evidence,
    keyId: key.key,
    ...(body.reportType !== undefined && { reportType: body.reportType }),
    ...(requestId !== undefined && { requestId }),
  };
  try {
    await deps.intakeProducer.add(report);
  } catch (err) {
    await deps.guard.release(guardRequest, admitted.appended).catch(() => undefined);
    throw new AppError('UNAVAILABLE', `The queue (Redis) is unavailable: the report was not recorded, try again (${(err as Error).message})`);
  }
  return admitted.appended
    ? { success: true, id: reportId, message: 'Report added to the open case about this user', appended: true }
    : { success: true, id: reportId, message: 'Report submitted' };
}
