import { z } from 'zod';
import type { ChatPlatform, OutgoingMessage } from './chat-platform.js';
import { deliverOnce, type DeliveryLog } from './deliveries.js';
import { MessageNotFoundError, PlatformError } from './errors.js';
import { callPlatform, isOk, statusError, urlOf, type HttpTarget } from './http.js';

export interface HttpChatOptions {
  /** CHAT_API_URL, e.g. https://chat.example/api/v10 */
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** Posts and DMs are recorded here under their dedupe key, so a redelivered job sends nothing twice. */
  deliveries: DeliveryLog;
}

const PLATFORM = 'the chat platform';
const WithId = z.object({ id: z.union([z.string().min(1), z.number()]) });

/**
 * The chat platform over the common bot REST shape: `POST /channels/{channel}/messages`,
 * `PATCH /channels/{channel}/messages/{id}`, and a DM as `POST /users/@me/channels` (opens the DM
 * channel) then a post to it. Bearer token; a 429 is waited out as `retry-after` says.
 */
export function httpChat(options: HttpChatOptions): ChatPlatform {
  const target: HttpTarget = {
    platform: PLATFORM,
    metric: 'chat',
    timeoutMs: options.timeoutMs,
    headers: { authorization: `Bearer ${options.token}` },
    // A short wait in place beats a retry later; a long one is left to the queue's backoff.
    maxInlineRetryAfterMs: options.timeoutMs,
  };

  /** Calls and reads the `id` of the answer. */
  const create = async (what: string, url: string, payload: unknown): Promise<string> => {
    const answer = await callPlatform(target, 'POST', url, payload);
    if (!isOk(answer.status)) throw statusError(PLATFORM, what, answer.status);
    const parsed = WithId.safeParse(answer.body);
    if (!parsed.success) throw new PlatformError(PLATFORM, `answered ${what} without an id`, false, answer.status);
    return String(parsed.data.id);
  };

  const postNow = (channel: string, content: string) => create(`a post to channel ${channel}`, urlOf(options.baseUrl, 'channels', channel, 'messages'), { content });

  const once = async (m: OutgoingMessage, send: () => Promise<string>) => ({ id: (await deliverOnce(options.deliveries, m.dedupeKey, send))! });

  return {
    post: (channel, m) => once(m, () => postNow(channel, m.content)),
    async edit(channel, messageId, content) {
      const answer = await callPlatform(target, 'PATCH', urlOf(options.baseUrl, 'channels', channel, 'messages', messageId), { content });
      if (answer.status === 404) throw new MessageNotFoundError(PLATFORM, messageId);
      if (!isOk(answer.status)) throw statusError(PLATFORM, `an edit of message ${messageId}`, answer.status);
    },
    sendDm: (userId, m) =>
      once(m, async () => {
        const dmChannel = await create(`opening a DM with ${userId}`, `${urlOf(options.baseUrl, 'users')}/@me/channels`, { recipient_id: userId });
        return postNow(dmChannel, m.content);
      }),
  };
}
