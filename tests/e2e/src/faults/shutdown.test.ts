import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, System, type Key } from '../harness.js';
import { acceptedAreListedOnce } from './load.js';

let sys: System;
let admin: Key;

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway', 'intake'], env: { MAX_REPORTS_PER_DAY: '1000000' } });
  admin = await sys.createKey(['--admin']);
  await sys.addUser('840');
});
afterAll(() => sys?.stop());

it('SIGTERM lets requests in flight finish, then every process exits 0 and nothing accepted is lost', async () => {
  const inFlight = Array.from({ length: 40 }, (_, i) =>
    fetch(`${sys.baseUrl}/v1/reports/new`, {
      method: 'POST',
      headers: { authorization: admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify(report('840', `shutdown-${i}`)),
    }).then(
      async (res) => ({ status: res.status, id: ((await res.json()) as { id?: string }).id }),
      () => ({ status: 0, id: undefined }),
    ),
  );
  await new Promise((r) => setTimeout(r, 5));
  expect(await sys.stopApp('gateway', 'SIGTERM')).toBe(0);
  const results = await Promise.all(inFlight);
  // Each request either got its answer or was never taken in; none got a 5xx from the shutdown.
  expect(results.every((r) => r.status === 200 || r.status === 0)).toBe(true);
  const accepted = results.filter((r) => r.status === 200).map((r) => r.id!);
  const { missing, duplicated } = await acceptedAreListedOnce(await restartGateway(), admin.auth, ['840'], accepted, 30_000);
  expect(missing).toEqual([]);
  expect(duplicated).toEqual([]);
  expect(await sys.stopApp('intake', 'SIGTERM')).toBe(0);
});

async function restartGateway(): Promise<System> {
  await sys.startApp('gateway');
  return sys;
}
