import { z } from 'zod';
import { commonConfig, env } from '@rm/runtime';

export const intakeConfig = commonConfig.extend({
  /** Intake jobs processed at once by this process. */
  INTAKE_CONCURRENCY: env.positiveInt(10),
});
export type IntakeConfig = z.infer<typeof intakeConfig>;
