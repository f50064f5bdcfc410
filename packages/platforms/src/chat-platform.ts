import type { DecisionStore } from '@rm/storage';
import { MessageNotFoundError } from './errors.js';
import { supersededText } from './chat-text.js';

export interface OutgoingMessage {
  /** What the message is about, e.g. `case.opened`; kept for the operator's listing. */
  kind: string;
  content: string;
  /** The same key posts once: a redelivered job gets the id of the first post. */
  dedupeKey: string;
}

/**
 * The chat platform where moderators work: posts case messages to a channel, edits them as the
 * case changes, and DMs reporters. Posts answer the platform's message id.
 */
export interface ChatPlatform {
  post(channel: string, message: OutgoingMessage): Promise<{ id: string }>;
  /** Throws MessageNotFoundError when the message is gone. */
  edit(channel: string, messageId: string, content: string): Promise<void>;
  sendDm(userId: string, message: OutgoingMessage): Promise<{ id: string }>;
}

const EMBEDDED = 'the embedded chat recorder';

/**
 * The embedded recorder (the default): keeps every message in the store, where
 * `npm run cli -- messages list` shows them. DMs are recorded in channel `dm:<user id>`.
 */
export function embeddedChat(store: DecisionStore): ChatPlatform {
  const post = async (channel: string, m: OutgoingMessage) => {
    const recorded = await store.recordMessage({ channel, kind: m.kind, content: m.content, dedupeKey: m.dedupeKey });
    return { id: recorded.id };
  };
  return {
    post,
    async edit(_channel, messageId, content) {
      if (!(await store.editMessage(messageId, content, Date.now()))) throw new MessageNotFoundError(EMBEDDED, messageId);
    },
    sendDm: (userId, m) => post(`dm:${userId}`, m),
  };
}

/**
 * After an undo re-posted a case, its previous message says so and names the case's message now:
 * the re-post, or one a later sync posted in its place (unless it is gone, or is that one).
 */
export async function markSuperseded(chat: Pick<ChatPlatform, 'edit'>, store: Pick<DecisionStore, 'getCaseMessage'>, caseId: string, previous: { channel: string; messageId: string }): Promise<void> {
  const current = await store.getCaseMessage(caseId);
  if (!current || previous.messageId === current.messageId) return;
  try {
    await chat.edit(previous.channel, previous.messageId, supersededText(current.messageId));
  } catch (err) {
    if (!(err instanceof MessageNotFoundError)) throw err;
  }
}
