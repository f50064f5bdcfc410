import { createServer } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createRedis, type Redis } from './redis.js';
import { redisMaySend, redisRefusing } from './redis-reach.js';

/** A loopback port nothing listens on (it was free a moment ago): a Redis that is down. */
const deadPort = () =>
  new Promise<number>((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });

let client: Redis | undefined;
afterEach(() => client?.disconnect());

it('a client whose connection is refused says Redis is refusing, and that nothing it sends now can leave', async () => {
  client = createRedis({ REDIS_URL: `redis://127.0.0.1:${await deadPort()}` }, { failFast: true });
  await new Promise((ok) => client!.once('error', ok));
  expect(redisRefusing(client)).toBe(true);
  expect(redisMaySend(client)).toBe(false);
  await expect(client.ping()).rejects.toThrow();
});

it('a connected client is neither refusing nor unable to send', async () => {
  client = createRedis({ REDIS_URL: process.env['REDIS_URL']! }, { failFast: true });
  await new Promise((ok) => client!.once('ready', ok));
  expect(redisRefusing(client)).toBe(false);
  expect(redisMaySend(client)).toBe(true);
});
