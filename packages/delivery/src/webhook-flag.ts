import type { Redis } from '@rm/runtime';

/**
 * How long a reader that watches trusts a "no" it asked for. Its subscription makes this a safety
 * net only: a Redis Cluster moves its subscriber to another node without telling the connection
 * object, and an announcement published meanwhile would otherwise go unheard for good.
 */
export const WATCHED_ANSWER_MS = 5_000;

/**
 * Whether any notification worker on this Redis has a decision webhook (DECISION_WEBHOOK_URL):
 * one that has sets the flag at start, before it takes a job, and nothing clears it. The
 * moderation worker reads it so that, where no webhook was ever configured, a decision queues no
 * webhook jobs only for the notification worker to drop them (three jobs of about ten per claim,
 * approval and undo). Once set, every decision queues them, and a worker without a webhook drops
 * them as before.
 *
 * A reader asks Redis on every call until it sees the flag set. One that `watch`es hears the
 * announcement on a channel instead: it asks once each time its subscription is confirmed, and the
 * announcer publishes after it sets the flag, so a flag set after that question is heard. Without
 * a webhook that saves a round trip per approval, dismissal and undo (about four per cycle).
 */
export class WebhookFlag {
  private set = false;
  /** When the watched "no" was last asked for; null while no subscription is confirmed. */
  private askedAt: number | null = null;
  /** Bumped by every connect and disconnect of the subscriber: a confirmation from before one is stale. */
  private generation = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private get key(): string {
    return `${this.prefix}:webhook-configured`;
  }

  private get channel(): string {
    return `${this.prefix}:webhook-announced`;
  }

  /** Called by a notification worker with a webhook, before it consumes. */
  async announce(): Promise<void> {
    await this.redis.set(this.key, '1');
    await this.redis.publish(this.channel, '1');
  }

  /**
   * Listens for announcements on `subscriber`, a connection of its own (subscribing makes it a
   * subscriber only). Until the subscription is confirmed, and again after it drops, every call
   * asks Redis as an unwatched reader does.
   */
  watch(subscriber: Redis, onError: (err: unknown) => void): void {
    subscriber.on('message', (channel: string) => {
      if (channel === this.channel) this.set = true;
    });
    const confirm = () => {
      const generation = ++this.generation;
      this.askedAt = null;
      // Subscribed first, then asked: an announcement after the question is published to us.
      subscriber
        .subscribe(this.channel)
        .then(() => this.ask())
        .then((asked) => {
          if (generation === this.generation) this.askedAt = asked;
        }, onError);
    };
    subscriber.on('ready', confirm);
    subscriber.on('close', () => {
      this.generation++;
      this.askedAt = null;
    });
    if (subscriber.status === 'ready') confirm();
  }

  /**
   * Whether decisions queue webhook jobs. Asked of Redis on every call until seen set, then known;
   * while watched, a "no" is asked for at most every WATCHED_ANSWER_MS, and an announcement sets it.
   */
  async configured(): Promise<boolean> {
    if (this.set) return true;
    if (this.askedAt !== null && Date.now() - this.askedAt < WATCHED_ANSWER_MS) return false;
    const asked = await this.ask();
    // A fresh "no" renews a confirmed subscription's; an unconfirmed one stays unconfirmed.
    if (this.askedAt !== null) this.askedAt = asked;
    return this.set;
  }

  /** Asks Redis; returns when the question was sent. */
  private async ask(): Promise<number> {
    const at = Date.now();
    if (!this.set) this.set = (await this.redis.exists(this.key)) === 1;
    return at;
  }
}
