import { Counter, Gauge } from 'prom-client';
import type { Metrics } from '@rm/runtime';
import { allOpenCases, triageOfCases, type CaseTriageRecord, type OpenCaseSummary } from '@rm/storage';

/** The band of a case not triaged yet (a report stored before the triage policy existed, or still being triaged). */
export const UNTRIAGED_BAND = 'untriaged';

/**
 * The priority band of an open case for the open-cases gauge, by its stored triage priority
 * (without the age term). Fixed thresholds, so dashboards and alerts do not shift with the policy:
 * with the default weights (severity × 10) one cheating report is high, harassment or griefing
 * medium, spam or other low.
 */
export function priorityBand(triage: Pick<CaseTriageRecord, 'priority'> | null): string {
  if (triage === null) return UNTRIAGED_BAND;
  if (triage.priority >= 50) return 'high';
  if (triage.priority >= 25) return 'medium';
  return 'low';
}

export interface QueueHealthSource {
  openCases(afterId: string, limit: number): Promise<OpenCaseSummary[]>;
  caseTriages(caseIds: string[]): Promise<CaseTriageRecord[]>;
}

/**
 * Queue-health series of the process that handles deadlines: open cases by priority band and
 * state (read from the store at each scrape) and SLA breaches escalated by this process.
 */
export function installQueueHealthMetrics(metrics: Metrics, store: QueueHealthSource, categories: string[] = []): { slaBreached(category: string): void } {
  const registers = [metrics.registry];
  const breaches = new Counter({ name: 'rm_sla_breaches_total', help: 'Cases escalated for waiting unclaimed past their SLA, by category', labelNames: ['category'], registers });
  // Every category of the policy from zero, so the first breach shows in increase() and its alert.
  for (const category of categories) breaches.inc({ category }, 0);
  new Gauge({
    name: 'rm_open_cases',
    help: 'Open (unclaimed) and claimed cases by priority band (high, medium, low, untriaged)',
    labelNames: ['band', 'state'],
    registers,
    async collect() {
      let banded: { band: string; state: 'open' | 'claimed' }[];
      try {
        const cases = await allOpenCases(store);
        // A page of cases' triage per store call, not one call per case per scrape.
        const triages = await triageOfCases(store, cases.map((c) => c.caseId));
        banded = cases.map((c) => ({ band: priorityBand(triages.get(c.caseId) ?? null), state: c.state }));
      } catch {
        return; // the store is away: keep the last values rather than failing the whole scrape
      }
      const counts = new Map<string, { open: number; claimed: number }>();
      for (const c of banded) {
        const n = counts.get(c.band) ?? { open: 0, claimed: 0 };
        n[c.state]++;
        counts.set(c.band, n);
      }
      this.reset();
      for (const [band, n] of counts) for (const state of ['open', 'claimed'] as const) this.set({ band, state }, n[state]);
    },
  });
  return { slaBreached: (category) => breaches.inc({ category }) };
}
