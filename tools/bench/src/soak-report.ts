import type { OperationSummary } from './stats.js';

/** One process over a minute: its memory, the mean of its samples (every 5 s), in MB, and its CPU. */
export interface Memory {
  rssMb: number;
  /** V8 heap used (nodejs_heap_size_used_bytes from its /metrics); null for Redis, or when /metrics did not answer. */
  heapMb: number | null;
  /** CPU time it used in the minute, in percent of one core. */
  cpuPct?: number;
  /** Its longest event-loop stall in the minute, in ms (from the delay its /metrics reports at each sample); absent for Redis. */
  loopMaxMs?: number;
}

export interface SoakMinute {
  minute: number;
  warmUp: boolean;
  ops: Record<string, Pick<OperationSummary, 'requests' | 'p50' | 'p99'>>;
  errors: Record<string, number>;
  shed: number;
  memory: Record<string, Memory>;
  /** The machine's load average (1 minute) at the minute's end: on a shared machine, what else ran. */
  load: number;
  /** Redis's AOF rewrites that started in the minute (a fork and a rewrite of the file beside the fsyncs of every write). */
  aofRewrites?: number;
  /** Redis's latency monitor: each event over its threshold in the minute (fork, aof-fsync-always, command...), its longest in ms. */
  redisStalls?: Record<string, number>;
}

/** The issue's goals, after the warm-up. */
export const GOALS = { rssGrowth: 0.1, p99Factor: 1.5, errors: 0 } as const;

