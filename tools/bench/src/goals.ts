import type { BenchResults } from './results.js';

/** One figure the project has set itself a goal for (issues 19, 27, 29, 30, 54 and 55), with what this run measured. */
export interface Goal {
  measure: string;
  value: number;
  /** `min`: the value must reach the goal; `max`: it must stay at or under it. */
  bound: 'min' | 'max';
  goal: number;
  unit: string;
}

export function goals(b: BenchResults): Goal[] {
  const step = (name: string) => b.cyclesAtOne.steps[name]?.p50 ?? Number.NaN;
  const ratio = (name: string) => b.ratios[name] ?? 0;
  return [
    { measure: `decision cycles, ${b.connections} at once`, value: b.cycles.cyclesPerSec, bound: 'min', goal: 200, unit: 'cycles/s' },
    { measure: 'one moderator: claim p50', value: step('claim'), bound: 'max', goal: 5, unit: 'ms' },
    { measure: 'one moderator: approve p50', value: step('approve'), bound: 'max', goal: 6, unit: 'ms' },
    { measure: 'one moderator: undo p50', value: step('undo'), bound: 'max', goal: 8, unit: 'ms' },
    { measure: 'CPU per decision over the gateway, workers and Redis', value: b.decisionCpu.perDecisionMs, bound: 'max', goal: 3, unit: 'ms' },
    // Issue 55: each request-serving path against its own bare stack, in rate and in CPU.
    { measure: 'submit / bare queue stack', value: ratio('submitOverBareQueue'), bound: 'min', goal: 1.2, unit: '×' },
    { measure: 'CPU per submit / bare queue stack\'s', value: ratio('cpuSubmitOverBareQueue'), bound: 'max', goal: 0.8, unit: '×' },
    { measure: 'submit with createEvidence / submit without', value: ratio('submitEvidenceOverSubmit'), bound: 'min', goal: 0.95, unit: '×' },
    { measure: 'check / bare check stack', value: ratio('checkOverBareCheck'), bound: 'min', goal: 0.9, unit: '×' },
    { measure: 'CPU per check / bare check stack\'s', value: ratio('cpuCheckOverBareCheck'), bound: 'max', goal: 1.2, unit: '×' },
    { measure: 'check / hello', value: ratio('checkOverHello'), bound: 'min', goal: 0.45, unit: '×' },
    { measure: 'ban API / hello taking the same requests', value: ratio('sanctionStatusOverHello'), bound: 'min', goal: 0.8, unit: '×' },
    // Issue 54: tracing sampled at 10 % costs submit and check at most a tenth of their rate.
    { measure: 'submit traced at 10 % / tracing off', value: ratio('submitTraced10OverOff'), bound: 'min', goal: 0.9, unit: '×' },
    { measure: 'check traced at 10 % / tracing off', value: ratio('checkTraced10OverOff'), bound: 'min', goal: 0.9, unit: '×' },
    ...(b.banWave ? [{ measure: 'ban wave through the sanctions API', value: b.banWave.sanctionsPerSec, bound: 'min' as const, goal: 2_000, unit: 'sanctions/s' }] : []),
  ];
}

export const met = (g: Goal) => (g.bound === 'min' ? g.value >= g.goal : g.value <= g.goal);

/** The goals as markdown table rows, each with its ratio to the goal. */
export function goalRows(b: BenchResults): string[] {
  return [
    '| measure | this run | goal | value / goal | met |',
    '|---|---:|---:|---:|---|',
    ...goals(b).map(
      (g) => `| ${g.measure} | ${g.value} ${g.unit} | ${g.bound === 'min' ? '≥' : '≤'} ${g.goal} ${g.unit} | ${(g.value / g.goal).toFixed(2)} | ${met(g) ? 'yes' : '**no**'} |`,
    ),
  ];
}
