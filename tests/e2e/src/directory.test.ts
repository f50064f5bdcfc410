import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { isErrorShape, report, System, type Key } from './harness.js';

// The game platform user directory is a real HTTP server started here (USER_DIRECTORY_URL).
let fake: FakePlatform;
let sys: System;
let admin: Key;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    apps: ['gateway', 'intake'],
    env: { USER_DIRECTORY_URL: `${fake.url}/directory`, PLATFORM_TIMEOUT_MS: '1000', USER_CACHE_TTL_MS: '60000' },
  });
  admin = await sys.createKey(['--admin']);
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

const lookups = (userId: string) => fake.requests('GET', 'directory', 'users', userId);
const check = (userId: string) => sys.post('/v1/reports/check', admin.auth, { userId, reporterId: 'r1' });

describe('game platform user directory over HTTP', () => {
  it('check, submit and the stored report use the directory; one lookup serves them all (Redis cache)', async () => {
    fake.addUser({ id: 8801, name: 'speedy', displayName: 'Speedy G', avatar: 'https://cdn.example/speedy.png' });
    const checked = await check('8801');
    expect(checked.status).toBe(200);
    expect(checked.body.user).toEqual({ id: 8801, name: 'speedy', displayName: 'Speedy G' });
    expect((await sys.post('/v1/reports/new', admin.auth, report('8801', 'r1'))).status).toBe(200);
    await sys.waitFor(async () => (await sys.get('/v1/reports/8801', admin.auth)).body.count === 1);
    const [entry] = (await sys.get('/v1/reports/8801', admin.auth)).body.reports;
    expect(entry).toMatchObject({ username: 'speedy', displayname: 'Speedy G', avurl: 'https://cdn.example/speedy.png' });
    expect(lookups('8801')).toHaveLength(1);
  });

  it('POST /v1/reports/check and /new answer 404 for a user the directory does not know', async () => {
    for (const res of [await check('8899'), await sys.post('/v1/reports/new', admin.auth, report('8899', 'r1'))]) {
      expect(res.status).toBe(404);
      expect(isErrorShape(res.body)).toBe(true);
      expect(res.body.message).toMatch(/User 8899 not found on the game platform/);
    }
  });

  it('a directory slower than PLATFORM_TIMEOUT_MS is a 500 that says so, after about that long', async () => {
    fake.addUser({ id: 8802, name: 'slow', displayName: 'Slow', avatar: null });
    fake.fail({ match: (r) => r.path.join('/') === 'directory/users/8802', times: Infinity, delayMs: 5_000 });
    const started = Date.now();
    const res = await check('8802');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.status).toBe(500);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.message).toMatch(/user directory is unavailable: did not answer within 1000 ms/);
  });

  it('a directory that fails is a 500 naming it, not a 404', async () => {
    fake.fail({ match: (r) => r.path.join('/') === 'directory/users/8803', times: Infinity, status: 503 });
    const res = await sys.post('/v1/reports/new', admin.auth, report('8803', 'r1'));
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/user directory is unavailable: answered 503/);
  });
});
