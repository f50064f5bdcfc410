import { cpus, totalmem } from 'node:os';
import type { CannonResult } from './cannon.js';
import type { DrainResult } from './drain.js';
import { cpuUs } from './cpu-per-request.js';
import { goalRows } from './goals.js';
import { ceilingRows, tracingRows } from './pairs.js';
import type { BenchResults, Cycles } from './results.js';

export function machine(): BenchResults['machine'] {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

/** One measured run: autocannon's figures and, when metered, the CPU seconds of its server and Redis, in all and each. */
export type Measured = CannonResult & { cpuSeconds?: number; cpuByProcess?: Record<string, number> };

/** One scenario's rounds as one figure: means of rates and latencies, sums of counts. */
export function combine(results: Measured[], note?: string): BenchResults['scenarios'][string] {
  const mean = (pick: (r: Measured) => number) => Math.round((results.reduce((sum, r) => sum + pick(r), 0) / results.length) * 10) / 10;
  const sum = (pick: (r: Measured) => number) => results.reduce((total, r) => total + pick(r), 0);
  return {
    reqPerSec: Math.round(mean((r) => r.reqPerSec)),
    p50: mean((r) => r.p50),
    p90: mean((r) => r.p90),
    p99: mean((r) => r.p99),
    max: Math.max(...results.map((r) => r.max)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    ...(note && { note }),
    roundsReqPerSec: results.map((r) => r.reqPerSec),
    // CPU over all the rounds' requests, and each round's (for the paired ratios).
    ...(results.every((r) => r.cpuSeconds !== undefined) && {
      cpuUsPerRequest: cpuUs(sum((r) => r.cpuSeconds!), sum((r) => r.requests)),
      roundsCpuUs: results.map((r) => cpuUs(r.cpuSeconds!, r.requests)),
    }),
    // Redis's part of it: which side of the wire a difference in CPU is on.
    ...(results.every((r) => r.cpuByProcess?.['redis'] !== undefined) && {
      redisCpuUsPerRequest: cpuUs(sum((r) => r.cpuByProcess!['redis']!), sum((r) => r.requests)),
    }),
  };
}

/** a / b to two decimals (0 when b is). */
export const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

export function ratios(s: BenchResults['scenarios'], drain: DrainResult[], cyclesPerSec = 0, bareCyclesPerSec = 0): Record<string, number> {
  const r = (name: string) => s[name]?.reqPerSec ?? 0;
  /**
   * The median of the rounds' own ratios: the two sides of a round ran seconds apart, and one round
   * caught in a slow spell of this VM does not move the figure (the mean of two when there are two).
   */
  const paired = (a: string, b: string, of: 'roundsReqPerSec' | 'roundsCpuUs' = 'roundsReqPerSec') => {
    const [x, y] = [s[a]?.[of] ?? [], s[b]?.[of] ?? []];
    const each = x.slice(0, Math.min(x.length, y.length)).map((v, i) => v / y[i]!).sort((p, q) => p - q);
    if (each.length === 0) return 0;
    const mid = each.length / 2;
    return ratio(each.length % 2 ? each[Math.floor(mid)]! : (each[mid - 1]! + each[mid]!) / 2, 1);
  };
  return {
    submitOverHello: paired('submit', 'hello'),
    submitOverBareQueue: paired('submit', 'bareQueue'),
    submitEvidenceOverSubmit: paired('submitEvidence', 'submit'),
    checkOverHello: paired('check', 'hello'),
    checkOverHelloCheckRequests: paired('check', 'helloCheckRequests'),
    checkOverBareCheck: paired('check', 'bareCheck'),
    // CPU per request over the ceiling's, each the median of the rounds' own (issue 55).
    cpuCheckOverBareCheck: paired('check', 'bareCheck', 'roundsCpuUs'),
    cpuSubmitOverBareQueue: paired('submit', 'bareQueue', 'roundsCpuUs'),
    cpuSanctionStatusOverHello: paired('sanctionStatus', 'helloSanctionRequests', 'roundsCpuUs'),
    // Tracing on over off, on the same gateway build in the same minutes (issue 54).
    submitTracedOverOff: paired('submitTraced', 'submitTracingOff'),
    submitTraced10OverOff: paired('submitTraced10', 'submitTracingOff'),
    checkTracedOverOff: paired('checkTraced', 'checkTracingOff'),
    checkTraced10OverOff: paired('checkTraced10', 'checkTracingOff'),
    sanctionStatusOverHello: paired('sanctionStatus', 'helloSanctionRequests'),
    sanctionStatusOverPlainHello: ratio(r('sanctionStatus'), r('helloBeforeSanctions')),
    submitEverysecOverAlways: ratio(r('submitEverysec'), r('submit')),
    drainAt10OverSubmit: ratio(drain.find((d) => d.concurrency === 10)?.reportsPerSec ?? 0, r('submit')),
    decisionCyclesOverBareStack: ratio(cyclesPerSec, bareCyclesPerSec),
  };
}

const cyclesLine = (what: string, c: Cycles) =>
  `${what}: ${c.cyclesPerSec} cycles/s${Object.entries(c.steps)
    .map(([k, s]) => `; ${k} p50 ${s.p50} ms, p99 ${s.p99} ms`)
    .join('')}`;

/** The results as a markdown document (also printed to the terminal). */
export function markdown(b: BenchResults): string {
  const lines = [
    `Machine: ${b.machine.cpu}, ${b.machine.cores} cores, ${b.machine.memoryGb} GiB, Node ${b.machine.node}; ${b.machine.date}`,
    `Load: autocannon, ${b.connections} connections, ${b.durationSec} s per scenario, from its own process.`,
    `Every run follows ${b.warmupSec} s of load that is not counted. hello, bareQueue, submit, submitEvidence, helloCheckRequests, bareCheck, check, helloSanctionRequests and sanctionStatus ran in ${b.rounds} rounds, each ceiling right before the scenario it is compared with (helloCheckRequests, hello and then bareCheck before check; submit and submitEvidence after bareQueue, in alternating order); the tracing runs (off, default sampler, 10 %) in ${b.rounds} rounds of their own, in alternating order; their figures are the rounds' means.`,
    '',
    '| scenario | req/s | req/s per round | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(b.scenarios).map(
      ([name, s]) =>
        `| ${name}${s.note ? ` (${s.note})` : ''} | ${s.reqPerSec} | ${s.roundsReqPerSec.join(', ')} | ${s.p50} | ${s.p90} | ${s.p99} | ${s.max} | ${s.non2xx} | ${s.errors} |`,
    ),
    '',
    cyclesLine('Decision cycles (claim → approve → undo)', b.cycles),
    cyclesLine('The same at one moderator', b.cyclesAtOne),
    `CPU per decision during the cycles: **${b.decisionCpu.perDecisionMs} ms** over the gateway, the workers and Redis (load generator apart: ${b.decisionCpu.loadGeneratorPerDecisionMs} ms); seconds per process: ${Object.entries(b.decisionCpu.seconds).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    ...(b.bareDecisions
      ? [
          `Their ceiling, the bare decision stack right before them (Fastify + zod + one BullMQ job per decision, answered over pub/sub by a worker that stores nothing): ${b.bareDecisions.cyclesPerSec} cycles/s, ${b.bareDecisions.cpu.perDecisionMs} ms of CPU per decision; seconds per process: ${Object.entries(b.bareDecisions.cpu.seconds).map(([k, v]) => `${k} ${v}`).join(', ')}`,
          cyclesLine('The bare stack at one moderator', b.bareDecisions.cyclesAtOne),
        ]
      : []),
    '',
    `Intake drain: reports submitted through a gateway with no worker running, then stored by one intake worker; ${b.rounds} rounds per concurrency, their totals.`,
    '',
    '| intake worker concurrency | reports | jobs | seconds | reports/s | jobs/s |',
    '|---:|---:|---:|---:|---:|---:|',
    ...b.drain.map((d) => `| ${d.concurrency} | ${d.reports} | ${d.jobs} | ${d.seconds} | ${d.reportsPerSec} | ${d.jobsPerSec} |`),
    '',
    ...(b.banWave
      ? [
          `Ban wave: ${b.banWave.sanctions} sanctions in ${b.banWave.batches} batches through POST /v1/sanctions/batch, workers running, first request to last feed event read: ${b.banWave.seconds} s, **${b.banWave.sanctionsPerSec} sanctions/s**; every one in the feed exactly once: ${b.banWave.exactlyOnce ? 'yes' : 'NO'}.`,
          '',
        ]
      : []),
    `Peak RSS under the submit load (MB): ${Object.entries(b.rssMb).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    '',
    ...ceilingRows(b),
    '',
    ...tracingRows(b),
    '',
    '| ratio | value |',
    '|---|---:|',
    ...Object.entries(b.ratios).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    'Goals (issues 19, 27, 29, 30, 54 and 55), each from this run:',
    '',
    ...goalRows(b),
  ];
  return `${lines.join('\n')}\n`;
}
