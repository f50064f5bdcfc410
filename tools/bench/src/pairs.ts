import type { BenchResults } from './results.js';

/**
 * Each request-serving scenario beside the ceiling run right before it in every round: the stack
 * of the same design with none of our code (issue 55), so the ratio and the CPU per request say
 * what our code adds, not what the load generator or the machine cost.
 */
export const CEILINGS = [
  { scenario: 'submit', ceiling: 'bareQueue', reqRatio: 'submitOverBareQueue', cpuRatio: 'cpuSubmitOverBareQueue' },
  { scenario: 'check', ceiling: 'bareCheck', reqRatio: 'checkOverBareCheck', cpuRatio: 'cpuCheckOverBareCheck' },
  { scenario: 'sanctionStatus', ceiling: 'helloSanctionRequests', reqRatio: 'sanctionStatusOverHello', cpuRatio: 'cpuSanctionStatusOverHello' },
] as const;

/** The same gateway with tracing off, on at the default sampler, and at 10 % (issue 54). */
export const TRACED = [
  { scenario: 'submit', off: 'submitTracingOff', on: 'submitTraced', at10: 'submitTraced10' },
  { scenario: 'check', off: 'checkTracingOff', on: 'checkTraced', at10: 'checkTraced10' },
] as const;

const fig = (b: BenchResults, name: string) => b.scenarios[name];
const us = (v: number | undefined) => (v === undefined ? '-' : String(v));
/** CPU per request, Redis's part in brackets when it was metered apart. */
const cpuOf = (s: BenchResults['scenarios'][string]) => `${us(s.cpuUsPerRequest)}${s.redisCpuUsPerRequest === undefined ? '' : ` (${s.redisCpuUsPerRequest})`}`;

/** The ceilings table: req/s and µs of CPU per request (server + Redis) of both sides, and their ratios. */
export function ceilingRows(b: BenchResults): string[] {
  return [
    'Per request beside its ceiling: req/s and µs of CPU per request of the server and Redis, Redis\'s part in brackets (from /proc, over the measured seconds of every round); the ratios are the medians of the rounds\' own.',
    '',
    '| scenario | req/s | CPU µs/req | ceiling | req/s | CPU µs/req | req/s ratio | CPU ratio |',
    '|---|---:|---:|---|---:|---:|---:|---:|',
    ...CEILINGS.filter((c) => fig(b, c.scenario) && fig(b, c.ceiling)).map(
      (c) =>
        `| ${c.scenario} | ${fig(b, c.scenario)!.reqPerSec} | ${cpuOf(fig(b, c.scenario)!)} | ${c.ceiling} | ${fig(b, c.ceiling)!.reqPerSec} | ${cpuOf(fig(b, c.ceiling)!)} | ${b.ratios[c.reqRatio]} | ${b.ratios[c.cpuRatio]} |`,
    ),
  ];
}

/** The tracing table: req/s and CPU per request off, at the default sampler, at 10 %; ratios to off. */
export function tracingRows(b: BenchResults): string[] {
  const rows = TRACED.filter((t) => fig(b, t.off) && fig(b, t.on) && fig(b, t.at10));
  if (rows.length === 0) return [];
  const ratio = (name: string) => b.ratios[name] ?? 0;
  const exported = Object.entries(b.tracingExports ?? {})
    .map(([k, v]) => `${k} ${v.exports} exports (${Math.round(v.bytes / 1024)} KiB)`)
    .join(', ');
  return [
    `Tracing (OTLP/HTTP to a sink on loopback that answers 200): the gateway with tracing off, on at the default sampler (every request), and at \`parentbased_traceidratio\` 0.1, CPU per request as above; the sink took ${exported || 'nothing'}.`,
    '',
    '| scenario | off req/s | CPU µs/req | default sampler req/s | CPU µs/req | ratio | 10 % req/s | CPU µs/req | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((t) => {
      const [off, on, at10] = [fig(b, t.off)!, fig(b, t.on)!, fig(b, t.at10)!];
      return `| ${t.scenario} | ${off.reqPerSec} | ${cpuOf(off)} | ${on.reqPerSec} | ${cpuOf(on)} | ${ratio(`${t.scenario}TracedOverOff`)} | ${at10.reqPerSec} | ${cpuOf(at10)} | ${ratio(`${t.scenario}Traced10OverOff`)} |`;
    }),
  ];
}
