import { AppError, LIMITS, type AppealLinkResponse } from '@rm/contracts';
import type { SanctionRecord, SanctionStore } from '@rm/storage';
import type { AppealLinkClaim, AppealLinkTokens } from '../appeal-page/link-token.js';
import { tookEffect } from './sanction-status.js';

/** The player's appeal page (docs/appeals.md): its links and its limits. */
export interface AppealPageDeps {
  /** Signs and checks the links (APPEAL_LINK_SECRET); null when unset: no links, and the pages say so. */
  tokens: AppealLinkTokens | null;
  /** APPEAL_LINK_TTL: how long a link works. */
  ttlMs: number;
  /** PUBLIC_BASE_URL: the origin (and path) of the links handed out; unset, the request's own. */
  publicBaseUrl: string | undefined;
  /** APPEAL_PAGE_SUBMITS_PER_MINUTE: form posts per link (its sanction) a minute. */
  submitsPerMinute: number;
  /** APPEAL_PAGE_REQUESTS_PER_MINUTE: page requests per client address a minute. */
  requestsPerMinute: number;
}

/** Where the pages live, under the public base URL. */
export const APPEAL_PAGE_PATH = '/appeal';

/** The answer to a link for a sanction that is not the player's, whether it exists or not: nothing leaks. */
const noSuchSanction = (userId: string, sanctionId: string) => new AppError('NOT_FOUND', `User ${userId} has no sanction ${sanctionId}`);

/**
 * A player's own sanction: theirs, and in effect at some time (a ban wave not started yet is not
 * shown, as the ban API does not show it: the player must not learn of it early).
 */
const shownTo = (s: SanctionRecord | null, userId: string): s is SanctionRecord => s !== null && s.userId === userId && tookEffect(s);

/**
 * POST /v1/sanctions/{sanctionId}/appeal-link: the URL of the player's appeal page, with a signed
 * token naming the sanction and the player that expires after APPEAL_LINK_TTL. `userId` must own
 * the sanction (someone else's and an unknown one answer the same 404, as POST /v1/appeals). Any
 * state is linked (a lifted or expired sanction's page shows the statement and its appeal's outcome).
 */
export async function issueAppealLink(
  deps: { store: SanctionStore; page: AppealPageDeps },
  sanctionId: string,
  userId: string,
  origin: string,
  now = Date.now(),
): Promise<AppealLinkResponse> {
  const { tokens } = deps.page;
  if (tokens === null) throw new AppError('UNAVAILABLE', 'Appeal links are off on this server: its operator must set APPEAL_LINK_SECRET (docs/configuration.md)');
  const sanction = await deps.store.getSanction(sanctionId);
  if (!shownTo(sanction, userId)) throw noSuchSanction(userId, sanctionId);
  const expiresAt = now + deps.page.ttlMs;
  const token = tokens.issue({ sanctionId, userId, expiresAt });
  // A player id is unbounded; a path segment is not (the router's limit).
  if (token.length > LIMITS.pathParamLength) throw new AppError('BAD_REQUEST', 'userId is too long to be named in a link', [{ field: 'userId', message: 'userId is too long to be named in a link' }]);
  return { success: true, url: `${deps.page.publicBaseUrl ?? origin}${APPEAL_PAGE_PATH}/${token}`, expiresAt };
}

export type OpenedLink = { ok: true; claim: AppealLinkClaim; sanction: SanctionRecord } | { ok: false; why: 'invalid' | 'expired' | 'off' };

/**
 * A link as the page receives it: signed by us, not expired, and naming a sanction that is still
 * its player's. A forged or altered token, and one whose sanction is not (or no longer) the
 * player's, are alike `invalid`.
 */
export async function openAppealLink(deps: { store: SanctionStore; page: AppealPageDeps }, token: string, now = Date.now()): Promise<OpenedLink> {
  if (deps.page.tokens === null) return { ok: false, why: 'off' };
  const checked = deps.page.tokens.check(token, now);
  if (!checked.ok) return { ok: false, why: checked.why === 'expired' ? 'expired' : 'invalid' };
  const sanction = await deps.store.getSanction(checked.claim.sanctionId);
  if (!shownTo(sanction, checked.claim.userId)) return { ok: false, why: 'invalid' };
  return { ok: true, claim: checked.claim, sanction };
}
