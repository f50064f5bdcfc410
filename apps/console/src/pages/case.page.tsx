import { errorMessage } from '../api/client';
import { hasEndpoint } from '../api/capabilities';
import type { Me } from '../api/me';
import { CaseActions } from '../components/case-actions';
import { KeptEvidence, type EvidenceItem } from '../components/kept-evidence';
import { hrefOf } from '../components/router';
import { Avatar, SafeLink } from '../components/safe-link';
import { Sanctions } from '../components/sanctions';
import { Badge, ErrorLine, Unavailable, time } from '../components/status';
import { usePoll } from '../components/use-poll';
import { api } from '../api/client';

const CASE = '/v1/cases/{caseId}';

export function CasePage({ caseId, me }: { caseId: string; me: Me }) {
  if (!hasEndpoint('get', CASE)) {
    return (
      <main>
        <Unavailable what="Case" endpoint={`GET ${CASE}`} />
      </main>
    );
  }
  return <CaseView caseId={caseId} me={me} />;
}

/** One case, refreshed every 2 s: its player, every report, its decision history and the actions. */
function CaseView({ caseId, me }: { caseId: string; me: Me }) {
  const polled = usePoll(
    async () => {
      const { data, error, response } = await api.GET(CASE, { params: { path: { caseId } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data;
    },
    2_000,
    caseId,
  );
  const c = polled.data?.case;
  return (
    <main className="case">
      <ErrorLine message={polled.error} />
      {!c && !polled.error && <p className="loading">Loading…</p>}
      {c && (
        <>
          <header>
            <h1>Case of player {c.userId}</h1>
            <p>
              State <strong className={`state state-${c.state}`}>{c.state}</strong>
              {c.claimedBy ? (
                <span className="claim">
                  {' '}
                  · Claimed by <strong>{c.claimedBy.username}</strong>
                </span>
              ) : (
                <span className="claim"> · Unclaimed</span>
              )}
              {' '}· Priority {Math.round(c.priority * 10) / 10}
              {c.flags.map((f: string) => (
                <Badge key={f} flag={f} />
              ))}
            </p>
          </header>
          <Player userId={c.userId} />
          <div className="columns">
            <div>
              <section aria-labelledby="reports-title">
                <h2 id="reports-title">Reports ({c.reports.length})</h2>
                <ol className="reports">
                  {c.reports.map((r: (typeof c.reports)[number]) => (
                    <li key={r.id} className="report">
                      <p className="meta">
                        {time(r.receivedAt)} · {r.category} · reporter <strong>{r.reporter.id}</strong> ({r.reporter.platform}) · credibility{' '}
                        {r.reporter.credibility.toFixed(2)} ({r.reporter.approved} approved, {r.reporter.dismissed} dismissed)
                      </p>
                      <dl className="answers">
                        {r.answers.map((a: { questionId: string; answer: string }, i: number) => (
                          <div key={i}>
                            <dt>{a.questionId}</dt>
                            <dd className="text">{a.answer}</dd>
                          </div>
                        ))}
                      </dl>
                      <ul className="plain evidence">
                        {r.evidence.map((e: { url: string; type: string }, i: number) => {
                          const kept = ((r as { evidenceItems?: EvidenceItem[] }).evidenceItems ?? []).find((k) => k.index === i);
                          return (
                            <li key={i}>
                              Evidence ({e.type}): {e.type === 's3Upload' && kept ? <span>an upload</span> : <SafeLink href={e.url} />}
                              {kept && <KeptEvidence item={kept} />}
                            </li>
                          );
                        })}
                      </ul>
                    </li>
                  ))}
                </ol>
              </section>
              <section aria-labelledby="history-title">
                <h2 id="history-title">Decision history</h2>
                {c.decisions.length === 0 ? (
                  <p>No decisions yet.</p>
                ) : (
                  <ol className="history">
                    {c.decisions.map((h: (typeof c.decisions)[number]) => (
                      <li key={h.decisionId}>
                        {time(h.at)}: <strong>{h.action}</strong> by {h.moderator.username} ({h.fromState} → {h.toState})
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              {hasEndpoint('get', '/v1/sanctions/{userId}') ? (
                <Sanctions userId={c.userId} />
              ) : (
                <section aria-labelledby="sanctions-title">
                  <h2 id="sanctions-title">Sanctions</h2>
                  {c.sanctions.length === 0 ? <p>No sanctions.</p> : c.sanctions.map((s: (typeof c.sanctions)[number], i: number) => <p key={i}>{`${s.kind}: ${s.state}`}</p>)}
                </section>
              )}
            </div>
            {c.reports[0] && <CaseActions reportId={c.reports[0].id} me={me} onDone={polled.refresh} proposal={'proposedSanction' in c ? c.proposedSanction : undefined} />}
          </div>
        </>
      )}
    </main>
  );
}

/** Name and avatar from the directory data stored with the player's newest report. */
function Player({ userId }: { userId: string }) {
  const { data } = usePoll(
    async () => (await api.GET('/v1/reports/{id}', { params: { path: { id: userId }, query: { page: 1, limit: 1 } } })).data,
    30_000,
    userId,
  );
  const r = data?.reports[0];
  return (
    <section className="player" aria-label="Player">
      <Avatar src={r?.avurl} name={r?.displayname ?? userId} />
      <div>
        <p className="name">{r ? r.displayname : userId}</p>
        <p>
          {r && <span>{r.username} · </span>}
          <a href={hrefOf({ page: 'player', userId })}>All reports and sanctions</a>
        </p>
      </div>
    </section>
  );
}
