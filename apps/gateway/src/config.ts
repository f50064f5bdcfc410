import { z } from 'zod';
import { directoryConfigShape } from '@rm/platforms';
import { triageConfigShape } from '@rm/triage';
import { commonConfig, env } from '@rm/runtime';
import { evidenceConfigShape } from '@rm/evidence';

export const gatewayConfig = commonConfig.extend({
  ...directoryConfigShape,
  PORT: env.port(3000),
  HOST: env.string('0.0.0.0'),
  MAX_REPORTS_PER_DAY: env.positiveInt(5),
  /** How long a moderation request waits for the moderation worker's answer. */
  DECISION_TIMEOUT_MS: env.positiveInt(10_000),
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
  /** Kept evidence: the blob store, upload limits and tokens (docs/evidence.md). */
  ...evidenceConfigShape,
});
export type GatewayConfig = z.infer<typeof gatewayConfig>;
