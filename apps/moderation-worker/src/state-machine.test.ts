import type { CaseRecord, CaseState } from '@rm/storage';
import { describe, expect, it } from 'vitest';
import { plan, type Command, type Plan } from './state-machine.js';

const ME = 'mod-me';
const OTHER = 'mod-other';

type From = 'open' | 'claimed-by-me' | 'claimed-by-other' | 'approved' | 'dismissed';

const caseIn = (from: From): CaseRecord => {
  const [state, claimedBy]: [CaseState, string | null] = {
    open: ['open', null],
    'claimed-by-me': ['claimed', ME],
    'claimed-by-other': ['claimed', OTHER],
    // A decided case remembers who decided it; another moderator may still act on it (undo).
    approved: ['approved', OTHER],
    dismissed: ['dismissed', OTHER],
  }[from] as [CaseState, string | null];
  return { id: 'case-1', userId: 'user-1', state, claimedBy, version: 3, createdAt: 1_000, updatedAt: 2_000, slaBreached: false };
};

// Expected outcomes, written compactly so the table below reads like the state table in docs/moderation.md.
const to = (state: CaseState, claimedBy: string | null, ban?: 'set' | 'lift'): Plan => ({
  ok: true,
  next: { state, claimedBy },
  ...(ban && { ban }),
});
const INVALID = { ok: false, code: 'INVALID_STATE' } as const;
const OTHERS = { ok: false, code: 'CLAIMED_BY_OTHER', claimer: OTHER } as const;
type Refusal = typeof INVALID | typeof OTHERS;

interface Row {
  from: From;
  action: Command['action'];
  bypass?: boolean;
  expected: Plan | Refusal;
}

const table: Row[] = [
  // claim
  { from: 'open', action: 'claim', expected: to('claimed', ME) },
  { from: 'claimed-by-me', action: 'claim', expected: INVALID },
  { from: 'claimed-by-other', action: 'claim', expected: OTHERS },
  { from: 'approved', action: 'claim', expected: INVALID },
  { from: 'dismissed', action: 'claim', expected: INVALID },
  // unclaim
  { from: 'open', action: 'unclaim', expected: INVALID },
  { from: 'claimed-by-me', action: 'unclaim', expected: to('open', null) },
  { from: 'claimed-by-other', action: 'unclaim', expected: OTHERS },
  { from: 'approved', action: 'unclaim', expected: INVALID },
  { from: 'dismissed', action: 'unclaim', expected: INVALID },
  // unclaim, bypassing the claim check (admin force-release)
  { from: 'open', action: 'unclaim', bypass: true, expected: INVALID },
  { from: 'claimed-by-me', action: 'unclaim', bypass: true, expected: to('open', null) },
  { from: 'claimed-by-other', action: 'unclaim', bypass: true, expected: to('open', null) },
  { from: 'approved', action: 'unclaim', bypass: true, expected: INVALID },
  { from: 'dismissed', action: 'unclaim', bypass: true, expected: INVALID },
  // approve
  { from: 'open', action: 'approve', expected: to('approved', ME, 'set') },
  { from: 'claimed-by-me', action: 'approve', expected: to('approved', ME, 'set') },
  { from: 'claimed-by-other', action: 'approve', expected: OTHERS },
  { from: 'approved', action: 'approve', expected: INVALID },
  { from: 'dismissed', action: 'approve', expected: INVALID },
  // dismiss
  { from: 'open', action: 'dismiss', expected: to('dismissed', ME) },
  { from: 'claimed-by-me', action: 'dismiss', expected: to('dismissed', ME) },
  { from: 'claimed-by-other', action: 'dismiss', expected: OTHERS },
  { from: 'approved', action: 'dismiss', expected: INVALID },
  { from: 'dismissed', action: 'dismiss', expected: INVALID },
  // undo
  { from: 'open', action: 'undo', expected: INVALID },
  { from: 'claimed-by-me', action: 'undo', expected: INVALID },
  { from: 'claimed-by-other', action: 'undo', expected: INVALID },
  { from: 'approved', action: 'undo', expected: to('open', null, 'lift') },
  { from: 'dismissed', action: 'undo', expected: to('open', null) },
];

const label = (r: Row) => `${r.action}${r.bypass ? ' (bypass)' : ''}`;
const describeExpected = (e: Row['expected']) =>
  e.ok ? `→ ${e.next.state}/${e.next.claimedBy ?? 'nobody'}${e.ban ? ` ban:${e.ban}` : ''}` : `refused ${e.code}`;

describe('plan(): the case state machine', () => {
  it('the table covers every state × action', () => {
    const froms: From[] = ['open', 'claimed-by-me', 'claimed-by-other', 'approved', 'dismissed'];
    const actions = ['claim', 'unclaim', 'unclaim (bypass)', 'approve', 'dismiss', 'undo'];
    const seen = new Set(table.map((r) => `${r.from}|${label(r)}`));
    expect(seen.size).toBe(table.length);
    expect(seen.size).toBe(froms.length * actions.length);
    for (const f of froms) for (const a of actions) expect(seen.has(`${f}|${a}`), `${f} × ${a}`).toBe(true);
  });

  it.each(table.map((r) => ({ ...r, act: label(r), outcome: describeExpected(r.expected) })))(
    '$from × $act $outcome',
    ({ from, action, bypass, expected }) => {
      const cmd: Command = { action, moderatorId: ME, ...(bypass !== undefined && { bypassClaimCheck: bypass }) };
      const result = plan(caseIn(from), cmd);
      if (expected.ok) {
        // Strict: no `ban` key unless the transition bans or lifts one.
        expect(result).toStrictEqual(expected);
      } else {
        // Strict: `claimer` is present only for CLAIMED_BY_OTHER, and then names the claiming moderator.
        expect(result).toStrictEqual({ ...expected, message: expect.any(String) });
        expect((result as { message: string }).message.length).toBeGreaterThan(0);
      }
    },
  );

  it('bypassClaimCheck: false behaves like no bypass', () => {
    expect(plan(caseIn('claimed-by-other'), { action: 'unclaim', moderatorId: ME, bypassClaimCheck: false })).toStrictEqual({
      ...OTHERS,
      message: expect.any(String),
    });
  });

  it('bypassClaimCheck only affects unclaim: approving or claiming another moderator’s case is still refused', () => {
    for (const action of ['claim', 'approve', 'dismiss'] as const) {
      const result = plan(caseIn('claimed-by-other'), { action, moderatorId: ME, bypassClaimCheck: true });
      expect(result, action).toMatchObject({ ok: false, code: 'CLAIMED_BY_OTHER', claimer: OTHER });
    }
  });

  it('does not modify the case it is given', () => {
    const c = caseIn('claimed-by-me');
    const copy = structuredClone(c);
    plan(c, { action: 'approve', moderatorId: ME });
    expect(c).toStrictEqual(copy);
  });
});
