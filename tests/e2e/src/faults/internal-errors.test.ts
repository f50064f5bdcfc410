import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isErrorShape, report, System, type Key } from '../harness.js';
import { PrivateRedis } from '../private-redis.js';

// Issue 17, errors: every 500 says what is down and carries a reference id that is in the log
// line of that error; the driver's own words (hosts, ports, internals) stay in the log.
let redis: PrivateRedis;
let sys: System;
let admin: Key;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  // A directory on a port nothing listens on: every lookup fails to connect.
  sys = await System.start({ apps: ['gateway'], env: { REDIS_URL: redis.url, USER_DIRECTORY_URL: `http://127.0.0.1:${await freePort()}/directory`, PLATFORM_TIMEOUT_MS: '1000' } });
  admin = await sys.createKey(['--admin']);
});
afterAll(async () => {
  await sys?.stop();
  await redis?.stop();
});

const REFERENCE = /\(reference ([0-9a-f-]{36})\)$/;
/** Driver and socket wording that must not reach a caller. */
const DRIVER_TEXT = /ECONNREFUSED|ECONNRESET|Connection is closed|127\.0\.0\.1|fetch failed|Stream isn't writeable|MaxRetriesPerRequest/i;

/** The gateway's JSON log line that names `ref`. */
async function logLineOf(ref: string): Promise<Record<string, any>> {
  let line: Record<string, any> | undefined;
  await sys.waitFor(
    async () => {
      line = sys
        .logsOf('gateway')
        .split('\n')
        .filter((l) => l.includes(ref))
        .map((l) => JSON.parse(l) as Record<string, any>)[0];
      return line !== undefined;
    },
    5_000,
    `a log line naming ${ref}`,
  );
  return line!;
}

const bounded = (path: string, body: unknown) =>
  fetch(`${sys.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });

describe('500 answers', () => {
  it('a directory that cannot be reached: a 500 naming it, with a reference logged with the cause', async () => {
    const res = await bounded('/v1/reports/new', report('8901', 'r1'));
    expect(res.status).toBe(500);
    const body = (await res.json()) as any;
    expect(isErrorShape(body)).toBe(true);
    expect(body.message).toMatch(/^The game platform user directory is unavailable: nothing was recorded, try again \(reference [0-9a-f-]{36}\)$/);
    expect(body.message).not.toMatch(DRIVER_TEXT);
    const ref = body.message.match(REFERENCE)[1];
    const line = await logLineOf(ref);
    expect(line).toMatchObject({ level: 50, ref });
    expect(JSON.stringify(line.err)).toMatch(/could not be reached/);
  });

  it('Redis killed: a 500 saying Redis is unavailable, with a reference logged with the driver error', async () => {
    await redis.down('SIGKILL');
    for (const [path, body] of [
      ['/v1/reports/check', { userId: '8902', reporterId: 'r1' }],
      ['/v1/reports/01900000-0000-7000-8000-000000000000/claim', { moderator: { id: 'm1' } }],
    ] as const) {
      const res = await bounded(path, body);
      expect(res.status, path).toBe(500);
      const json = (await res.json()) as any;
      expect(isErrorShape(json)).toBe(true);
      expect(json.message, path).toMatch(/Redis\)? is unavailable: (nothing was|the decision was not) recorded, try again \(reference [0-9a-f-]{36}\)$/);
      expect(json.message).not.toMatch(DRIVER_TEXT);
      const ref = json.message.match(REFERENCE)[1];
      const line = await logLineOf(ref);
      expect(line).toMatchObject({ level: 50, ref });
      expect(typeof line.err?.message).toBe('string');
      expect(line.err.message.length).toBeGreaterThan(0);
    }
    await redis.up();
  });
});
