import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import { hasEndpoint } from '../api/capabilities';
import type { Me } from '../api/me';
import { KeptEvidence, type EvidenceItem } from '../components/kept-evidence';
import { hrefOf } from '../components/router';
import { SafeLink } from '../components/safe-link';
import { StatementOfReasons, type Statement } from '../components/statement';
import { ErrorLine, Unavailable, time } from '../components/status';
import { usePoll } from '../components/use-poll';

const APPEAL = '/v1/appeals/{appealId}';
const CASE = '/v1/cases/{caseId}';

export function AppealPage({ appealId, me }: { appealId: string; me: Me }) {
  if (!hasEndpoint('get', APPEAL)) {
    return (
      <main>
        <Unavailable what="Appeal" endpoint={`GET ${APPEAL}`} />
      </main>
    );
  }
  return <AppealView appealId={appealId} me={me} />;
}

/** One appeal, refreshed every 2 s: the player's statement, the sanction, the original case with its reports and evidence, and the decision. */
function AppealView({ appealId, me }: { appealId: string; me: Me }) {
  const polled = usePoll(
    async () => {
      const { data, error, response } = await api.GET(APPEAL, { params: { path: { appealId } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data.appeal;
    },
    2_000,
    appealId,
  );
  const a = polled.data;
  return (
    <main className="appeal">
      <ErrorLine message={polled.error} />
      {!a && !polled.error && <p className="loading">Loading…</p>}
      {a && (
        <>
          <header>
            <h1>Appeal of player {a.userId}</h1>
            <p>
              State <strong className={`state state-${a.state}`}>{a.state}</strong>
              {a.claimedBy ? (
                <span className="claim">
                  {' '}
                  · Claimed by <strong>{a.claimedBy.username}</strong>
                </span>
              ) : (
                <span className="claim"> · Unclaimed</span>
              )}{' '}
              · Submitted {time(a.createdAt)} · Due {time(a.dueAt)}
              {a.slaBreached && <span className="badge badge-sla_breached">SLA breached</span>}
            </p>
          </header>
          <div className="columns">
            <div>
              <section aria-labelledby="statement-title">
                <h2 id="statement-title">The player's statement</h2>
                <blockquote className="text player-statement">{a.statement}</blockquote>
              </section>
              <section aria-labelledby="sanction-title">
                <h2 id="sanction-title">The sanction</h2>
                {a.sanction ? (
                  <dl className="answers">
                    <div>
                      <dt>Kind</dt>
                      <dd>{a.sanction.kind}</dd>
                    </div>
                    <div>
                      <dt>State</dt>
                      <dd>{a.sanction.state}</dd>
                    </div>
                    {a.sanction.liftReason !== undefined && (
                      <div>
                        <dt>Lifted because</dt>
                        <dd className="text">{a.sanction.liftReason}</dd>
                      </div>
                    )}
                    <div>
                      <dt>Decided by</dt>
                      <dd>
                        {a.sanctionModerator.username}
                        {a.automated && ' (automatic)'}
                      </dd>
                    </div>
                    <div>
                      <dt>Set</dt>
                      <dd>{time(a.sanction.createdAt)}</dd>
                    </div>
                    <div>
                      <dt>Ends</dt>
                      <dd>{a.sanction.expiresAt === null ? 'Permanent' : time(a.sanction.expiresAt)}</dd>
                    </div>
                    <div>
                      <dt>Reason</dt>
                      <dd className="text">{a.sanction.reason ?? '-'}</dd>
                    </div>
                    <div>
                      <dt>Statement of reasons</dt>
                      <dd>
                        <StatementOfReasons statement={'statement' in a.sanction ? (a.sanction.statement as Statement | null) : null} />
                      </dd>
                    </div>
                  </dl>
                ) : (
                  <p>The sanction cannot be read.</p>
                )}
              </section>
              {a.caseId ? <OriginalCase caseId={a.caseId} /> : <p>This sanction came from a trusted system, not from a case of reports.</p>}
              <section aria-labelledby="appeal-history-title">
                <h2 id="appeal-history-title">Appeal history</h2>
                <ol className="history">
                  {a.history.map((h) => (
                    <li key={h.decisionId}>
                      {time(h.at)}: <strong>{h.action}</strong>
                      {h.moderator ? ` by ${h.moderator.username}` : ' by the game'} ({h.fromState ?? '-'} → {h.toState}){h.reason ? `: ${h.reason}` : ''}
                    </li>
                  ))}
                </ol>
              </section>
            </div>
            <AppealActions appealId={a.id} decided={a.state === 'upheld' || a.state === 'overturned'} me={me} onDone={polled.refresh} />
          </div>
        </>
      )}
    </main>
  );
}

/** The case whose approval created the sanction: its reports, their answers and evidence, its decisions. */
function OriginalCase({ caseId }: { caseId: string }) {
  const { data, error } = usePoll(
    async () => {
      const { data, error, response } = await api.GET(CASE, { params: { path: { caseId } } });
      if (!data) throw new Error(errorMessage(error, response));
      return data.case;
    },
    10_000,
    caseId,
  );
  return (
    <section aria-labelledby="case-title">
      <h2 id="case-title">
        The original case (<a href={hrefOf({ page: 'case', caseId })}>open it</a>)
      </h2>
      <ErrorLine message={error} />
      {data && (
        <>
          <ol className="reports">
            {data.reports.map((r) => (
              <li key={r.id} className="report">
                <p className="meta">
                  {time(r.receivedAt)} · {r.category} · reporter <strong>{r.reporter.id}</strong> ({r.reporter.platform})
                </p>
                <dl className="answers">
                  {r.answers.map((x, i) => (
                    <div key={i}>
                      <dt>{x.questionId}</dt>
                      <dd className="text">{x.answer}</dd>
                    </div>
                  ))}
                </dl>
                <ul className="plain evidence">
                  {r.evidence.map((e, i) => {
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
          <ol className="history">
            {data.decisions.map((h) => (
              <li key={h.decisionId}>
                {time(h.at)}: <strong>{h.action}</strong> by {h.moderator.username}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

type Outcome = { ok: boolean; message: string };

/** Claim, Unclaim, Uphold and Overturn as the signed-in moderator; the API's own words are shown (refusals included). */
function AppealActions({ appealId, decided, me, onDone }: { appealId: string; decided: boolean; me: Me; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  if (!me.moderator) return <aside className="actions">This key is not bound to a moderator: it cannot decide appeals.</aside>;
  const moderator = { id: me.moderator.id };
  const path = { path: { appealId } };
  const run = async (label: string, call: () => Promise<{ data?: { appeal: { state: string } }; error?: unknown; response: Response }>) => {
    setBusy(true);
    try {
      const { data, error, response } = await call();
      setOutcome(data ? { ok: true, message: `${label}: the appeal is ${data.appeal.state}` } : { ok: false, message: errorMessage(error, response) });
      if (data) onDone();
    } catch {
      setOutcome({ ok: false, message: 'The server could not be reached' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <aside className="actions" aria-label="Decide the appeal">
      <h2>Decide</h2>
      <div className="buttons">
        <button type="button" disabled={busy || decided} onClick={() => run('Claimed', () => api.POST('/v1/appeals/{appealId}/claim', { params: path, body: { moderator } }))}>
          Claim appeal
        </button>
        <button type="button" disabled={busy || decided} onClick={() => run('Unclaimed', () => api.POST('/v1/appeals/{appealId}/unclaim', { params: path, body: { moderator } }))}>
          Unclaim appeal
        </button>
      </div>
      <label htmlFor="appeal-reason">Reason (sent to the player)</label>
      <textarea id="appeal-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      <div className="buttons">
        <button type="button" disabled={busy || decided} onClick={() => run('Upheld', () => api.POST('/v1/appeals/{appealId}/uphold', { params: path, body: { moderator, reason } }))}>
          Uphold sanction
        </button>
        <button type="button" disabled={busy || decided} onClick={() => run('Overturned', () => api.POST('/v1/appeals/{appealId}/overturn', { params: path, body: { moderator, reason } }))}>
          Overturn sanction
        </button>
      </div>
      {outcome && (
        <p className={outcome.ok ? 'ok' : 'error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.message}
        </p>
      )}
    </aside>
  );
}
