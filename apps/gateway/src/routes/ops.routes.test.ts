import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, Metrics, type Redis } from '@rm/runtime';
import type { GatewayDeps } from '../deps.js';
import { opsRoutes } from './ops.routes.js';

// The gateway's readiness on a real Redis, with a store that answers nothing (as MongoDB during an
// election): the gateway stays in its Service, since submit, check and the ban API need only Redis.

let redis: Redis;
beforeAll(() => {
  if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env['REDIS_URL'] });
});
afterAll(() => redis.quit());

async function ready(store: { getApiKey(key: string): Promise<unknown> }, connection: Redis = redis) {
  const app = Fastify();
  await app.register(opsRoutes({ redis: connection, store, metrics: new Metrics('gateway') } as unknown as GatewayDeps));
  const res = await app.inject({ method: 'GET', url: '/ready' });
  await app.close();
  return { status: res.statusCode, body: res.json() };
}

describe('GET /ready (gateway)', () => {
  it('answers 200 while Redis answers, reporting a store that does not', async () => {
    const down = { getApiKey: () => Promise.reject(new Error('not primary: an election')) };
    expect(await ready(down)).toMatchObject({ status: 200, body: { status: 'ready', redis: true, store: false } });
    expect(await ready({ getApiKey: async () => null })).toMatchObject({ status: 200, body: { redis: true, store: true } });
  });

  it('answers 500 when Redis does not', async () => {
    const closed = createRedis({ REDIS_URL: process.env['REDIS_URL']! });
    await closed.quit();
    expect(await ready({ getApiKey: async () => null }, closed)).toMatchObject({ status: 500, body: { status: 'not ready', redis: false } });
  });
});
