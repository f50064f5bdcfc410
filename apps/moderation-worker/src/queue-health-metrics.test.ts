import { Metrics } from '@rm/runtime';
import type { CaseTriageRecord, OpenCaseSummary } from '@rm/storage';
import { describe, expect, it } from 'vitest';
import { installQueueHealthMetrics, type QueueHealthSource } from './queue-health-metrics.js';

const open = (i: number): OpenCaseSummary => ({ caseId: `c${String(i).padStart(4, '0')}`, userId: `u${i}`, state: i % 2 ? 'claimed' : 'open', claimedBy: null, createdAt: 1, slaBreached: false });
const triage = (caseId: string, priority: number): CaseTriageRecord => ({ caseId, priority, reportCount: 1, distinctReporters: 1, categories: [], flags: [], firedRules: [], lastReportAt: 1, updatedAt: 1 });

describe('rm_open_cases', () => {
  it("reads the cases' triage a page per store call, not one call per case, and counts each band", async () => {
    const cases = Array.from({ length: 1_500 }, (_, i) => open(i));
    const calls: number[] = [];
    const source: QueueHealthSource = {
      async openCases(after, limit) {
        return cases.filter((c) => c.caseId > after).slice(0, limit);
      },
      async caseTriages(ids) {
        calls.push(ids.length);
        // Every third case untriaged; the others high (60) or low (10).
        return ids.flatMap((id) => (Number(id.slice(1)) % 3 === 0 ? [] : [triage(id, Number(id.slice(1)) % 3 === 1 ? 60 : 10)]));
      },
    };
    const metrics = new Metrics('test');
    installQueueHealthMetrics(metrics, source);
    const gauge = (await metrics.registry.getSingleMetric('rm_open_cases')!.get()).values.map((v) => [v.labels['band'], v.labels['state'], v.value]);
    expect(calls).toEqual([1_000, 500]);
    expect(gauge).toEqual(
      expect.arrayContaining([
        ['untriaged', 'open', 250],
        ['untriaged', 'claimed', 250],
        ['high', 'open', 250],
        ['high', 'claimed', 250],
        ['low', 'open', 250],
        ['low', 'claimed', 250],
      ]),
    );
  });
});
