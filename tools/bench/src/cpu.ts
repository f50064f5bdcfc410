import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU seconds (user + system) a process has used so far, from /proc; 0 when it cannot be read. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: state is the 3rd, utime the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** Starts counting the CPU time of some processes; the returned function gives each one's seconds since. */
export function meterCpu(procs: { name: string; pid: number }[]): () => Record<string, number> {
  const start = new Map(procs.map((p) => [p.name, cpuSeconds(p.pid)]));
  return () => Object.fromEntries(procs.map((p) => [p.name, Math.round((cpuSeconds(p.pid) - start.get(p.name)!) * 100) / 100]));
}
