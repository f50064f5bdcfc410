import { z } from 'zod';
import { evidenceConfigShape } from '@rm/evidence';
import { chatConfigShape } from '@rm/platforms';
import { commonConfig, env, workerConfigShape } from '@rm/runtime';
import { triageConfigShape } from '@rm/triage';

export const evidenceWorkerConfig = commonConfig.extend({
  ...workerConfigShape,
  /** Port of /health, /ready and /metrics; 0 turns it off. */
  METRICS_PORT: env.port(9104),
  /** Capture jobs run at once by this process; each keeps its items (up to 20) at once, waiting mostly on the network. */
  EVIDENCE_CONCURRENCY: env.positiveInt(5),
  ...evidenceConfigShape,
  /** The policy: its `evidence.retention` times the daily evidence sweep, its `retention` the retention sweep. */
  ...triageConfigShape,
  /** The chat platform whose case messages the retention sweep rewrites without the player. */
  ...chatConfigShape,
});
export type EvidenceWorkerConfig = z.infer<typeof evidenceWorkerConfig>;
