import type { BenchResults } from './results.js';

/** One figure the project has set itself a goal for (issues 19, 27, 29 and 30), with what this run measured. */
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
  return [
    { measure: `decision cycles, ${b.connections} at once`, value: b.cycles.cyclesPerSec, bound: 'min', goal: 200, unit: 'cycles/s' },
    { measure: 'one moderator: claim p50', value: step('claim'), bound: 'max', goal: 5, unit: 'ms' },
    { measure: 'one moderator: approve p50', value: step('approve'), bound: 'max', goal: 6, unit: 'ms' },
    { measure: 'one moderator: undo p50', value: step('undo'), bound: 'max', goal: 8, unit: 'ms' },
    { measure: 'CPU per decision over the gateway, workers and Redis', value: b.decisionCpu.perDecisionMs, bound: 'max', goal: 3, unit: 'ms' },
    { measure: 'submit / bare queue stack', value: b.ratios['submitOverBareQueue'] ?? 0, bound: 'min', goal: 1.3, unit: '×' },
    { measure: 'submit with createEvidence / submit without', value: b.ratios['submitEvidenceOverSubmit'] ?? 0, bound: 'min', goal: 0.95, unit: '×' },
    { measure: 'check / hello', value: b.ratios['checkOverHello'] ?? 0, bound: 'min', goal: 0.45, unit: '×' },
    { measure: 'ban API / hello taking the same requests', value: b.ratios['sanctionStatusOverHello'] ?? 0, bound: 'min', goal: 0.8, unit: '×' },
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
