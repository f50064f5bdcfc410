import { useEffect, useState } from 'react';
import { errorMessage } from '../api/client';
import { hasEndpoint } from '../api/capabilities';
import { getOptional } from '../api/optional';
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

export function StatsPage() {
  if (!hasEndpoint('get', STATS)) return <Unavailable what="Stats" endpoint={`GET ${STATS}`} />;
  return <Stats />;
}

type Numbers = Record<string, number>;

/** Every number of the answer, named by its path (`decisions.approve`), lists excepted. */
function numbersOf(value: unknown, prefix = '', out: Numbers = {}): Numbers {
  if (typeof value === 'number') out[prefix] = value;
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) if (k !== 'success') numbersOf(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

/** Lists of rows (per moderator, per category): one bar chart per numeric column, labelled by the row's name. */
function breakdowns(value: unknown, prefix = ''): { title: string; bars: { label: string; value: number }[] }[] {
  if (!value || typeof value !== 'object') return [];
  if (Array.isArray(value)) {
    const rows = value.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object');
    const label = (r: Record<string, unknown>) => {
      const named = r['username'] ?? (r['moderator'] as { username?: unknown } | undefined)?.username ?? r['category'] ?? r['name'] ?? r['id'] ?? r['moderatorId'];
      return typeof named === 'string' ? named : '?';
    };
    const columns = [...new Set(rows.flatMap((r) => Object.entries(numbersOf(r)).map(([k]) => k)))];
    return columns.map((col) => ({ title: `${prefix}: ${col}`, bars: rows.map((r) => ({ label: label(r), value: numbersOf(r)[col] ?? 0 })) }));
  }
  return Object.entries(value).flatMap(([k, v]) => breakdowns(v, prefix ? `${prefix}.${k}` : k));
}

/** Queue health: the figures of GET /v1/stats, charted over the time this page has been open. */
function Stats() {
  const [window, setWindow] = useState<string>('P7D');
  const [samples, setSamples] = useState<{ at: number; numbers: Numbers }[]>([]);
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await getOptional(STATS, { params: { query: { window } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data as unknown;
    },
    5_000,
    window,
  );
  useEffect(() => setSamples([]), [window]);
  useEffect(() => {
    if (data !== undefined) setSamples((s) => [...s.slice(-(MAX_SAMPLES - 1)), { at: Date.now(), numbers: numbersOf(data) }]);
  }, [data]);
  const names = Object.keys(samples[samples.length - 1]?.numbers ?? {}).filter((n) => n !== 'window');
  return (
    <main className="stats">
      <h1>Queue health</h1>
      <label htmlFor="stats-window">Window</label>
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
        {names.map((name) => (
          <LineChart key={name} title={name} points={samples.map((s) => ({ at: s.at, value: s.numbers[name] ?? 0 }))} />
        ))}
      </section>
      <section className="charts" aria-label="Breakdowns">
        {breakdowns(data).map((b) => (
          <BarChart key={b.title} title={b.title} bars={b.bars} />
        ))}
      </section>
    </main>
  );
}
