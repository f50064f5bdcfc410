import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from '../harness.js';

let sys: System;
let admin: Key;
const DECLARED = [200, 400, 401, 403, 404, 429];
let runs = 0;

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway', 'intake', 'moderation'], env: { MAX_REPORTS_PER_DAY: '1000000' } });
  admin = await sys.createKey(['--admin']);
  await sys.addUser('850');
  await sys.addModerator('m1', 'alice');
});
afterAll(() => {
  process.stderr.write(`fuzz: ${runs} generated requests\n`);
  return sys?.stop();
});

const routes = [
  ['POST', '/v1/reports/new'],
  ['POST', '/v1/reports/check'],
  ['GET', '/v1/reports/850'],
  ['POST', '/v1/reports/REPORT/claim'],
  ['POST', '/v1/reports/REPORT/unclaim'],
  ['POST', '/v1/reports/REPORT/approve'],
  ['POST', '/v1/reports/REPORT/dismiss'],
  ['POST', '/v1/reports/REPORT/undo'],
] as const;

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', '\u0000', 'a\u0000b', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '../../etc/passwd', '%00', "' OR 1=1 --", 'x'.repeat(600), 'x'.repeat(70_000)),
);

/** JSON values nested deeply, with prototype-pollution keys among the properties. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(null), fc.boolean(), fc.double(), fc.integer(), hostileString, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 6 }),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'userId', 'answers', 'moderator', 'id')), tie('value'), { maxKeys: 6 }),
})).value;

/** encodeURIComponent refuses lone surrogates; such a path cannot be sent anyway. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return 'x';
  }
};

const deep = fc.integer({ min: 100, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n));

/** A valid body with one field replaced by something hostile: the closest misses are the most telling. */
const mutatedValid = fc.tuple(fc.constantFrom('userId', 'answers', 'evidence', 'reporter', 'reportType', 'extra'), hostileJson).map(([field, value]) => JSON.stringify({ ...report('850', 'fuzz'), [field]: value }));

const rawBody = fc.oneof(hostileJson.map((v) => JSON.stringify(v) ?? 'null'), deep, mutatedValid, hostileString, fc.constant(''), fc.constant('{"__proto__":{"polluted":true}}'));

const authHeader = fc.oneof(
  fc.constant(() => admin.auth),
  fc.constant(() => `${admin.key}:wrong`),
  hostileString.map((s) => () => s),
  fc.constant(() => undefined),
);

const path = fc.oneof(
  fc.constantFrom(...routes).map(([m, p]) => [m, p] as const),
  fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), hostileString).map(([m, s]) => [m, `/v1/reports/${enc(s)}`] as const),
  fc.tuple(fc.constantFrom(...routes), hostileString).map(([[m, p], s]) => [m, p.replace('REPORT', enc(s)) + (s.length % 2 === 0 ? `?page=${enc(s)}` : '')] as const),
);

it('thousands of generated requests get only declared statuses, the section 7 shape, never a 500', async () => {
  await fc.assert(
    fc.asyncProperty(path, rawBody, authHeader, fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', ''), async ([method, p], body, auth, contentType) => {
      runs++;
      const headers: Record<string, string> = {};
      const a = auth();
      try {
        if (a !== undefined) new Headers({ authorization: a });
        if (a !== undefined) headers['authorization'] = a;
      } catch {
        // Not a legal header value: no client can send it, so there is nothing to test.
      }
      if (contentType) headers['content-type'] = contentType;
      let res: Response;
      try {
        res = await fetch(`${sys.baseUrl}${p.replace('REPORT', '01900000-0000-7000-8000-000000000000')}`, {
          method,
          headers,
          ...(method !== 'GET' && { body }),
          signal: AbortSignal.timeout(15_000),
        });
      } catch (err) {
        // The client itself refuses to send it (an illegal header value): nothing reached the server.
        if ((err as { cause?: { code?: string } }).cause?.code === 'UND_ERR_INVALID_ARG') return;
        throw err;
      }
      const text = await res.text();
      expect(DECLARED, `${method} ${p} → ${res.status} ${text.slice(0, 200)}`).toContain(res.status);
      const json = JSON.parse(text);
      if (res.status !== 200) expect(isErrorShape(json), text.slice(0, 200)).toBe(true);
    }),
    { numRuns: 3000 },
  );
  // Still up and still right.
  const ok = await sys.post('/v1/reports/check', admin.auth, { userId: '850', reporterId: 'after-fuzz' });
  expect(ok.status).toBe(200);
});
