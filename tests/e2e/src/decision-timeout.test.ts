import { afterAll, beforeAll, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

let sys: System;
let admin: Key;

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway', 'intake'], env: { DECISION_TIMEOUT_MS: '500' } });
  admin = await sys.createKey(['--admin']);
  await sys.addUser('600');
  await sys.addModerator('m1', 'alice');
});
afterAll(() => sys?.stop());

it('POST /v1/reports/{id}/claim answers 500 when no moderation worker answers in time, and the claim is applied once later', async () => {
  const submitted = await sys.post('/v1/reports/new', admin.auth, report('600', 'r1'));
  await sys.waitFor(async () => (await sys.get('/v1/reports/600', admin.auth)).body.count === 1);
  const res = await sys.post(`/v1/reports/${submitted.body.id}/claim`, admin.auth, { moderator: { id: 'm1' } });
  expect(res.status).toBe(500);
  expect(isErrorShape(res.body)).toBe(true);
  expect(res.body.message).toMatch(/did not answer/);

  await sys.startApp('moderation');
  await sys.waitFor(async () => (await sys.cli(['case', 'history', submitted.body.id])).stdout.includes('claimed by m1'));
  const history = await sys.cli(['case', 'history', submitted.body.id]);
  expect(history.stdout.match(/^\S+\s+claim\s/gm)).toHaveLength(1);
});
