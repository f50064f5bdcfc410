import { z } from 'zod';
import { directoryConfigShape } from '@rm/platforms';
import { triageConfigShape } from '@rm/triage';
import { notifyPolicyShape } from '@rm/delivery';
import { commonConfig, env, workerConfigShape } from '@rm/runtime';

export const intakeConfig = commonConfig.extend({
  ...workerConfigShape,
  /** Port of /health, /ready and /metrics; 0 turns it off. */
  METRICS_PORT: env.port(9101),
  ...directoryConfigShape,
  ...notifyPolicyShape,
  /** Intake jobs processed at once by this process. */
  INTAKE_CONCURRENCY: env.positiveInt(50),
  /** Longest wait between two attempts of an intake job; it is retried until its reports are stored. */
  INTAKE_RETRY_MAX_MS: env.positiveInt(60_000),
  /** The triage policy file (docs/triage.md), whose `sla` times the cases reports open here; a bad one stops the process at start. */
  ...triageConfigShape,
});
export type IntakeConfig = z.infer<typeof intakeConfig>;
