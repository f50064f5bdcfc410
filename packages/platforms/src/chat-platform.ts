import type { Store } from '@rm/storage';

export interface ChatMessage {
  channel: string;
  /** What the message is about, e.g. `case.reopened`; kept for the operator's listing. */
  kind: string;
  content: string;
  /** The same key posts once: a redelivered job gets the id of the first post. */
  dedupeKey: string;
}

/** The chat platform where moderators work: posts case messages, returns the platform's message id. */
export interface ChatPlatform {
  post(message: ChatMessage): Promise<{ id: string }>;
}

/** The embedded recorder: keeps every message in the store (`messages list` in the CLI shows them). */
export function embeddedChat(store: Store): ChatPlatform {
  return {
    async post(message) {
      const recorded = await store.recordMessage(message);
      return { id: recorded.id };
    },
  };
}
