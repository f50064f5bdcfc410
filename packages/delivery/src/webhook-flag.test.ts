import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookFlag } from './webhook-flag.js';
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
});
