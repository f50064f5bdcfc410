import { z } from 'zod';
import { chatConfigShape } from '@rm/platforms';
import { triageConfigShape } from '@rm/triage';
import { caseSyncDelayShape, notifyPolicyShape } from '@rm/delivery';
import { commonConfig, env, workerConfigShape } from '@rm/runtime';

export const moderationConfig = commonConfig.extend({
  ...workerConfigShape,
  /** Port of /health, /ready and /metrics; 0 turns it off. */
  METRICS_PORT: env.port(9102),
  // The chat platform is called here only to re-post a case on undo (its id is in the answer);
  // HIDE_USERNAME and REPORT_CHANNEL_ID are echoed in answers.
  ...chatConfigShape,
  ...notifyPolicyShape,
  ...caseSyncDelayShape,
  /**
   * Decision jobs processed at once by this process. Its writes commit in groups (group-commit.ts),
   * so more decisions in flight share commits and fsyncs (docs/performance.md, 50 against 10).
   */
  MODERATION_CONCURRENCY: env.positiveInt(50),
  /** Chat channel where cases that breached their SLA are escalated. */
  ESCALATION_CHANNEL_ID: env.string('escalations'),
  /** Deadline jobs (claim expiry, SLA check) processed at once by this process. */
  DEADLINE_CONCURRENCY: env.positiveInt(5),
  /** The triage policy file (docs/triage.md): its `claimTtl` and `sla` time claims and unclaimed cases; a bad one stops the process at start. */
  ...triageConfigShape,
});
export type ModerationConfig = z.infer<typeof moderationConfig>;
