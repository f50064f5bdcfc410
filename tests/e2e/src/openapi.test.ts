import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System } from './harness.js';
import { allowedValues, range, Spec } from './spec.js';

// The OpenAPI document is generated from the zod schemas the gateway validates with; this diffs it
// against the spec's paths, fields and constraints, so neither can drift from the other.
let sys: System;
let doc: any;
const spec = new Spec();

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway'] });
  doc = (await sys.request('GET', '/openapi.json')).body;
});
afterAll(() => sys?.stop());

const op = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()];
const jsonOf = (content: any) => content?.['application/json']?.schema;
const requestBody = (method: string, path: string) => jsonOf(op(method, path).requestBody.content);
const response = (method: string, path: string, status: number) => jsonOf(op(method, path).responses[String(status)].content);
const props = (schema: any) => Object.keys(schema?.properties ?? {}).sort();
const fields = (t: { rows: Map<string, string[]> }) => [...t.rows.keys()].sort();

describe('GET /openapi.json', () => {
  it('is OpenAPI 3 with exactly the spec\'s endpoints under /v1', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const expected = spec.endpoints().map((e) => `${e.method} ${e.path}`).sort();
    const actual = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/v1'))
      .flatMap(([p, methods]) => Object.keys(methods as object).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(actual).toEqual(expected);
  });

  it('declares the error statuses of section 7 with its shape on every endpoint', () => {
    for (const e of spec.endpoints()) {
      for (const status of [400, 401, 403, 404, 429, 500]) {
        const schema = response(e.method, e.path, status);
        expect(props(schema), `${e.method} ${e.path} ${status}`).toEqual(['errors', 'message', 'success']);
        expect(schema.required).toEqual(expect.arrayContaining(['success', 'message']));
      }
    }
  });

  it('submit body: fields, required fields, enums and bounds of 2.1 and 8; nothing else allowed', () => {
    const body = requestBody('POST', '/v1/reports/new');
    const t = spec.table('2.1');
    expect(props(body)).toEqual(fields(t));
    expect(body.additionalProperties).toBe(false);
    expect([...body.required].sort()).toEqual([...t.rows].filter(([, r]) => r[1] === 'yes').map(([f]) => f).sort());
    expect(body.properties.reportType.enum).toEqual(allowedValues(t.rows.get('reportType')![2]!));
    expect([body.properties.answers.minItems, body.properties.answers.maxItems]).toEqual(range(t.rows.get('answers')![2]!));
    expect([body.properties.evidence.minItems, body.properties.evidence.maxItems]).toEqual(range(t.rows.get('evidence')![2]!));

    const answer = body.properties.answers.items;
    const ta = spec.table('2.1', 'answer:');
    expect(props(answer)).toEqual(fields(ta));
    expect(answer.additionalProperties).toBe(false);
    expect([answer.properties.answer.minLength, answer.properties.answer.maxLength]).toEqual(range(ta.rows.get('answer')![2]!));

    const evidence = body.properties.evidence.items;
    const te = spec.table('2.1', 'evidence item:');
    expect(props(evidence)).toEqual(fields(te));
    expect(evidence.properties.type.enum).toEqual(allowedValues(te.rows.get('type')![2]!));
    expect(evidence.properties.createEvidence.type).toBe('boolean');

    const reporter = body.properties.reporter;
    const tr = spec.table('2.1', 'reporter:');
    expect(props(reporter)).toEqual(fields(tr));
    expect(reporter.properties.platform.enum).toEqual(allowedValues(tr.rows.get('platform')![2]!));
  });

  it('submit answer: the fields of 2.2', () => {
    const schema = response('POST', '/v1/reports/new', 200);
    expect(props(schema)).toEqual(fields(spec.table('2.2')));
    expect([...schema.required].sort()).toEqual(['id', 'success']);
  });

  it('check: the request and answer fields of 4.2, the user summary of 2.6', () => {
    expect(props(requestBody('POST', '/v1/reports/check'))).toEqual(fields(spec.table('4.2', 'Request body')));
    const answer = response('POST', '/v1/reports/check', 200);
    expect(props(answer)).toEqual(fields(spec.table('4.2', 'Response 200')));
    expect(props(answer.properties.user)).toEqual(fields(spec.table('2.6')));
    expect(answer.properties.user.properties.id.type).toBe('integer');
  });

  it('list: the answer of 4.3 with the entries of 2.5', () => {
    const answer = response('GET', '/v1/reports/{id}', 200);
    expect(props(answer)).toEqual(fields(spec.table('4.3', 'Response 200')));
    expect(props(answer.properties.reports.items)).toEqual(fields(spec.table('2.5')));
    expect(answer.properties.reports.items.properties.reportTimeStamp.type).toBe('integer');
  });

  it.each([
    ['claim', '4.4', ['message', 'moderator', 'reportId']],
    ['unclaim', '4.5', ['message', 'moderator', 'reportId']],
  ])('%s: body with moderator, data of %s', (action, _section, data) => {
    const path = `/v1/reports/{id}/${action}`;
    expect(requestBody('POST', path).properties.moderator.required).toEqual(['id']);
    const answer = response('POST', path, 200);
    expect(props(answer)).toEqual(['data', 'success']);
    expect(props(answer.properties.data)).toEqual(data);
    expect(props(answer.properties.data.properties.moderator)).toEqual(['id', 'username']);
  });

  it.each([
    ['approve', '4.6'],
    ['dismiss', '4.7'],
    ['undo', '4.8'],
  ])('%s: data fields of %s', (action, section) => {
    const answer = response('POST', `/v1/reports/{id}/${action}`, 200);
    expect(props(answer.properties.data)).toEqual(fields(spec.table(section, 'Response 200')));
  });

  it('dismiss and unclaim bodies: the fields of 4.7 and 4.5', () => {
    expect(props(requestBody('POST', '/v1/reports/{id}/dismiss'))).toEqual(fields(spec.table('4.7')));
    expect(props(requestBody('POST', '/v1/reports/{id}/unclaim'))).toEqual(['bypassClaimCheck', 'moderator']);
  });

  it('GET /docs serves the documentation page', async () => {
    const res = await fetch(`${sys.baseUrl}/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/swagger/i);
  });
});
