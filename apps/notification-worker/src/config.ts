import { z } from 'zod';
import { chatConfigShape, webhookConfigShape } from '@rm/platforms';
import { triageConfigShape } from '@rm/triage';
import { notifyPolicyShape } from '@rm/delivery';
import { commonConfig, env, workerConfigShape } from '@rm/runtime';

export const notificationConfig = commonConfig.extend({
  ...workerConfigShape,
  /** Port of /health, /ready and /metrics; 0 turns it off. */
  METRICS_PORT: env.port(9103),
  ...chatConfigShape,
  ...webhookConfigShape,
  // Declared here too: decisions fan out into DM and webhook jobs enqueued by this worker.
  ...notifyPolicyShape,
  /** Notification jobs processed at once by this process. */
  NOTIFY_CONCURRENCY: env.positiveInt(5),
  /** The triage policy file (docs/triage.md); a bad one stops the process at start. */
  ...triageConfigShape,
  /** Chat channel where automatic escalate rules post. */
  ESCALATION_CHANNEL_ID: env.string('escalations'),
});
export type NotificationConfig = z.infer<typeof notificationConfig>;
