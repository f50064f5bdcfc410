import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import { hasEndpoint } from '../api/capabilities';
import { go, hrefOf } from '../components/router';
import { ShortcutList, useShortcuts, type Shortcut } from '../components/shortcuts';
import { Badge, ErrorLine, Unavailable, flagLabel, time } from '../components/status';
import { usePoll } from '../components/use-poll';

const CASES = '/v1/cases';
const STATES = ['', 'open', 'claimed', 'approved', 'dismissed'] as const;
const FLAGS = ['', 'suspected_brigade', 'escalated', 'sla_breached'] as const;

export function QueuePage() {
  if (!hasEndpoint('get', CASES)) {
    return (
      <main>
        <Unavailable what="Queue" endpoint={`GET ${CASES}`} />
      </main>
    );
  }
  return <Queue />;
}

/** Cases by priority, refreshed every 2 s so new cases and claims show without a reload. */
function Queue() {
  const [state, setState] = useState('');
  const [category, setCategory] = useState('');
  const [flag, setFlag] = useState('');
  const [selected, setSelected] = useState(0);
  const query = {
    sort: 'priority' as const,
    limit: 50,
    ...(state && { state: state as Exclude<(typeof STATES)[number], ''> }),
    ...(category.trim() && { category: category.trim() }),
    ...(flag && { flag: flag as Exclude<(typeof FLAGS)[number], ''> }),
  };
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await api.GET(CASES, { params: { query } });
      if (!data) throw new Error(errorMessage(error, response));
      return data;
    },
    2_000,
    JSON.stringify(query),
  );
  const cases = data?.cases ?? [];
  const open = (i: number) => {
    const c = cases[i];
    if (c) go({ page: 'case', caseId: c.caseId });
  };
  const shortcuts: Shortcut[] = [
    { key: 'j', label: 'Next case', run: () => setSelected((i) => Math.min(i + 1, Math.max(0, cases.length - 1))) },
    { key: 'k', label: 'Previous case', run: () => setSelected((i) => Math.max(0, i - 1)) },
    { key: 'Enter', label: 'Open the selected case', run: () => open(selected) },
    { key: 's', label: 'Stats', run: () => go({ page: 'stats' }) },
  ];
  useShortcuts(shortcuts);

  return (
    <main>
      <h1>Queue</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label htmlFor="filter-state">State</label>
        <select id="filter-state" value={state} onChange={(e) => setState(e.target.value)}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s || 'Waiting (open or claimed)'}
            </option>
          ))}
        </select>
        <label htmlFor="filter-category">Category</label>
        <input id="filter-category" value={category} onChange={(e) => setCategory(e.target.value)} />
        <label htmlFor="filter-flag">Flag</label>
        <select id="filter-flag" value={flag} onChange={(e) => setFlag(e.target.value)}>
          {FLAGS.map((f) => (
            <option key={f} value={f}>
              {f ? flagLabel(f) : 'Any'}
            </option>
          ))}
        </select>
      </form>
      <ErrorLine message={error} />
      {data && (
        <p className="count" aria-live="polite">
          {data.count} case{data.count === 1 ? '' : 's'}
        </p>
      )}
      <table className="queue">
        <thead>
          <tr>
            <th scope="col">Priority</th>
            <th scope="col">Player</th>
            <th scope="col">State</th>
            <th scope="col">Claimed by</th>
            <th scope="col">Reports</th>
            <th scope="col">Categories</th>
            <th scope="col">Flags</th>
            <th scope="col">Last report</th>
          </tr>
        </thead>
        <tbody>
          {cases.map((c: (typeof cases)[number], i: number) => (
            <tr key={c.caseId} className={i === selected ? 'selected' : undefined} aria-selected={i === selected}>
              <td>{Math.round(c.priority * 10) / 10}</td>
              <td>
                <PlayerCell userId={c.userId} player={c.player} caseId={c.caseId} />
              </td>
              <td>{c.state}</td>
              <td>{c.claimedBy ? c.claimedBy.username : '-'}</td>
              <td>
                {c.reportCount} from {c.distinctReporters}
              </td>
              <td>{c.categories.join(', ')}</td>
              <td>
                {c.flags.map((f: string) => (
                  <Badge key={f} flag={f} />
                ))}
              </td>
              <td>{time(c.lastReportAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && cases.length === 0 && <p>No cases match.</p>}
      <ShortcutList shortcuts={shortcuts} />
    </main>
  );
}

/**
 * The player as moderators know them: display name (the link), then name and id; the id alone
 * when the directory has no such player.
 */
function PlayerCell({ userId, player, caseId }: { userId: string; player: { name: string; displayName: string } | null | undefined; caseId: string }) {
  const href = hrefOf({ page: 'case', caseId });
  if (!player) return <a href={href}>Player {userId}</a>;
  return (
    <>
      <a href={href}>{player.displayName}</a>
      <span className="player-id">
        {player.name} · {userId}
      </span>
    </>
  );
}
