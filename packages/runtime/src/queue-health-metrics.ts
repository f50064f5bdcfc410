import { Counter, Gauge } from 'prom-client';
import type { Metrics } from './metrics.js';
import { priorityBandOf } from './queue-policy.js';

interface OpenCase {
  caseId: string;
  userId: string;
  state: 'open' | 'claimed';
  createdAt: number;
}

/**
 * Queue-health series of the process that handles deadlines: open cases by priority band and
 * state (read from the store at each scrape) and SLA breaches escalated by this process.
 */
export function installQueueHealthMetrics(metrics: Metrics, openCases: () => Promise<OpenCase[]>): { slaBreached(category: string): void } {
  const registers = [metrics.registry];
  const breaches = new Counter({ name: 'rm_sla_breaches_total', help: 'Cases escalated for waiting unclaimed past their SLA, by category', labelNames: ['category'], registers });
  new Gauge({
    name: 'rm_open_cases',
    help: 'Open (unclaimed) and claimed cases by priority band',
    labelNames: ['band', 'state'],
    registers,
    async collect() {
      let cases: OpenCase[];
      try {
        cases = await openCases();
      } catch {
        return; // the store is away: keep the last values rather than failing the whole scrape
      }
      const counts = new Map<string, { open: number; claimed: number }>();
      for (const c of cases) {
        const band = priorityBandOf(c);
        const n = counts.get(band) ?? { open: 0, claimed: 0 };
        n[c.state]++;
        counts.set(band, n);
      }
      this.reset();
      for (const [band, n] of counts) for (const state of ['open', 'claimed'] as const) this.set({ band, state }, n[state]);
    },
  });
  return { slaBreached: (category) => breaches.inc({ category }) };
}
