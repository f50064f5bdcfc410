import { MessageNotFoundError, supersededText } from '@rm/platforms';
import type { NotificationDeps } from './deps.js';

/** After an undo re-posted the case, its old message says so (unless it is gone or is the same one). */
export async function markSuperseded(deps: Pick<NotificationDeps, 'chat'>, previous: { channel: string; messageId: string }, currentMessageId: string): Promise<void> {
  if (previous.messageId === currentMessageId) return;
  try {
    await deps.chat.edit(previous.channel, previous.messageId, supersededText(currentMessageId));
  } catch (err) {
    if (!(err instanceof MessageNotFoundError)) throw err;
  }
}
