import { useEffect, useState } from 'react';
import { api, errorMessage } from '../api/client';
import { hasEndpoint, type OkOf } from '../api/capabilities';
import { BarChart, LineChart } from '../components/charts';
import { ErrorLine, Unavailable } from '../components/status';
import { usePoll } from '../components/use-poll';

const STATS = '/v1/stats';
const WINDOWS = [
  { value: 'PT1H', label: 'Last hour' },
  { value: 'P1D', label: 'Last day' },
  { value: 'P7D', label: 'Last 7 days' },
  { value: 'P30D', label: 'Last 30 days' },
] as const;
/** Samples kept while the page is open: 10 minutes at one every 5 s. */
const MAX_SAMPLES = 120;

type Stats = OkOf<typeof STATS>;
const minutes = (ms: number | null) => (ms === null ? 0 : Math.round((ms / 60_000) * 10) / 10);
const percent = (rate: number | null) => (rate === null ? 0 : Math.round(rate * 1000) / 10);

/** The figures charted over time, from each answer. */
const SERIES: { title: string; of: (s: Stats) => number }[] = [
  { title: 'Open cases', of: (s) => s.open },
  { title: 'Claimed cases', of: (s) => s.claimed },
  { title: 'Median time to claim (min)', of: (s) => minutes(s.medianTimeToClaimMs) },
  { title: 'Median time to decision (min)', of: (s) => minutes(s.medianTimeToDecisionMs) },
  { title: 'Overturn rate (%)', of: (s) => percent(s.overturnRate) },
  { title: 'Appeals overturned (%)', of: (s) => percent(s.appeals?.overturnRate ?? null) },
  { title: 'SLA breaches', of: (s) => s.slaBreaches },
  { title: 'Oldest open case (min)', of: (s) => minutes(s.oldestOpenAgeMs) },
  { title: 'Reports received', of: (s) => s.reportsReceived },
];

export function StatsPage() {
  if (!hasEndpoint('get', STATS)) {
    return (
      <main>
        <Unavailable what="Stats" endpoint={`GET ${STATS}`} />
      </main>
    );
  }
  return <StatsView />;
}

/** Queue health (GET /v1/stats), refreshed every 5 s and charted over the time the page is open. */
function StatsView() {
  const [window, setWindow] = useState<string>('P7D');
  const [samples, setSamples] = useState<{ at: number; stats: Stats }[]>([]);
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await api.GET(STATS, { params: { query: { window } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data;
    },
    5_000,
    window,
  );
  useEffect(() => setSamples([]), [window]);
  useEffect(() => {
    if (data) setSamples((s) => [...s.slice(-(MAX_SAMPLES - 1)), { at: Date.now(), stats: data }]);
  }, [data]);
  const decided = (d: Stats['decisions']) => d.approve + d.dismiss;
  return (
    <main className="stats">
      <h1>Queue health</h1>
      <label htmlFor="stats-window">Window</label>{' '}
      <select id="stats-window" value={window} onChange={(e) => setWindow(e.target.value)}>
        {WINDOWS.map((w) => (
          <option key={w.value} value={w.value}>
            {w.label}
          </option>
        ))}
      </select>
      <ErrorLine message={error} />
      <p className="hint">Refreshed every 5 s; the lines show the figures since this page was opened.</p>
      <section className="charts" aria-label="Figures over time">
        {SERIES.map((series) => (
          <LineChart key={series.title} title={series.title} points={samples.map((s) => ({ at: s.at, value: series.of(s.stats) }))} />
        ))}
      </section>
      {data && (
        <section className="charts" aria-label="Breakdowns">
          <BarChart title="Decisions by kind" bars={Object.entries(data.decisions).map(([label, value]) => ({ label, value }))} />
          <BarChart title="Approvals and dismissals per moderator" bars={data.byModerator.map((m) => ({ label: m.moderatorId, value: decided(m.decisions) }))} />
          <BarChart title="Overturn rate per moderator (%)" bars={data.byModerator.map((m) => ({ label: m.moderatorId, value: percent(m.overturnRate) }))} />
          {data.appeals && (
            <>
              <BarChart title="Appeals" bars={[{ label: 'received', value: data.appeals.received }, { label: 'upheld', value: data.appeals.upheld }, { label: 'overturned', value: data.appeals.overturned }]} />
              <BarChart title="Appeals overturned per moderator (%)" bars={data.byModerator.map((m) => ({ label: m.moderatorId, value: percent(m.appeals.overturnRate) }))} />
              <BarChart title="Appeals overturned per category (%)" bars={data.byCategory.map((c) => ({ label: c.category, value: percent(c.appeals.overturnRate) }))} />
            </>
          )}
          <BarChart title="Open cases per category" bars={data.byCategory.map((c) => ({ label: c.category, value: c.open }))} />
          <BarChart title="SLA breaches per category" bars={data.byCategory.map((c) => ({ label: c.category, value: c.slaBreaches }))} />
        </section>
      )}
    </main>
  );
}
