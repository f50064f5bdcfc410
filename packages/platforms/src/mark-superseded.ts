import type { ChatPlatform } from './chat-platform.js';
import { supersededText } from './chat-text.js';
import { MessageNotFoundError } from './errors.js';

/** After an undo re-posted the case, its old message says so (unless it is gone or is the same one). */
export async function markSuperseded(chat: Pick<ChatPlatform, 'edit'>, previous: { channel: string; messageId: string }, currentMessageId: string): Promise<void> {
  if (previous.messageId === currentMessageId) return;
  try {
    await chat.edit(previous.channel, previous.messageId, supersededText(currentMessageId));
  } catch (err) {
    if (!(err instanceof MessageNotFoundError)) throw err;
  }
}
