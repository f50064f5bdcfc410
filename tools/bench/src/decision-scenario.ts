import { meterCpu } from './cpu.js';
import { decisionCycles } from './cycles.js';
import { untilDrained } from './drain.js';
import { importUsers, submissionBody } from './fixtures.js';

export interface DecisionFigures {
  cycles: Awaited<ReturnType<typeof decisionCycles>>;
  /** The same cycles at one moderator (one connection): the latency a person clicking feels. */
  cyclesAtOne: Awaited<ReturnType<typeof decisionCycles>>;
  /** CPU seconds each process used during the cycles at `connections`, and per decision over the system's processes. */
  cpu: { seconds: Record<string, number>; perDecisionMs: number; loadGeneratorPerDecisionMs: number };
}

/**
 * (f) claim → approve → undo cycles, one case per connection, on a running system (gateway and
 * workers): the cycles at `connections` with the CPU time of every process metered over them
 * (the load generator's own, this process, apart), then the same at one moderator.
 */
export async function decisionScenario(o: {
  baseUrl: string;
  auth: string;
  env: NodeJS.ProcessEnv;
  prefix: string;
  moderatorId: string;
  connections: number;
  durationSec: number;
  /** The system's processes (gateway, workers, Redis) whose CPU counts. */
  procs: { name: string; pid: number }[];
}): Promise<DecisionFigures> {
  const users = importUsers({ ...o.env }, o.connections, 950_000_000);
  const caseIds: string[] = [];
  for (const user of users) {
    const res = await fetch(`${o.baseUrl}/v1/reports/new`, { method: 'POST', headers: { authorization: o.auth, 'content-type': 'application/json' }, body: submissionBody(user) });
    caseIds.push(((await res.json()) as { id: string }).id);
  }
  await untilDrained(o.env, o.prefix);
  const stopMeter = meterCpu([...o.procs, { name: 'load generator', pid: process.pid }]);
  const cycles = await decisionCycles(o.baseUrl, o.auth, caseIds, o.moderatorId, o.durationSec);
  const seconds = stopMeter();
  const decisions = Math.max(1, cycles.cycles * 3);
  const systemSeconds = o.procs.reduce((sum, p) => sum + (seconds[p.name] ?? 0), 0);
  const perDecision = (s: number) => Math.round((s / decisions) * 1000 * 100) / 100;
  const cyclesAtOne = await decisionCycles(o.baseUrl, o.auth, caseIds.slice(0, 1), o.moderatorId, o.durationSec);
  return { cycles, cyclesAtOne, cpu: { seconds, perDecisionMs: perDecision(systemSeconds), loadGeneratorPerDecisionMs: perDecision(seconds['load generator'] ?? 0) } };
}
