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

/**
 * The longest message the chat platform takes (the bot API's 2,000 characters): a longer post or
 * edit is refused, and the case's message would stop following the case.
 */
export const CHAT_MESSAGE_LIMIT = 2000;

/** The case message in the report channel; `headline` marks a re-post ("Case reopened"). */
export function caseMessageText(v: CaseView, hideUsername: boolean, headline = 'Case'): string {
  const who = hideUsername ? `user ${v.userId}` : `${v.userName} (${v.userId})`;
  return withReportIds([`${headline}: ${v.reportIds.length} report(s) about ${who}`, `Status: ${status(v)}`, ...flagLines(v.flags ?? [])], v.reportIds);
}

/** The escalation channel's message when a case waited unclaimed past its category's SLA. */
export function slaEscalationText(caseId: string, userId: string, category: string, slaMs: number, reportIds: string[]): string {
  return withReportIds([`SLA breached: case ${caseId} about user ${userId} has waited unclaimed longer than ${Math.round(slaMs / 1000)} s (category ${category})`], reportIds);
}

/** `lines`, then the report ids line, within CHAT_MESSAGE_LIMIT (clipped as a last resort: a player's name is the directory's, of any length). */
function withReportIds(lines: string[], ids: string[]): string {
  const head = lines.join('\n');
  return clipped(`${head}\n${reportsLine(ids, CHAT_MESSAGE_LIMIT - head.length - 1)}`);
}

/** `text` cut to CHAT_MESSAGE_LIMIT, its last character an ellipsis when cut. */
function clipped(text: string): string {
  return text.length <= CHAT_MESSAGE_LIMIT ? text : `${text.slice(0, CHAT_MESSAGE_LIMIT - 1)}…`;
}

/** The case's report ids, as many as fit in `room` characters, then how many more: a case of thousands is still one message. */
function reportsLine(ids: string[], room: number): string {
  const all = `Reports: ${ids.join(', ')}`;
  if (all.length <= room) return all;
  const more = (n: number) => ` … and ${n} more in the console`;
  let used = 'Reports:'.length + more(ids.length).length;
  let shown = 0;
  while (shown < ids.length && used + 2 + ids[shown]!.length <= room) used += 2 + ids[shown++]!.length;
  return `Reports:${shown > 0 ? ` ${ids.slice(0, shown).join(', ')}` : ''}${more(ids.length - shown)}`;
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
  // The moderator's reason has no bound of its own.
  return reason ? clipped(`Your report was reviewed and dismissed: ${reason}`) : 'Your report was reviewed and dismissed.';
}

/**
 * What a decided case's chat message says once the retention policy ended its details
 * (docs/privacy.md#retention): the decision and the count, without the player, the moderator or the
 * reports.
 */
export function retainedCaseText(state: string, reports: number): string {
  return `Case: ${reports} report(s), ${state}. Its details were removed under the retention policy.`;
}