export interface Verdict {
  pass: boolean;
  lines: string[];
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

/**
 * The verdict against the goals: after the warm-up, each of our processes' RSS grows less than
 * 10 % (the mean of the last third of the measured minutes against the mean of the first third: a
 * V8 process's RSS swings by a fifth from one minute to the next as the GC hands pages back, and
 * growth is what both thirds agree on), each operation's p99 stays within 1.5x of its first
 * measured minute's, and nothing failed in the whole run (warm-up included).
 */
export function verdict(minutes: SoakMinute[]): Verdict {
  const measured = minutes.filter((m) => !m.warmUp);
  const lines: string[] = [];
  let pass = true;
  const first = measured[0];
  const last = measured[measured.length - 1];
  if (!first || !last || measured.length < 2) {
    return { pass: false, lines: ['fewer than two minutes after the warm-up: nothing to compare (run longer)'] };
  }
  const third = Math.max(1, Math.floor(measured.length / 3));
  const early = measured.slice(0, third);
  const late = measured.slice(-third);
  const meanRss = (ms: SoakMinute[], name: string) => ms.reduce((a, m) => a + (m.memory[name]?.rssMb ?? 0), 0) / ms.length;
  const span = (ms: SoakMinute[]) => (ms.length === 1 ? `minute ${ms[0]!.minute}` : `minutes ${ms[0]!.minute}-${ms[ms.length - 1]!.minute}`);
  for (const name of Object.keys(first.memory)) {
    // Redis's memory is the data it holds (each reporter's daily counters live a day), which grows
    // with the load by design: shown, not held to the goal.
    if (name === 'redis') continue;
    const from = meanRss(early, name);
    const to = meanRss(late, name);
    const growth = from > 0 ? (to - from) / from : 0;
    const ok = growth < GOALS.rssGrowth;
    pass &&= ok;
    lines.push(
      `${ok ? 'ok  ' : 'MISS'} ${name} RSS ${from.toFixed(0)} MB (${span(early)}) -> ${to.toFixed(0)} MB (${span(late)}): ${pct(growth)}; goal under +${GOALS.rssGrowth * 100} %; first and last measured minute ${first.memory[name]!.rssMb.toFixed(0)} and ${(last.memory[name]?.rssMb ?? 0).toFixed(0)} MB`,
    );
  }
  for (const op of Object.keys(first.ops)) {
    const base = first.ops[op]!.p99;
    const worst = measured.reduce((w, m) => ((m.ops[op]?.p99 ?? 0) > (w.ops[op]?.p99 ?? 0) ? m : w), first);
    const p99 = worst.ops[op]?.p99 ?? 0;
    const ok = p99 <= base * GOALS.p99Factor;
    pass &&= ok;
    const stalls = ok ? '' : stallsOf(worst);
    // The load averages say whether the machine was busier then (other work on a shared machine).
    lines.push(
      `${ok ? 'ok  ' : 'MISS'} ${op} p99 ${base} ms in minute ${first.minute} (load ${first.load.toFixed(1)}), at most ${p99} ms (minute ${worst.minute}, load ${worst.load.toFixed(1)}; ${(p99 / Math.max(base, 0.001)).toFixed(2)}x; goal within ${GOALS.p99Factor}x)${stalls ? `; stalls that minute: ${stalls}` : ''}`,
    );
  }
  const errors: Record<string, number> = {};
  let shed = 0;
  for (const m of minutes) {
    for (const [what, n] of Object.entries(m.errors)) errors[what] = (errors[what] ?? 0) + n;
    shed += m.shed;
  }
  const count = Object.values(errors).reduce((a, b) => a + b, 0) + shed;
  pass &&= count === 0;
  lines.push(`${count === 0 ? 'ok  ' : 'MISS'} errors ${count}${count ? `: ${JSON.stringify(errors)}${shed ? `, ${shed} not sent (too many unanswered)` : ''}` : ''} (goal 0, warm-up included)`);
  return { pass, lines };
}

/** What stalled in a minute: each process's longest event-loop stall of 10 ms or more, and Redis's latency events. */
export function stallsOf(m: SoakMinute): string {
  const loops = Object.entries(m.memory)
    .filter(([, x]) => (x.loopMaxMs ?? 0) >= 10)
    .map(([p, x]) => `${p} loop ${x.loopMaxMs!.toFixed(0)} ms`);
  const redis = Object.entries(m.redisStalls ?? {}).map(([event, ms]) => `redis ${event} ${ms} ms`);
  return [...loops, ...redis].join(', ');
}

/** A minute as one line, printed as it ends. */
export function minuteLine(m: SoakMinute): string {
  const ops = Object.entries(m.ops).map(([o, s]) => `${o} ${s.requests} ${s.p50}/${s.p99} ms`);
  const memory = Object.entries(m.memory).map(([p, x]) => `${p} ${x.rssMb.toFixed(0)}/${x.heapMb === null ? '-' : x.heapMb.toFixed(0)} MB ${x.cpuPct?.toFixed(0) ?? '-'} %`);
  const errors = Object.values(m.errors).reduce((a, b) => a + b, 0) + m.shed;
  const stalls = stallsOf(m);
  return `minute ${m.minute}${m.warmUp ? ' (warm-up)' : ''}: ${ops.join(', ')}; errors ${errors}${errors ? ` ${JSON.stringify(m.errors)}${m.shed ? ` +${m.shed} not sent` : ''}` : ''}; RSS/heap, CPU ${memory.join(', ')}; load average ${m.load.toFixed(1)}${m.aofRewrites ? `; Redis AOF rewrites ${m.aofRewrites}` : ''}${stalls ? `; stalls: ${stalls}` : ''}`;
}

/** The table: a row per minute, each operation's requests, p50 and p99, errors, each process's RSS and heap. */
export function minuteTable(minutes: SoakMinute[]): string {
  const first = minutes[0];
  if (!first) return '';
  const ops = Object.keys(first.ops);
  const procs = Object.keys(first.memory);
  const head = ['min', ...ops.map((o) => `${o} n p50/p99 ms`), 'errors', ...procs.map((p) => `${p} RSS/heap MB`), 'load', 'AOF rewrites'];
  const rows = minutes.map((m) => [
    `${m.minute}${m.warmUp ? 'w' : ''}`,
    ...ops.map((o) => `${m.ops[o]!.requests} ${m.ops[o]!.p50}/${m.ops[o]!.p99}`),
    String(Object.values(m.errors).reduce((a, b) => a + b, 0) + m.shed),
    ...procs.map((p) => `${m.memory[p]!.rssMb.toFixed(0)}/${m.memory[p]!.heapMb === null ? '-' : m.memory[p]!.heapMb!.toFixed(0)}`),
    m.load.toFixed(1),
    String(m.aofRewrites ?? 0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
