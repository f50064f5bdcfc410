import { useEffect, useState } from 'react';
import { acceptsField } from '../api/capabilities';
import { api, errorMessage } from '../api/client';
import type { Me } from '../api/me';
import { ShortcutList, useShortcuts, type Shortcut } from './shortcuts';

const DURATIONS = [
  { value: 'PT1H', label: '1 hour' },
  { value: 'P1D', label: '1 day' },
  { value: 'P7D', label: '7 days' },
  { value: 'P30D', label: '30 days' },
  { value: '', label: 'Permanent' },
] as const;

/** The built-in kinds; the policy may have more, and the ladder's proposal is always offered. */
const KINDS = ['warning', 'chat', 'matchmaking', 'ranked', 'ban'] as const;

/** The ladder's next step for the case (GET /v1/cases/{caseId} `proposedSanction`). */
export interface Proposal {
  kind: string;
  label: string;
  duration: string | null;
  offences: number;
  step: number | null;
  category: string;
}

type Outcome = { ok: true; message: string } | { ok: false; message: string };

/**
 * Claim, Unclaim, Approve, Dismiss and Undo on the case of `reportId`, as the moderator the
 * signed-in key is bound to. Nothing is decided here: the API answers, and its own words are shown
 * (a refusal such as "claimed by alice" included).
 */
