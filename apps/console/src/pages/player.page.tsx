import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import { hasEndpoint } from '../api/capabilities';
import { hrefOf } from '../components/router';
import { Avatar, SafeLink } from '../components/safe-link';
import { PlayerAppeals } from '../components/player-appeals';
import { Sanctions } from '../components/sanctions';
import { ErrorLine, time } from '../components/status';
import { usePoll } from '../components/use-poll';

const LIMIT = 20;

/** Every report about a player (the spec's list endpoint, paged), their sanctions and their appeals. */
export function PlayerPage({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await api.GET('/v1/reports/{id}', { params: { path: { id: userId }, query: { page, limit: LIMIT } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data;
    },
    3_000,
    `${userId}:${page}`,
  );
  const first = data?.reports[0];
  const player = useDirectoryPlayer(userId);
  // The directory's names now; else those the last report was stored with; else the id alone.
  const names = player ?? (first ? { displayName: first.displayname, name: first.username, avatar: first.avurl } : null);
  const pages = data ? Math.max(1, Math.ceil(data.count / data.limit)) : 1;
  return (
    <main>
      <header className="player">
        <Avatar src={names?.avatar ?? undefined} name={names?.displayName ?? userId} />
        <div>
          <h1>{names ? names.displayName : `Player ${userId}`}</h1>
          <p>
            {names && <span>{names.name} · </span>}id {userId}
            {first?.banned && <span className="badge badge-banned">Banned</span>}
          </p>
        </div>
      </header>
      <Sanctions userId={userId} />
      <PlayerAppeals userId={userId} />
      <section aria-labelledby="reports-title">
        <h2 id="reports-title">Reports about this player {data && <span className="count">({data.count})</span>}</h2>
        <ErrorLine message={error} />
        {data && data.reports.length === 0 && <p>No reports.</p>}
        {data && data.reports.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Reason</th>
                <th scope="col">Evidence</th>
                <th scope="col">Report</th>
              </tr>
            </thead>
            <tbody>
              {data.reports.map((r) => (
                <tr key={r.repid}>
                  <td>{time(r.reportTimeStamp)}</td>
                  <td className="text">{r.reason}</td>
                  <td>
                    <ul className="plain">
                      {r.evidence.map((url, i) => (
                        <li key={i}>
                          <SafeLink href={url} />
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <a href={hrefOf({ page: 'report', reportId: r.repid })}>Moderate</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <nav className="pager" aria-label="Pages">
          <button type="button" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1}>
            Previous page
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" onClick={() => setPage((p) => p + 1)} disabled={page >= pages}>
            Next page
          </button>
        </nav>
      </section>
    </main>
  );
}

const PLAYERS = '/v1/players/{userId}';

/** The player as the game platform's directory knows them (through the gateway's cache); null when it does not, or cannot say. */
function useDirectoryPlayer(userId: string): { name: string; displayName: string; avatar: string | null } | null {
  const { data } = usePoll(
    async () => {
      if (!hasEndpoint('get', PLAYERS)) return null;
      const { data } = await api.GET(PLAYERS, { params: { path: { userId } } });
      return data?.player ?? null;
    },
    30_000,
    userId,
  );
  return data ?? null;
}
