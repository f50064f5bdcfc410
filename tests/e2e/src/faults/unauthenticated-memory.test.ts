import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from '../fake-platform.js';
import { System, type Key } from '../harness.js';

// Issue 18 item 1: hostile traffic (unknown ~15 KB API keys, unknown users on a valid key) costs no
// memory that outlives it, and a key's directory lookups are bounded by its rate limit.
let fake: FakePlatform;
let sys: System;
let admin: Key;

beforeAll(async () => {
  fake = await FakePlatform.start();
  fake.addUser({ id: 8701, name: 'known', displayName: 'Known', avatar: null });
  sys = await System.start({ apps: ['gateway'], env: { USER_DIRECTORY_URL: `${fake.url}/directory` } });
  admin = await sys.createKey(['--admin']);
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

/** Resident memory of a process, from /proc (kB → bytes). */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) * 1024;
}

/** Runs `count` requests, `concurrency` at a time; counts the answers by status. */
async function flood(count: number, concurrency: number, request: (i: number) => Promise<Response>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const loop = async () => {
    while (next < count) {
      const res = await request(next++);
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return statuses;
}

const check = (auth: string, userId: string) =>
  fetch(`${sys.baseUrl}/v1/reports/check`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ userId, reporterId: 'r1' }),
    signal: AbortSignal.timeout(30_000),
  });

describe('unauthenticated and unknown-user floods', () => {
  it('12,000 unknown 15 KB keys and 3,000 unknown users: no restart, RSS grows < 60 MB, normal answers after', async () => {
    const pid = sys.pidOf('gateway')!;
    // Each key distinct (so no cache could hold them all), ~15 KB, under the 16 KiB header limit.
    const filler = randomBytes(7_500).toString('hex');
    // Warm up on the same traffic (JIT, V8's young generation grown to its working size, the valid
    // key's cache entry): what is measured is then what the flood leaves behind.
    await flood(1_000, 32, (i) => check(`rk_w${i}_${filler}:secret-${i}`, '8701'));
    expect((await check(admin.auth, '8701')).status).toBe(200);
    const before = rssOf(pid);

    const unknownKeys = await flood(12_000, 32, (i) => check(`rk_${i}_${filler}:secret-${i}`, '8701'));
    const unknownUsers = await flood(3_000, 32, (i) => check(admin.auth, `9${String(i).padStart(8, '0')}`));
    const after = rssOf(pid);
    process.stderr.write(`unauthenticated memory: RSS ${Math.round(before / 2 ** 20)} MB before, ${Math.round(after / 2 ** 20)} MB after (${Math.round((after - before) / 2 ** 20)} MB growth); unknown keys ${JSON.stringify(unknownKeys)}, unknown users ${JSON.stringify(unknownUsers)}\n`);

    expect(unknownKeys).toEqual({ 401: 12_000 });
    expect(unknownUsers).toEqual({ 404: 3_000 });
    expect(sys.pidOf('gateway')).toBe(pid); // never restarted
    expect(after - before).toBeLessThan(60 * 2 ** 20);
    const normal = await check(admin.auth, '8701');
    expect(normal.status).toBe(200);
    expect(await normal.json()).toMatchObject({ success: true, canReport: true });
  }, 300_000);

  it('a rate-limited key gets 429, not a directory lookup, once its minute is used up (check and submit)', async () => {
    const limited = await sys.createKey(['--permission', 'reports.submit_report', '--rate-limit', '4']);
    const lookups = () => fake.requests('GET', 'directory', 'users').filter((r) => r.path[2]?.startsWith('77')).length;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await check(limited.auth, `77${i}`)).status);
    for (let i = 5; i < 10; i++) {
      const body = { userId: `77${i}`, answers: [{ questionId: 'q', answer: 'a' }], evidence: [{ url: 'https://e/1', type: 'url' }], reporter: { id: 'r', platform: 'gameplatform' } };
      statuses.push((await sys.post('/v1/reports/new', limited.auth, body)).status);
    }
    // The minute may turn over between the calls: then up to 4 more are counted afresh.
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThanOrEqual(4);
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(8);
    expect(statuses.filter((s) => s === 429).length).toBe(10 - statuses.filter((s) => s === 404).length);
    expect(lookups()).toBe(statuses.filter((s) => s === 404).length);
  });
});
