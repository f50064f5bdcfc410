import type { CaseView } from './case-view.js';

/** Text of the chat messages we send. The player's name is left out when hideUsername is set. */

function status(v: CaseView): string {
  switch (v.state) {
    case 'open':
      return 'open, unclaimed';
    case 'claimed':
      return `claimed by ${v.moderatorName}`;
    case 'approved':
      return `approved by ${v.moderatorName}: user banned`;
    case 'dismissed':
      return `dismissed by ${v.moderatorName}`;
  }
}

/** The case message in the report channel; `headline` marks a re-post ("Case reopened"). */
export function caseMessageText(v: CaseView, hideUsername: boolean, headline = 'Case'): string {
  const who = hideUsername ? `user ${v.userId}` : `${v.userName} (${v.userId})`;
  return [`${headline}: ${v.reportIds.length} report(s) about ${who}`, `Status: ${status(v)}`, ...flagLines(v.flags ?? []), `Reports: ${v.reportIds.join(', ')}`].join('\n');
}

/** What the triage flags mean for the moderator reading the message (docs/triage.md). */
function flagLines(flags: string[]): string[] {
  const lines: string[] = [];
  if (flags.includes('suspected_brigade')) {
    lines.push('Warning: suspected brigade (a burst of reports from new or low-credibility reporters); automatic rules will not act on it, a moderator still can');
  }
  if (flags.includes('escalated')) lines.push('Escalated by an automatic triage rule');
  return lines;
}

/** What the previous message of a case says once an undo has re-posted the case. */
export function supersededText(newMessageId: string): string {
  return `This decision was undone and the case re-posted (message ${newMessageId}).`;
}

/**
 * The DM to a reporter of an approved case: action was taken, never which (the kind, duration and
 * reason of the sanction are the other player's, DSA Art. 16(5) asks only for the decision).
 */
export function approvalDmText(): string {
  return 'Your report was reviewed and action was taken against the reported player. Thank you for reporting.';
}

export function dismissalDmText(reason: string | undefined): string {
  return reason ? `Your report was reviewed and dismissed: ${reason}` : 'Your report was reviewed and dismissed.';
}

/**
 * What a decided case's chat message says once the retention policy ended its details
 * (docs/privacy.md#retention): the decision and the count, without the player, the moderator or the
 * reports.
 */
export function retainedCaseText(state: string, reports: number): string {
  return `Case: ${reports} report(s), ${state}. Its details were removed under the retention policy.`;
}
