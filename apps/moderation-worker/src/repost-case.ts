import { AppError } from '@rm/contracts';
import { caseMessageText, PlatformError } from '@rm/platforms';
import type { CaseRecord, DecisionStore, ReportStore } from '@rm/storage';
import type { DecideDeps } from './deps.js';

export interface Repost {
  /** The chat platform's id of the new message: the answer's `newMessageId`. */
  messageId: string;
  /** The message the case had before, if any. */
  previous: { channel: string; messageId: string } | undefined;
}

export function newerCaseOpen(userId: string): AppError {
  return new AppError('INVALID_STATE', `A newer case about user ${userId} is open; handle it instead of undoing this one`);
}

/**
 * Re-posts a case that an undo is about to reopen. Synchronous, bounded by the platform timeout,
 * because the answer carries the new message's id. Keyed by the decision, so a retry re-uses the
 * message. A platform failure refuses the undo (500, nothing changed) rather than retrying blindly.
 */
export async function repostCase(
  deps: Pick<DecideDeps, 'chat' | 'settings'> & { store: ReportStore & DecisionStore },
  decisionId: string,
  c: CaseRecord,
  userName: string,
  reportIds: string[],
): Promise<Repost> {
  // Checked before posting as well as by the store, so a refused undo leaves no stray message.
  const open = await deps.store.openCaseOfUser(c.userId);
  if (open && open.id !== c.id) throw newerCaseOpen(c.userId);
  const previous = await deps.store.getCaseMessage(c.id);
  const view = { caseId: c.id, userId: c.userId, userName, state: 'open' as const, moderatorName: null, reportIds };
  try {
    const posted = await deps.chat.post(deps.settings.reportChannel, {
      kind: 'case.reopened',
      content: caseMessageText(view, deps.settings.hideUsername, 'Case reopened'),
      dedupeKey: `${decisionId}:repost`,
    });
    return { messageId: posted.id, previous: previous ? { channel: previous.channel, messageId: previous.messageId } : undefined };
  } catch (err) {
    if (err instanceof PlatformError) throw new AppError('UNAVAILABLE', `The case could not be re-posted, so nothing was undone; try again (${err.message})`);
    throw err;
  }
}
