import type { DecisionAction, ErrorCode } from '@rm/contracts';
import type { CaseRecord, CaseState } from '@rm/storage';

export type Plan =
  | { ok: true; next: { state: CaseState; claimedBy: string | null }; ban?: 'set' | 'lift' }
  | { ok: false; code: ErrorCode; message: string; claimer?: string };

export interface Command {
  action: DecisionAction;
  moderatorId: string;
  bypassClaimCheck?: boolean;
}

const decided = (s: CaseState) => s === 'approved' || s === 'dismissed';

const refuse = (code: ErrorCode, message: string, claimer?: string): Plan => ({ ok: false, code, message, ...(claimer && { claimer }) });

/**
 * The case state machine (docs/moderation.md). Pure: given the case as read and the command, the
 * next state or the reason for refusing. `claimer` asks the caller to name the claiming moderator.
 */
export function plan(c: CaseRecord, cmd: Command): Plan {
  const mine = c.claimedBy === cmd.moderatorId;
  const someoneElses = c.state === 'claimed' && !mine;
  switch (cmd.action) {
    case 'claim':
      if (decided(c.state)) return refuse('INVALID_STATE', `The case is ${c.state}; undo the decision before claiming it`);
      if (someoneElses) return refuse('CLAIMED_BY_OTHER', 'The case is already claimed', c.claimedBy!);
      if (c.state === 'claimed') return refuse('INVALID_STATE', 'The case is already claimed by you');
      return { ok: true, next: { state: 'claimed', claimedBy: cmd.moderatorId } };
    case 'unclaim':
      if (decided(c.state)) return refuse('INVALID_STATE', `The case is ${c.state}; there is no claim to release`);
      if (c.state === 'open') return refuse('INVALID_STATE', 'The case is open and not claimed');
      if (someoneElses && !cmd.bypassClaimCheck) return refuse('CLAIMED_BY_OTHER', 'The case is claimed', c.claimedBy!);
      return { ok: true, next: { state: 'open', claimedBy: null } };
    case 'approve':
    case 'dismiss':
      if (decided(c.state)) return refuse('INVALID_STATE', `The case is already ${c.state}; undo it first`);
      if (someoneElses) return refuse('CLAIMED_BY_OTHER', 'The case is claimed', c.claimedBy!);
      return cmd.action === 'approve'
        ? { ok: true, next: { state: 'approved', claimedBy: cmd.moderatorId }, ban: 'set' }
        : { ok: true, next: { state: 'dismissed', claimedBy: cmd.moderatorId } };
    case 'undo':
      if (!decided(c.state)) return refuse('INVALID_STATE', `The case is ${c.state}; there is no decision to undo`);
      return { ok: true, next: { state: 'open', claimedBy: null }, ...(c.state === 'approved' && { ban: 'lift' as const }) };
  }
}
