import { AppError, type CheckBody, type CheckResponse, type PLATFORMS } from '@rm/contracts';
import type { ApiKeyRecord } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { findReportedUser } from './find-user.js';
import { refusalError, refusalMessage } from '../errors/refusals.js';
import { orUnavailable } from '../errors/unavailable.js';

type Deps = Pick<GatewayDeps, 'guard' | 'directory' | 'config'>;

/**
 * The platform a check's reporter is counted on. The check's body has only `reporterId` (spec
 * fixed); the check is the game client asking about its own player, so the game platform.
 */
export const CHECK_REPORTER_PLATFORM: (typeof PLATFORMS)[number] = 'gameplatform';

/**
 * Whether the reporter may report the user now: daily maximum, ban, and an earlier report. The
 * check counts the key's rate before the user is looked up.
 */
export async function checkReport(deps: Deps, key: ApiKeyRecord, body: CheckBody): Promise<CheckResponse> {
  const request = {
    keyId: key.key,
    rateLimit: key.rateLimit ?? 0,
    reporterId: body.reporterId,
    // The check's body names no platform: it is the game client's question about its own player.
    reporterPlatform: CHECK_REPORTER_PLATFORM,
    userId: body.userId,
    maxPerDay: deps.config.MAX_REPORTS_PER_DAY,
    now: Date.now(),
  };
  const checked = await orUnavailable('Redis', () => deps.guard.check(request));
  if (!checked.ok && checked.refusal === 'rate') throw refusalError('rate', request);
  // Only now, with the key's rate counted, the directory call (a round trip a caller could repeat).
  const user = await findReportedUser(deps.directory, body.userId);
  const numericId = Number(user.id);
  if (!Number.isSafeInteger(numericId)) {
    throw new AppError('INTERNAL', `The user directory gave a non-numeric id for user ${body.userId}`);
  }
  return {
    success: true,
    canReport: checked.ok,
    user: { id: numericId, name: user.name, displayName: user.displayName },
    reporterId: body.reporterId,
    reason: checked.ok ? 'User can be reported' : refusalMessage(checked.refusal, request),
  };
}