export function CaseActions({ reportId, me, onDone, proposal }: { reportId: string; me: Me; onDone: () => void; proposal?: Proposal | undefined }) {
  const [duration, setDuration] = useState(proposal ? (proposal.duration ?? '') : 'P7D');
  const [kind, setKind] = useState(proposal?.kind ?? 'ban');
  // The ladder's proposal is offered first; once the moderator edits kind or duration, polling
  // no longer resets them.
  const [edited, setEdited] = useState(false);
  const proposedKey = proposal ? `${proposal.kind}|${proposal.duration ?? ''}` : '';
  useEffect(() => {
    if (!proposal || edited) return;
    setKind(proposal.kind);
    setDuration(proposal.duration ?? '');
  }, [proposedKey, edited]);
  const [approveReason, setApproveReason] = useState('');
  // Empty: the ground is the category's clause; a law named marks the content illegal under it.
  const [illegalLaw, setIllegalLaw] = useState('');
  const [dismissReason, setDismissReason] = useState('');
  const [tellReporters, setTellReporters] = useState(true);
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const moderator = me.moderator ? { id: me.moderator.id } : null;
  const path = { params: { path: { id: reportId } } };
  const withDurations = acceptsField('post', '/v1/reports/{id}/approve', 'duration');
  const withApproveReason = acceptsField('post', '/v1/reports/{id}/approve', 'reason');
  const withKinds = acceptsField('post', '/v1/reports/{id}/approve', 'kind');
  const withIllegal = acceptsField('post', '/v1/reports/{id}/approve', 'illegalContent');
  const durations = proposal?.duration && !DURATIONS.some((d) => d.value === proposal.duration) ? [{ value: proposal.duration, label: proposal.duration }, ...DURATIONS] : DURATIONS;
  const kinds = proposal && !(KINDS as readonly string[]).includes(proposal.kind) ? [proposal.kind, ...KINDS] : KINDS;

  const act = async (call: () => Promise<{ data?: { data: { message: string } }; error?: unknown; response: Response }>) => {
    if (busy) return;
    setBusy(true);
    try {
      const { data, error, response } = await call();
      setOutcome(data ? { ok: true, message: data.data.message } : { ok: false, message: errorMessage(error, response) });
    } catch {
      setOutcome({ ok: false, message: 'The server could not be reached' });
    } finally {
      setBusy(false);
      onDone();
    }
  };

  const claim = () => moderator && act(() => api.POST('/v1/reports/{id}/claim', { ...path, body: { moderator } }));
  const unclaim = () => moderator && act(() => api.POST('/v1/reports/{id}/unclaim', { ...path, body: { moderator } }));
  const approve = () => {
    if (!moderator) return;
    const extra: { duration?: string; reason?: string; kind?: string; illegalContent?: { law: string } } = {};
    // The proposal unchanged: nothing named, so the ladder decides (and the audit says so).
    const asProposed = proposal !== undefined && withKinds && kind === proposal.kind && duration === (proposal.duration ?? '');
    if (!asProposed) {
      if (withKinds && proposal) extra.kind = kind;
      if (withDurations && duration) extra.duration = duration;
    }
    if (withApproveReason && approveReason.trim()) extra.reason = approveReason.trim();
    if (withIllegal && illegalLaw.trim()) extra.illegalContent = { law: illegalLaw.trim() };
    return act(() => api.POST('/v1/reports/{id}/approve', { ...path, body: { moderator, ...extra } }));
  };
  const dismiss = () => {
    if (!moderator) return;
    const reason = dismissReason.trim();
    return act(() => api.POST('/v1/reports/{id}/dismiss', { ...path, body: { moderator, dm: tellReporters, ...(reason && { reason }) } }));
  };
  const undo = () => moderator && act(() => api.POST('/v1/reports/{id}/undo', { ...path, body: { moderator } }));

  const enabled = moderator !== null && !busy;
  const shortcuts: Shortcut[] = [
    { key: 'c', label: 'Claim', run: () => void claim(), enabled },
    { key: 'u', label: 'Unclaim', run: () => void unclaim(), enabled },
    { key: 'a', label: 'Approve', run: () => void approve(), enabled },
    { key: 'd', label: 'Dismiss', run: () => void dismiss(), enabled },
    { key: 'z', label: 'Undo', run: () => void undo(), enabled },
  ];
  useShortcuts(shortcuts);

  return (
    <section className="actions" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      {!moderator && <p className="warn">Your key is not bound to a moderator, so it cannot act.</p>}
      <div className="action-row">
        <button type="button" onClick={() => void claim()} disabled={!enabled} aria-keyshortcuts="c">
          Claim
        </button>
        <button type="button" onClick={() => void unclaim()} disabled={!enabled} aria-keyshortcuts="u">
          Unclaim
        </button>
        <button type="button" onClick={() => void undo()} disabled={!enabled} aria-keyshortcuts="z">
          Undo
        </button>
      </div>
      <fieldset>
        <legend>Approve (sanction the player)</legend>
        {proposal && withKinds && (
          <p className="hint" data-testid="ladder-proposal">
            The ladder proposes: <strong>{proposal.label}</strong>
            {proposal.duration ? ` for ${proposal.duration}` : ', permanent'} ({proposal.category}
            {proposal.step !== null ? `, step ${proposal.step}` : ''}, {proposal.offences} earlier offence{proposal.offences === 1 ? '' : 's'})
          </p>
        )}
        {proposal && withKinds && (
          <>
            <label htmlFor="approve-kind">Kind</label>
            <select
              id="approve-kind"
              value={kind}
              onChange={(e) => {
                setEdited(true);
                setKind(e.target.value);
              }}
            >
              {kinds.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </>
        )}
        {withDurations ? (
          <>
            <label htmlFor="approve-duration">Duration</label>
            <select
              id="approve-duration"
              value={duration}
              onChange={(e) => {
                setEdited(true);
                setDuration(e.target.value);
              }}
            >
              {durations.map((d) => (
                <option key={d.label} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </>
        ) : (
          <p className="hint">This server bans without a duration (permanent until undone).</p>
        )}
        {withApproveReason && (
          <>
            <label htmlFor="approve-reason">Ban reason</label>
            <input id="approve-reason" value={approveReason} onChange={(e) => setApproveReason(e.target.value)} maxLength={500} />
          </>
        )}
        {withIllegal && (
          <>
            <label htmlFor="approve-law">Illegal content under (law, optional)</label>
            <input id="approve-law" value={illegalLaw} onChange={(e) => setIllegalLaw(e.target.value)} maxLength={500} placeholder="empty: a breach of the terms" />
          </>
        )}
        <button type="button" onClick={() => void approve()} disabled={!enabled} aria-keyshortcuts="a">
          Approve
        </button>
      </fieldset>
      <fieldset>
        <legend>Dismiss (no action against the player)</legend>
        <label htmlFor="dismiss-reason">Dismiss reason</label>
        <input id="dismiss-reason" value={dismissReason} onChange={(e) => setDismissReason(e.target.value)} maxLength={1000} />
        <label className="check">
          <input type="checkbox" checked={tellReporters} onChange={(e) => setTellReporters(e.target.checked)} />
          Tell the reporters
        </label>
        <button type="button" onClick={() => void dismiss()} disabled={!enabled} aria-keyshortcuts="d">
          Dismiss
        </button>
      </fieldset>
      {outcome &&
        (outcome.ok ? (
          <p className="ok" role="status">
            {outcome.message}
          </p>
        ) : (
          <p className="error" role="alert">
            {outcome.message}
          </p>
        ))}
      <ShortcutList shortcuts={shortcuts} />
    </section>
  );
}
