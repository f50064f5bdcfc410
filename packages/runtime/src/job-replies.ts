import { randomUUID } from 'node:crypto';
import { JobReply, ReplyAddress, replyChannel } from '@rm/contracts';
import type { Redis } from './redis.js';

/**
 * Publishes a job's answer to the inbox its data names, if it names one. A reply that is not
 * heard (its producer's connection was down) is only slower: the producer reads the job itself at
 * its timeout. A failed publish is the same; the caller logs it.
 */
export async function sendReply(redis: Redis, keyPrefix: string, data: unknown, reply: JobReply): Promise<void> {
  // Every job of every queue comes here; most name no inbox, and a failed parse builds a ZodError.
  if (typeof data !== 'object' || data === null || !('replyTo' in data)) return;
  const address = ReplyAddress.safeParse(data);
  if (!address.success) return;
  // Pub/sub, not a list: a message is neither stored nor written to the AOF, so with `appendfsync
  // always` it costs Redis no fsync.
  await redis.publish(replyChannel(keyPrefix, address.data.replyTo), JSON.stringify(reply));
}

/**
 * One producer's reply inbox: a channel its own connection subscribes to (ioredis subscribes
 * again after a reconnect); each reply goes to whoever waits for that job.
 */
export class ReplyInbox {
  readonly id = randomUUID();
  private readonly waiting = new Map<string, (reply: JobReply) => void>();
  private readonly subscribed: Promise<unknown>;

  /** `connection` is the inbox's own: subscribing makes it a subscriber only, and close() disconnects it. */
  constructor(
    private readonly connection: Redis,
    keyPrefix: string,
    private readonly onError: (err: unknown) => void,
  ) {
    connection.on('message', (_channel: string, message: string) => this.dispatch(message));
    this.subscribed = connection.subscribe(replyChannel(keyPrefix, this.id)).catch(onError);
  }

  /** Resolves once the channel is subscribed (replies published before then are not heard). */
  ready(): Promise<unknown> {
    return this.subscribed;
  }

  /** Hands the job's reply to `onReply` once it arrives; the function returned stops waiting. */
  expect(jobId: string, onReply: (reply: JobReply) => void): () => void {
    this.waiting.set(jobId, onReply);
    return () => {
      if (this.waiting.get(jobId) === onReply) this.waiting.delete(jobId);
    };
  }

  async close(): Promise<void> {
    this.connection.disconnect();
  }

  private dispatch(raw: string): void {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const parsed = JobReply.safeParse(json);
    if (!parsed.success) return this.onError(new Error(`a reply that does not parse was dropped: ${raw.slice(0, 200)}`));
    const onReply = this.waiting.get(parsed.data.jobId);
    // No one waits for a reply that came after its waiter's timeout.
    if (!onReply) return;
    this.waiting.delete(parsed.data.jobId);
    onReply(parsed.data);
  }
}
