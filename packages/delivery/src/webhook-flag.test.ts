import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WATCHED_ANSWER_MS, WebhookFlag } from './webhook-flag.js';
import { createRedis, type Redis } from '@rm/runtime';

// A real Redis (REDIS_URL, which `npm test` provides); each test under a prefix of its own.
let redis: Redis;
beforeAll(() => {
  if (!process.env.REDIS_URL) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env.REDIS_URL });
});
afterAll(() => redis?.quit());

describe('WebhookFlag', () => {
  it('reads unset until a notification worker with a webhook announces it, then set, for a reader that asked before too', async () => {
    const prefix = `webhook-flag-test-${randomUUID()}`;
    const moderation = new WebhookFlag(redis, prefix);
    expect(await moderation.configured()).toBe(false);
    await new WebhookFlag(redis, prefix).announce();
    expect(await moderation.configured()).toBe(true);
    expect(await new WebhookFlag(redis, `${prefix}-other`).configured()).toBe(false);
  });

  it('once seen set, stays set for its reader without asking Redis again', async () => {
    const prefix = `webhook-flag-test-${randomUUID()}`;
    const moderation = new WebhookFlag(redis, prefix);
    await new WebhookFlag(redis, prefix).announce();
    expect(await moderation.configured()).toBe(true);
    await redis.del(`${prefix}:webhook-configured`);
    expect(await moderation.configured()).toBe(true);
  });

  describe('watched', () => {
    const subscribers: Redis[] = [];
    afterAll(() => Promise.all(subscribers.map((s) => s.quit())));
    /**
     * A reader that watches, and a count of the questions it asked Redis (EXISTS on its connection),
     * counted once answered: the flag takes its subscription as confirmed only when the answer is
     * in, so a count taken at the asking let a call slip in between and ask once more.
     */
    async function watching(prefix: string) {
      const asking = createRedis({ REDIS_URL: process.env.REDIS_URL! });
      const subscriber = createRedis({ REDIS_URL: process.env.REDIS_URL! });
      subscribers.push(asking, subscriber);
      let asked = 0;
      const exists = asking.exists.bind(asking);
      asking.exists = (async (...args: Parameters<typeof exists>) => {
        const answer = await exists(...args);
        asked++;
        return answer;
      }) as typeof asking.exists;
      const flag = new WebhookFlag(asking, prefix);
      flag.watch(subscriber, (err) => {
        throw err;
      });
      // Confirmed once it has asked after subscribing.
      await vi.waitFor(() => expect(asked).toBe(1));
      return { flag, subscriber, asked: () => asked };
    }

    it('answers "no" without asking once subscribed, and hears a later announcement', async () => {
      const prefix = `webhook-flag-test-${randomUUID()}`;
      const w = await watching(prefix);
      await vi.waitFor(async () => expect(await w.flag.configured()).toBe(false));
      for (let i = 0; i < 20; i++) expect(await w.flag.configured()).toBe(false);
      expect(w.asked()).toBe(1);
      await new WebhookFlag(redis, prefix).announce();
      await vi.waitFor(async () => expect(await w.flag.configured()).toBe(true));
      expect(w.asked()).toBe(1);
    });

    it('asks on every call while its subscription is down, and confirms it again on reconnect', async () => {
      const prefix = `webhook-flag-test-${randomUUID()}`;
      const w = await watching(prefix);
      await vi.waitFor(async () => expect(await w.flag.configured()).toBe(false));
      // The subscriber's socket dropped for real; ioredis reconnects and subscribes again.
      const closed = new Promise((resolve) => w.subscriber.once('close', resolve));
      w.subscriber.disconnect(true);
      await closed;
      await w.flag.configured();
      expect(w.asked()).toBe(2);
      await vi.waitFor(() => expect(w.asked()).toBeGreaterThanOrEqual(3));
      const settled = w.asked();
      expect(await w.flag.configured()).toBe(false);
      expect(w.asked()).toBe(settled);
      // An announcement while it was away is seen by the question asked on reconnect or by the message.
      await new WebhookFlag(redis, prefix).announce();
      await vi.waitFor(async () => expect(await w.flag.configured()).toBe(true));
    });

    it('trusts a watched "no" for a bounded time only', async () => {
      const prefix = `webhook-flag-test-${randomUUID()}`;
      const w = await watching(prefix);
      // The flag set without an announcement (as a message lost by a Cluster's subscriber move).
      await redis.set(`${prefix}:webhook-configured`, '1');
      expect(await w.flag.configured()).toBe(false);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + WATCHED_ANSWER_MS + 1 });
      try {
        expect(await w.flag.configured()).toBe(true);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
