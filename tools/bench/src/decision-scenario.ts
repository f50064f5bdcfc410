import { meterCpu } from './cpu.js';
import { decisionCycles } from './cycles.js';
import { untilDrained } from './drain.js';
import { importUsers, submissionBody } from './fixtures.js';
import { redisProcs, startProcess, waitHttp, type Proc } from './processes.js';

/**
 * Cycles run before the measured ones, unmeasured: a process just started spends its first
 * seconds compiling its hot paths (V8's optimizing compiler, on threads of its own: a tenth of the
 * system's CPU in the measured 10 s when they came first, 6 % still 5 s into them, under 0.5 %
 * after 28 s), which a long-running service has paid long before. Both stacks warm up the same.
 */
export const WARMUP_SEC = 15;

/** CPU per decision over `procs` (named as meterCpu gave them) and the load generator's. */
function cpuPerDecision(seconds: Record<string, number>, procs: { name: string }[], cycles: number) {
  const decisions = Math.max(1, cycles * 3);
  const perDecision = (s: number) => Math.round((s / decisions) * 1000 * 100) / 100;
  const systemSeconds = procs.reduce((sum, p) => sum + (seconds[p.name] ?? 0), 0);
  return { seconds, perDecisionMs: perDecision(systemSeconds), loadGeneratorPerDecisionMs: perDecision(seconds['load generator'] ?? 0) };
}

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
  return measuredCycles(o.baseUrl, o.auth, caseIds, o.moderatorId, o.durationSec, o.procs);
}

/**
 * The cycles on `reportIds` after the warm-up: at one connection per report, with the CPU of
 * `procs` and the load generator metered over them, then at one moderator.
 */
async function measuredCycles(baseUrl: string, auth: string, reportIds: string[], moderatorId: string, durationSec: number, procs: { name: string; pid: number }[]): Promise<DecisionFigures> {
  await decisionCycles(baseUrl, auth, reportIds, moderatorId, WARMUP_SEC);
  const stopMeter = meterCpu([...procs, { name: 'load generator', pid: process.pid }]);
  const cycles = await decisionCycles(baseUrl, auth, reportIds, moderatorId, durationSec);
  const cpu = cpuPerDecision(stopMeter(), procs, cycles.cycles);
  const cyclesAtOne = await decisionCycles(baseUrl, auth, reportIds.slice(0, 1), moderatorId, durationSec);
  return { cycles, cyclesAtOne, cpu };
}

export interface BareDecisionFigures {
  cyclesPerSec: number;
  cpu: DecisionFigures['cpu'];
  /** The same at one moderator: what the plumbing alone costs a person's click. */
  cyclesAtOne: DecisionFigures['cyclesAtOne'];
}

/**
 * The ceiling of (f): the same cycles against the bare decision stack (bare/decision-gateway.ts
 * and bare/decision-worker.ts, started here and stopped after): HTTP, the body's zod check, one
 * BullMQ job and the answer over pub/sub per decision, with nothing stored. Its CPU is metered
 * over its two processes and Redis; `running` holds them meanwhile, for the bench's cleanup.
 */
export async function bareDecisionScenario(o: { env: NodeJS.ProcessEnv; port: number; connections: number; durationSec: number; running: Proc[] }): Promise<BareDecisionFigures> {
  const gateway = startProcess('bare decision gateway', 'tools/bench/dist/bare/decision-gateway.js', { ...o.env, PORT: String(o.port) });
  const worker = startProcess('bare decision worker', 'tools/bench/dist/bare/decision-worker.js', o.env);
  o.running.push(gateway, worker);
  try {
    const baseUrl = `http://127.0.0.1:${o.port}`;
    await waitHttp(`${baseUrl}/`);
    const procs = [...[gateway, worker].map((p) => ({ name: p.name, pid: p.pid })), ...redisProcs()];
    const ids = Array.from({ length: o.connections }, (_, i) => `bare-${i}`);
    const { cycles, cpu, cyclesAtOne } = await measuredCycles(baseUrl, '', ids, 'bench-mod', o.durationSec, procs);
    return { cyclesPerSec: cycles.cyclesPerSec, cpu, cyclesAtOne };
  } finally {
    for (const p of [gateway, worker]) {
      await p.stop();
      o.running.splice(o.running.indexOf(p), 1);
    }
  }
}
