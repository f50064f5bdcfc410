import type { AppealDecisionAction, ErrorCode } from '@rm/contracts';
import type { AppealRecord, AppealState } from '@rm/storage';

export type AppealPlan =
  | { ok: true; next: { state: AppealState; claimedBy: string | null }; outcome?: 'upheld' | 'overturned' }
  | { ok: false; code: ErrorCode; message: string; claimer?: string };

export interface AppealCommand {
  action: AppealDecisionAction;
  moderatorId: string;
  /**
   * A trusted system's sanction created with a key bound to a moderator: that moderator, who
   * decided it as much as the key the appeal records (sanctionModeratorId). null otherwise.
   */
  sanctionBoundModeratorId: string | null;
  bypassClaimCheck?: boolean;
  /** The policy's system moderator: automatic decisions are recorded as them; they never decide an appeal. */
  systemModeratorId: string;
}

const decided = (s: AppealState) => s === 'upheld' || s === 'overturned';
const refuse = (code: ErrorCode, message: string, claimer?: string): AppealPlan => ({ ok: false, code, message, ...(claimer && { claimer }) });

/**
 * The appeal state machine (docs/appeals.md), pure like the case's: open → claimed → upheld or
 * overturned, claims released by unclaim. Whoever decided the sanction may not claim or decide its
 * appeal, and neither may the system moderator: an appeal is always decided by a person other
 * than the one who decided the sanction (DSA Art. 20(6)).
 */
export function planAppeal(a: AppealRecord, cmd: AppealCommand): AppealPlan {
  const mine = a.claimedBy === cmd.moderatorId;
  const someoneElses = a.state === 'claimed' && !mine;
  const deciding = cmd.action !== 'appeal.unclaim';
  if (deciding && cmd.moderatorId === cmd.systemModeratorId) {
    return refuse('FORBIDDEN', `An appeal is decided by a person: the system moderator (${cmd.systemModeratorId}) cannot claim or decide one`);
  }
  if (deciding && (cmd.moderatorId === a.sanctionModeratorId || cmd.moderatorId === cmd.sanctionBoundModeratorId)) {
    return refuse('FORBIDDEN', `Moderator ${cmd.moderatorId} decided the sanction under appeal: another moderator must claim and decide the appeal`);
  }
  switch (cmd.action) {
    case 'appeal.claim':
      if (decided(a.state)) return refuse('INVALID_STATE', `The appeal is already ${a.state}`);
      if (someoneElses) return refuse('CLAIMED_BY_OTHER', 'The appeal is already claimed', a.claimedBy!);
      if (a.state === 'claimed') return refuse('INVALID_STATE', 'The appeal is already claimed by you');
      return { ok: true, next: { state: 'claimed', claimedBy: cmd.moderatorId } };
    case 'appeal.unclaim':
      if (decided(a.state)) return refuse('INVALID_STATE', `The appeal is already ${a.state}; there is no claim to release`);
      if (a.state === 'open') return refuse('INVALID_STATE', 'The appeal is open and not claimed');
      if (someoneElses && !cmd.bypassClaimCheck) return refuse('CLAIMED_BY_OTHER', 'The appeal is claimed', a.claimedBy!);
      return { ok: true, next: { state: 'open', claimedBy: null } };
    case 'appeal.uphold':
    case 'appeal.overturn': {
      if (decided(a.state)) return refuse('INVALID_STATE', `The appeal is already ${a.state}`);
      if (someoneElses) return refuse('CLAIMED_BY_OTHER', 'The appeal is claimed', a.claimedBy!);
      const outcome = cmd.action === 'appeal.uphold' ? 'upheld' : 'overturned';
      return { ok: true, next: { state: outcome, claimedBy: cmd.moderatorId }, outcome };
    }
  }
}
