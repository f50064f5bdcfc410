import { hasEndpoint } from '../api/capabilities';
import { getOptional } from '../api/optional';
import { Unavailable, ErrorLine, time } from './status';
import { usePoll } from './use-poll';
import { errorMessage } from '../api/client';
import { StatementOfReasons, type Statement } from './statement';

const SANCTIONS = '/v1/sanctions/{userId}';

/** Where a sanction came from: a case (moderator), a rule, or which trusted system. */
function sourceOf(s: { source?: { type: string; id: string }; caseId?: string | null }): string {
  if (!s.source) return s.caseId ? 'case' : '-';
  if (s.source.type === 'case') return 'case';
  if (s.source.type === 'rule') return `rule ${s.source.id}`;
  return `${s.source.type} ${s.source.id}`;
}

/** A player's sanctions, newest first (GET /v1/sanctions/{userId}), refreshed every 3 s. */
export function Sanctions({ userId }: { userId: string }) {
  if (!hasEndpoint('get', SANCTIONS)) return <Unavailable what="Sanctions" endpoint={`GET ${SANCTIONS}`} />;
  return <SanctionList userId={userId} />;
}

function SanctionList({ userId }: { userId: string }) {
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await getOptional(SANCTIONS, { params: { path: { userId } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data;
    },
    3_000,
    userId,
  );
  return (
    <section aria-labelledby="sanctions-title">
      <h2 id="sanctions-title">Sanctions {data && (data.banned ? <span className="badge badge-banned">Banned</span> : <span className="badge">Not banned</span>)}</h2>
      <ErrorLine message={error} />
      {data && data.sanctions.length === 0 && <p>No sanctions.</p>}
      {data && data.sanctions.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Source</th>
              <th scope="col">State</th>
              <th scope="col">Set</th>
              <th scope="col">Expires</th>
              <th scope="col">By</th>
              <th scope="col">Reason</th>
              <th scope="col">Statement of reasons</th>
            </tr>
          </thead>
          <tbody>
            {data.sanctions.map((s: (typeof data.sanctions)[number]) => (
              <tr key={s.id} className={`sanction-${s.state}`}>
                <td>{s.kind}</td>
                <td>{sourceOf(s)}</td>
                <td>
                  {s.state}
                  {s.state === 'lifted' && 'liftReason' in s && s.liftReason ? <div className="lift-reason">Lifted: {s.liftReason}</div> : null}
                </td>
                <td>{time(s.createdAt)}</td>
                <td>{s.expiresAt === null ? 'Permanent' : time(s.expiresAt)}</td>
                <td>{s.moderator?.username ?? '-'}</td>
                <td>{s.reason ?? ''}</td>
                <td>
                  <StatementOfReasons statement={'statement' in s ? (s.statement as Statement | null) : null} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
