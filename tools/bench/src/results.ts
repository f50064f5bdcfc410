import type { BanWaveResult } from './ban-wave.js';
import type { CannonResult } from './cannon.js';
import type { BareDecisionFigures, DecisionFigures } from './decision-scenario.js';
import type { DrainResult } from './drain.js';

export type Cycles = { cyclesPerSec: number; cycles: number; steps: Record<string, { reqPerSec: number; p50: number; p99: number }> };

/** What one `npm run bench` measured: written as bench/results/latest.json, printed by report.ts. */
export interface BenchResults {
  machine: { cpu: string; cores: number; memoryGb: number; node: string; date: string };
  connections: number;
  durationSec: number;
  /** Seconds of uncounted load before each measured run. */
  warmupSec: number;
  /** Rounds of the paired scenarios (hello and check, bareQueue and submit). */
  rounds: number;
  /**
   * Per scenario the means over its rounds, and each round's req/s; with the CPU of the processes
   * metered over it (server and Redis), µs per request over all its rounds and per round.
   */
  scenarios: Record<string, CannonResult & { note?: string; roundsReqPerSec: number[]; cpuUsPerRequest?: number; redisCpuUsPerRequest?: number; roundsCpuUs?: number[] }>;
  cycles: Cycles;
  /** The same cycles at one moderator (one connection). */
  cyclesAtOne: Cycles;
  /** CPU seconds per process over the cycles at `connections`, and per decision. */
  decisionCpu: DecisionFigures['cpu'];
  /** The ceiling of the cycles: the bare decision stack, run right before them. */
  bareDecisions?: BareDecisionFigures;
  drain: DrainResult[];
  /** A ban wave through the sanctions API (10,000 in batches of 1,000), first request to last feed event read. */
  banWave?: BanWaveResult;
  rssMb: Record<string, number>;
  /** What the OTLP sink took during the tracing runs (exports and bytes), showing tracing was on. */
  tracingExports?: Record<string, { exports: number; bytes: number }>;
  ratios: Record<string, number>;
}
