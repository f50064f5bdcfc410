import type { Redis } from '@rm/runtime';

/**
 * Whether any notification worker on this Redis has a decision webhook (DECISION_WEBHOOK_URL):
 * one that has sets the flag at start, before it takes a job, and nothing clears it. The
 * moderation worker reads it so that, where no webhook was ever configured, a decision queues no
 * webhook jobs only for the notification worker to drop them (three jobs of about ten per claim,
 * approval and undo). Once set, every decision queues them, and a worker without a webhook drops
 * them as before.
 */
export class WebhookFlag {
  private set = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private get key(): string {
    return `${this.prefix}:webhook-configured`;
  }

  /** Called by a notification worker with a webhook, before it consumes. */
  async announce(): Promise<void> {
    await this.redis.set(this.key, '1');
  }

  /** Read on every decision until it is seen set (a webhook configured later counts at once), then known. */
  async configured(): Promise<boolean> {
    if (!this.set) this.set = (await this.redis.exists(this.key)) === 1;
    return this.set;
  }
}
