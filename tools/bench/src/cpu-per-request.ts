import { meterCpu } from './cpu.js';

/** A process whose CPU counts toward a scenario's requests (the server under load and Redis). */
export interface Metered {
  name: string;
  pid: number;
}

/**
 * Runs a measured load against `procs` and adds the CPU seconds they used meanwhile (from /proc,
 * as the decision cycles meter theirs). A rate alone on two shared cores mixes our cost with the
 * load generator's and the machine's mood; CPU per request is what our code costs each request.
 */
export async function metered<T extends { requests: number }>(procs: Metered[], run: () => Promise<T>): Promise<T & { cpuSeconds: number; cpuByProcess: Record<string, number> }> {
  const stop = meterCpu(procs);
  const result = await run();
  const cpuByProcess = stop();
  const cpuSeconds = Object.values(cpuByProcess).reduce((sum, s) => sum + s, 0);
  return { ...result, cpuSeconds, cpuByProcess };
}

/** µs of CPU per request; 0 when nothing was metered or answered. */
export const cpuUs = (cpuSeconds: number, requests: number): number => (requests > 0 ? Math.round((cpuSeconds / requests) * 1e6 * 10) / 10 : 0);
