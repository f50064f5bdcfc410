import { appendFileSync } from 'node:fs';

/**
 * The fault scenarios of issue 51 run in two lengths: short in `npm test` (seconds of fault, a few
 * hundred requests) and long under `npm run chaos` (CHAOS=long: the fault lasts as long as the
 * issue says, with more load). The code paths are the same; only spans and counts change.
 */
export const LONG = process.env['CHAOS'] === 'long';

/** `short` in `npm test`, `long` under `npm run chaos`. */
export const span = <T>(short: T, long: T): T => (LONG ? long : short);

/** One row of `npm run chaos`'s table (and the line a test prints to stderr). */
export interface Figures {
  fault: string;
  /** Requests answered 200 (reports, decisions) whose effect is promised. */
  acknowledged: number;
  /** Of those, how many were found stored or applied (or delivered) afterwards. */
  stored: number;
  lost: number;
  /** From the fault's end to the first request served again (or everything owed delivered), ms. */
  recoveryMs: number | null;
  /** Anything else worth a column (refusal times, retries). */
  note?: string;
}

/**
 * Prints the figures as one stderr line, and appends them to CHAOS_REPORT (a JSON line) when the
 * chaos runner (tools/dev/chaos.mjs) asked for them.
 */
export function recordFigures(f: Figures): void {
  process.stderr.write(
    `${f.fault}: ${f.acknowledged} acknowledged, ${f.stored} stored, ${f.lost} lost, recovery ${f.recoveryMs === null ? '-' : `${f.recoveryMs} ms`}${f.note ? `; ${f.note}` : ''}\n`,
  );
  const file = process.env['CHAOS_REPORT'];
  if (file) appendFileSync(file, `${JSON.stringify(f)}\n`);
}
