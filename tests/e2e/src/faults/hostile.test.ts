import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from '../harness.js';

let sys: System;
let admin: Key;

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway', 'intake'], env: { LOG_LEVEL: 'trace', HTTP_REQUEST_TIMEOUT_MS: '1000', DECISION_TIMEOUT_MS: '200' } });
  admin = await sys.createKey(['--admin']);
  await sys.addUser('860');
  await sys.addModerator('m1', 'alice');
});
afterAll(() => sys?.stop());

describe('slow clients', () => {
  it('a slow-loris request that never finishes its headers is cut off by the server', async () => {
    const port = Number(new URL(sys.baseUrl).port);
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<string>((resolve) => {
      let answer = '';
      socket.on('data', (d) => (answer += String(d)));
      socket.on('close', () => resolve(answer));
      socket.on('error', () => undefined);
    });
    socket.write('POST /v1/reports/new HTTP/1.1\r\nHost: localhost\r\n');
    // One header byte every 200 ms: never a complete request.
    const drip = setInterval(() => socket.writable && socket.write('X'), 200);
    const outcome = await Promise.race([closed, new Promise<string>((r) => setTimeout(() => r('still open'), 15_000))]);
    clearInterval(drip);
    socket.destroy();
    expect(outcome).not.toBe('still open');
  });
});

describe('logs', () => {
  it('never contain a secret or an Authorization header, even at trace level and on failures', async () => {
    await sys.post('/v1/reports/new', admin.auth, report('860', 'log-1'));
    await sys.post('/v1/reports/new', admin.auth, { broken: true });
    await sys.post('/v1/reports/new', `${admin.key}:not-the-secret-${admin.secret.slice(0, 5)}`, report('860', 'log-2'));
    await sys.post('/v1/reports/01900000-0000-7000-8000-000000000000/claim', admin.auth, { moderator: { id: 'm1' } }); // times out: a logged 500
    await sys.stopApp('gateway');
    const logs = sys.logsOf('gateway');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(admin.secret);
    expect(logs).not.toContain(admin.auth);
    expect(logs.toLowerCase()).not.toMatch(/"authorization":"(?!\[redacted\])/);
    await sys.startApp('gateway');
  });
});
