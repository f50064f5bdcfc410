import { z } from 'zod';
import { evidenceConfigShape } from '@rm/evidence';
import { commonConfig, env, workerConfigShape } from '@rm/runtime';

export const evidenceWorkerConfig = commonConfig.extend({
  ...workerConfigShape,
  /** Port of /health, /ready and /metrics; 0 turns it off. */
  METRICS_PORT: env.port(9104),
  /** Captures run at once by this process (each waits mostly on the network). */
  EVIDENCE_CONCURRENCY: env.positiveInt(20),
  ...evidenceConfigShape,
});
export type EvidenceWorkerConfig = z.infer<typeof evidenceWorkerConfig>;
