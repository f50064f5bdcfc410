import { api, errorMessage } from '../api/client';
import { hasEndpoint } from '../api/capabilities';
import { hrefOf } from './router';
import { ErrorLine, time } from './status';
import { usePoll } from './use-poll';

const APPEALS = '/v1/appeals';

/** A player's appeals, every state, oldest first (GET /v1/appeals?userId=), refreshed every 3 s. */
export function PlayerAppeals({ userId }: { userId: string }) {
  if (!hasEndpoint('get', APPEALS)) return null;
  return <AppealList userId={userId} />;
}

function AppealList({ userId }: { userId: string }) {
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await api.GET(APPEALS, { params: { query: { userId, limit: 100 } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data;
    },
    3_000,
    userId,
  );
  return (
    <section aria-labelledby="appeals-title">
      <h2 id="appeals-title">Appeals</h2>
      <ErrorLine message={error} />
      {data && data.appeals.length === 0 && <p>No appeals.</p>}
      {data && data.appeals.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Submitted</th>
              <th scope="col">Sanction</th>
              <th scope="col">State</th>
              <th scope="col">Decided by</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {data.appeals.map((a) => (
              <tr key={a.id}>
                <td>
                  <a href={hrefOf({ page: 'appeal', appealId: a.id })}>{time(a.createdAt)}</a>
                </td>
                <td>{a.sanctionId}</td>
                <td>{a.state}</td>
                <td>{a.decidedBy?.username ?? '-'}</td>
                <td className="text">{a.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
