import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobReply, REPLY_TTL_MS, ReplyAddress, replyKey } from '@rm/contracts';
import type { Redis } from './redis.js';

/**
 * Pushes a job's answer to the inbox its data names, if it names one. A push that fails is only
 * slower for the producer, which reads the job itself at its timeout: the caller logs it.
 */
export async function sendReply(redis: Redis, keyPrefix: string, data: unknown, reply: JobReply): Promise<void> {
  const address = ReplyAddress.safeParse(data);
  if (!address.success) return;
  // One command: the push and the list's expiry, so the replies to a producer that died do not
  // stay. Not a pipeline: ioredis copies every script defined on the connection (BullMQ's dozens)
  // into each pipeline it makes, 0.16 ms per reply in the moderation worker's profile.
  await redis.eval(PUSH_REPLY, 1, replyKey(keyPrefix, address.data.replyTo), JSON.stringify(reply), REPLY_TTL_MS);
}

const PUSH_REPLY = `redis.call('RPUSH', KEYS[1], ARGV[1]); redis.call('PEXPIRE', KEYS[1], ARGV[2])`;

/**
 * One producer's reply inbox: a Redis list that a loop pops (BLPOP, on a connection of its own)
 * and hands to whoever waits for that job. Replies wait in the list while the connection is
 * down; one popped just as the connection dropped is lost, which its waiter's timeout covers.
 */
export class ReplyInbox {
  readonly id = randomUUID();
  private readonly key: string;
  private readonly waiting = new Map<string, (reply: JobReply) => void>();
  private closed = false;
  private readonly loop: Promise<void>;

  /** `connection` is the inbox's own: BLPOP blocks it, and close() disconnects it. */
  constructor(
    private readonly connection: Redis,
    keyPrefix: string,
    private readonly onError: (err: unknown) => void,
  ) {
    this.key = replyKey(keyPrefix, this.id);
    this.loop = this.run();
  }

  /** Hands the job's reply to `onReply` once it arrives; the function returned stops waiting. */
  expect(jobId: string, onReply: (reply: JobReply) => void): () => void {
    this.waiting.set(jobId, onReply);
    return () => {
      if (this.waiting.get(jobId) === onReply) this.waiting.delete(jobId);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connection.disconnect();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      try {
        const popped = await this.connection.blpop(this.key, 0);
        if (popped) this.dispatch(popped[1]);
      } catch (err) {
        if (this.closed) return;
        this.onError(err);
        await sleep(200);
      }
    }
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
