import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import { hasEndpoint } from '../api/capabilities';
import { hrefOf } from '../components/router';
import { ErrorLine, Unavailable, time } from '../components/status';
import { usePoll } from '../components/use-poll';

const APPEALS = '/v1/appeals';
const STATES = ['', 'open', 'claimed', 'upheld', 'overturned'] as const;

export function AppealsPage() {
  if (!hasEndpoint('get', APPEALS)) {
    return (
      <main>
        <Unavailable what="Appeals" endpoint={`GET ${APPEALS}`} />
      </main>
    );
  }
  return <AppealsQueue />;
}

/** The appeals queue, oldest first (open and claimed by default), refreshed every 3 s, a page at a time. */
function AppealsQueue() {
  const [state, setState] = useState('');
  const [category, setCategory] = useState('');
  // The cursors of the pages seen so far: the first page has none.
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const query = {
    limit: 25,
    ...(state && { state: state as Exclude<(typeof STATES)[number], ''> }),
    ...(category.trim() && { category: category.trim() }),
    ...(after && { after }),
  };
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await api.GET(APPEALS, { params: { query } });
      if (!data) throw new Error(errorMessage(error, response));
      return data;
    },
    3_000,
    JSON.stringify(query),
  );
  const appeals = data?.appeals ?? [];
  return (
    <main>
      <h1>Appeals</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="appeal-state">State</label>
        <select
          id="appeal-state"
          value={state}
          onChange={(e) => {
            setState(e.target.value);
            setCursors([]);
          }}
        >
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s || 'waiting (open and claimed)'}
            </option>
          ))}
        </select>
        <label htmlFor="appeal-category">Category</label>
        <input
          id="appeal-category"
          value={category}
          onChange={(e) => {
            setCategory(e.target.value);
            setCursors([]);
          }}
        />
      </form>
      <ErrorLine message={error} />
      {data && appeals.length === 0 && <p>No appeals.</p>}
      {appeals.length > 0 && (
        <table className="appeals">
          <thead>
            <tr>
              <th scope="col">Submitted</th>
              <th scope="col">Player</th>
              <th scope="col">Category</th>
              <th scope="col">State</th>
              <th scope="col">Claimed by</th>
              <th scope="col">Due</th>
              <th scope="col">Statement</th>
            </tr>
          </thead>
          <tbody>
            {appeals.map((a) => (
              <tr key={a.id}>
                <td>{time(a.createdAt)}</td>
                <td>
                  <a href={hrefOf({ page: 'player', userId: a.userId })}>{a.userId}</a>
                </td>
                <td>{a.category ?? '-'}</td>
                <td>
                  <a href={hrefOf({ page: 'appeal', appealId: a.id })}>{a.state}</a>
                  {a.automated && <span className="badge">Automated sanction</span>}
                  {a.slaBreached && <span className="badge badge-sla_breached">SLA breached</span>}
                </td>
                <td>{a.claimedBy?.username ?? '-'}</td>
                <td>{time(a.dueAt)}</td>
                <td className="text">{a.statement.length > 120 ? `${a.statement.slice(0, 120)}…` : a.statement}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Pages">
        <button type="button" onClick={() => setCursors((c) => c.slice(0, -1))} disabled={cursors.length === 0}>
          First page
        </button>
        <button type="button" onClick={() => data?.next && setCursors((c) => [...c, data.next!])} disabled={!data?.next}>
          Next page
        </button>
      </nav>
    </main>
  );
}
