import { isIP } from 'node:net';
import { z } from 'zod';
import { chatConfigShape, directoryConfigShape } from '@rm/platforms';
import { triageConfigShape } from '@rm/triage';
import { commonConfig, env } from '@rm/runtime';
import { parseIsoDuration } from '@rm/contracts';
import { evidenceConfigShape } from '@rm/evidence';
import { staffSignInConfigShape } from './staff/staff-config.js';

/** An address or CIDR range, or one of proxy-addr's names for a range. */
const proxyEntry = (entry: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
};

export const gatewayConfig = commonConfig.extend({
  ...directoryConfigShape,
  // The chat platform, for an erasure to rewrite the case messages naming the player (docs/privacy.md).
  ...chatConfigShape,
  PORT: env.port(3000),
  HOST: env.string('0.0.0.0'),
  MAX_REPORTS_PER_DAY: env.positiveInt(5),
  /** How long a moderation request waits for the moderation worker's answer. */
  DECISION_TIMEOUT_MS: env.positiveInt(10_000),
  /**
   * Replicas that must hold a submit's job before it is answered 200 (Redis's WAIT, one per turn
   * of submits): an acknowledged report then survives a Sentinel failover. 0: none, not waited for.
   */
  REDIS_MIN_REPLICAS_ACK: env.nonNegativeInt(0),
  /** How long that WAIT may take before the turn is answered 500; below the request path's 2 s command timeout. */
  REDIS_REPLICA_ACK_TIMEOUT_MS: env.positiveInt(1_000).pipe(z.number().max(1_500, 'must be at most 1500 (the request path gives a Redis command 2 s)')),
  /** How long a looked-up API key is trusted before it is read again (a revocation takes at most this long). */
  KEY_CACHE_TTL_MS: env.positiveInt(10_000),
  /**
   * Memory for the ban API's answers kept in this gateway as well as in Redis, each dropped when
   * Redis says it changed (docs/decisions.md). 0 turns it off; on a Redis Cluster it is off.
   */
  SANCTION_STATUS_MEMORY_MB: env.nonNegativeInt(16),
  /** A request must be fully received within this time; slow or stalled clients are cut off. */
  HTTP_REQUEST_TIMEOUT_MS: env.positiveInt(30_000),
  /** Serve Bull Board at /admin/queues (admin API keys only). Off by default. */
  QUEUE_DASHBOARD: env.bool(false),
  /** The triage policy file (docs/triage.md); a bad one stops the process at start. */
  ...triageConfigShape,
  /** Serve the moderator console (apps/console's build) at /console. On by default. */
  CONSOLE: env.bool(true),
  /** Staff sign in to the console through the studio's OpenID provider (docs/console.md#signing-in). */
  ...staffSignInConfigShape,
  /** Kept evidence: the blob store, upload limits and tokens (docs/evidence.md). */
  ...evidenceConfigShape,
  /** Upload PUTs this gateway receives at once (each streams to the blob store); more answer 429. */
  EVIDENCE_UPLOADS_IN_FLIGHT: env.positiveInt(16),
  /** Upload PUTs one client address may start per minute on this gateway; more answer 429. */
  EVIDENCE_UPLOADS_PER_MINUTE: env.positiveInt(60),
  /**
   * The origin (and path, behind a proxy that adds one) of the links the service hands out, such
   * as upload URLs: `https://moderation.example.com`. Unset: the request's own (its Host).
   */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .refine((v) => !/[?#]/.test(v), 'must have no query or fragment')
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  /**
   * Signs the links to players' appeal pages (POST /v1/sanctions/{sanctionId}/appeal-link), the same
   * on every gateway. Unset: no links are made (that endpoint answers 500 saying so) and /appeal
   * pages say appeals are not available there. Never a default: a known key would let anyone forge links.
   */
  APPEAL_LINK_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  /** How long an appeal link works, as an ISO 8601 duration (P30D, PT12H), like the policy's durations. */
  APPEAL_LINK_TTL: z
    .string()
    .default('P30D')
    .transform((text, ctx) => {
      const ms = parseIsoDuration(text);
      if (ms === null || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: 'must be a positive ISO 8601 duration such as P30D or PT12H (weeks, days, hours, minutes, seconds)' });
        return z.NEVER;
      }
      return ms;
    }),
  /** Appeal form posts one link (counted by its sanction) may make per minute; more answer 429. */
  APPEAL_PAGE_SUBMITS_PER_MINUTE: env.positiveInt(5),
  /** Appeal page requests (views and posts) one client address may make per minute; more answer 429. */
  APPEAL_PAGE_REQUESTS_PER_MINUTE: env.positiveInt(60),
  /**
   * Proxies whose X-Forwarded-For, -Host and -Proto are believed (addresses or CIDR ranges,
   * comma-separated, or loopback / linklocal / uniquelocal). Unset: none, and a client's own
   * X-Forwarded-* headers are ignored.
   */
  TRUSTED_PROXIES: z
    .string()
    .transform((v) => v.split(',').map((e) => e.trim()).filter((e) => e !== ''))
    .refine((entries) => entries.every(proxyEntry), 'must be comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal)')
    .optional(),
});
export type GatewayConfig = z.infer<typeof gatewayConfig>;
