import { z } from 'zod';
import { commonConfig, env } from '@rm/runtime';

export const moderationConfig = commonConfig.extend({
  /** Decision jobs processed at once by this process. */
  MODERATION_CONCURRENCY: env.positiveInt(10),
  /** Keep the reported user's name out of chat messages; echoed in answers as hideUsername. */
  HIDE_USERNAME: env.bool(false),
  /** The chat platform channel where cases are posted; echoed in dismiss answers. */
  REPORT_CHANNEL_ID: env.string('reports'),
});
export type ModerationConfig = z.infer<typeof moderationConfig>;
