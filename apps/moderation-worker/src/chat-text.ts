import type { CaseRecord } from '@rm/storage';

/** Text of the chat messages the worker posts. The user's name is left out when hideUsername is set. */
export function reopenedCaseText(c: CaseRecord, reportIds: string[], userName: string, hideUsername: boolean): string {
  const who = hideUsername ? `user ${c.userId}` : `${userName} (${c.userId})`;
  return `Case reopened: ${reportIds.length} report(s) about ${who}. Reports: ${reportIds.join(', ')}`;
}

export function dismissalDmText(reason: string | undefined): string {
  return reason ? `Your report was reviewed and dismissed: ${reason}` : 'Your report was reviewed and dismissed.';
}
