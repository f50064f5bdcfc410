import { cpus, totalmem } from 'node:os';
import type { CannonResult } from './cannon.js';

export interface BenchResults {
  machine: { cpu: string; cores: number; memoryGb: number; node: string; date: string };
  connections: number;
  durationSec: number;
  scenarios: Record<string, CannonResult & { note?: string }>;
  cycles: { cyclesPerSec: number; cycles: number; steps: Record<string, { reqPerSec: number; p50: number; p99: number }> };
  drain: { concurrency: number; jobs: number; seconds: number; jobsPerSec: number }[];
  rssMb: Record<string, number>;
  ratios: Record<string, number>;
}

export function machine(): BenchResults['machine'] {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

export function ratios(s: BenchResults['scenarios']): Record<string, number> {
  const r = (name: string) => s[name]?.reqPerSec ?? 0;
  return {
    submitOverHello: ratio(r('submit'), r('hello')),
    submitOverBareQueue: ratio(r('submit'), r('bareQueue')),
    checkOverHello: ratio(r('check'), r('hello')),
    submitEverysecOverAlways: ratio(r('submitEverysec'), r('submit')),
  };
}

/** The results as a markdown document (also printed to the terminal). */
export function markdown(b: BenchResults): string {
  const lines = [
    `Machine: ${b.machine.cpu}, ${b.machine.cores} cores, ${b.machine.memoryGb} GiB, Node ${b.machine.node}; ${b.machine.date}`,
    `Load: autocannon, ${b.connections} connections, ${b.durationSec} s per scenario, from its own process.`,
    '',
    '| scenario | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(b.scenarios).map(([name, s]) => `| ${name}${s.note ? ` (${s.note})` : ''} | ${s.reqPerSec} | ${s.p50} | ${s.p90} | ${s.p99} | ${s.max} | ${s.non2xx} | ${s.errors} |`),
    '',
    `Decision cycles (claim → approve → undo): ${b.cycles.cyclesPerSec} cycles/s` +
      Object.entries(b.cycles.steps)
        .map(([k, s]) => `; ${k} p50 ${s.p50} ms, p99 ${s.p99} ms`)
        .join(''),
    '',
    '| intake worker concurrency | jobs | seconds | jobs/s |',
    '|---:|---:|---:|---:|',
    ...b.drain.map((d) => `| ${d.concurrency} | ${d.jobs} | ${d.seconds} | ${d.jobsPerSec} |`),
    '',
    `Peak RSS under the submit load (MB): ${Object.entries(b.rssMb).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    '',
    '| ratio | value |',
    '|---|---:|',
    ...Object.entries(b.ratios).map(([k, v]) => `| ${k} | ${v} |`),
  ];
  return `${lines.join('\n')}\n`;
}
