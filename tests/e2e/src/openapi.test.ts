import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System } from './harness.js';
import { endpoint, loadContract, names, requiredNames, type ObjectSpec } from './spec.js';

// The OpenAPI document is generated from the zod schemas the gateway validates with; this diffs it
// against the committed contract (docs/contract/report-moderation-api.json): paths, fields and
// constraints, so neither can drift from the other.
let sys: System;
let doc: any;
const contract = loadContract();

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
const body = (method: string, path: string) => endpoint(contract, method, path).body!;
const nested = (o: ObjectSpec, name: string) => o[name] as ObjectSpec;

describe('GET /openapi.json', () => {
  it('is OpenAPI 3 with exactly the contract\'s endpoints under /v1', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe(contract.version);
    const expected = [...contract.endpoints, ...contract.extensions].map((e) => `${e.method} ${e.path}`).sort();
    const actual = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/v1'))
      .flatMap(([p, methods]) => Object.keys(methods as object).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(actual).toEqual(expected);
  });

  it('declares the error statuses of section 7 with its shape on every endpoint', () => {
    for (const e of contract.endpoints) {
      for (const status of contract.errorStatuses) {
        const schema = response(e.method, e.path, status);
        expect(props(schema), `${e.method} ${e.path} ${status}`).toEqual(['errors', 'message', 'success']);
        expect(schema.required).toEqual(expect.arrayContaining(['success', 'message']));
      }
    }
  });

  it('submit body: fields, required fields, enums and bounds of 2.1 and 8; nothing else allowed', () => {
    const schema = requestBody('POST', '/v1/reports/new');
    const c = body('POST', '/v1/reports/new');
    expect(props(schema)).toEqual(names(c.fields));
    expect(schema.additionalProperties).toBe(false);
    expect([...schema.required].sort()).toEqual(requiredNames(c.fields));
    expect(schema.properties.reportType.enum).toEqual(c.fields.reportType!.enum);
    expect([schema.properties.answers.minItems, schema.properties.answers.maxItems]).toEqual(c.fields.answers!.items);
    expect([schema.properties.evidence.minItems, schema.properties.evidence.maxItems]).toEqual(c.fields.evidence!.items);

    const answer = schema.properties.answers.items;
    const ca = nested(c, 'answer');
    expect(props(answer)).toEqual(names(ca.fields));
    expect(answer.additionalProperties).toBe(false);
    expect([answer.properties.answer.minLength, answer.properties.answer.maxLength]).toEqual(ca.fields.answer!.length);

    const evidence = schema.properties.evidence.items;
    const ce = nested(c, 'evidence');
    expect(props(evidence)).toEqual(names(ce.fields));
    expect(evidence.properties.type.enum).toEqual(ce.fields.type!.enum);
    expect(evidence.properties.createEvidence.type).toBe('boolean');

    const reporter = schema.properties.reporter;
    const cr = nested(c, 'reporter');
    expect(props(reporter)).toEqual(names(cr.fields));
    expect(reporter.properties.platform.enum).toEqual(cr.fields.platform!.enum);
  });

  it('submit answer: the fields of 2.2', () => {
    const schema = response('POST', '/v1/reports/new', 200);
    const fields = endpoint(contract, 'POST', '/v1/reports/new').response.fields!;
    expect(props(schema)).toEqual(names(fields));
    expect([...schema.required].sort()).toEqual(requiredNames(fields));
  });

  it('check: the request and answer fields of 4.2, the user summary of 2.6', () => {
    const e = endpoint(contract, 'POST', '/v1/reports/check');
    expect(props(requestBody('POST', '/v1/reports/check'))).toEqual(names(e.body!.fields));
    const answer = response('POST', '/v1/reports/check', 200);
    expect(props(answer)).toEqual(names(e.response.fields));
    expect(props(answer.properties.user)).toEqual(names(e.response.fields!.user!.fields));
    expect(answer.properties.user.properties.id.type).toBe('integer');
  });

  it('list: the answer of 4.3 with the entries of 2.5', () => {
    const fields = endpoint(contract, 'GET', '/v1/reports/{id}').response.fields!;
    const answer = response('GET', '/v1/reports/{id}', 200);
    expect(props(answer)).toEqual(names(fields));
    expect(props(answer.properties.reports.items)).toEqual(names(fields.reports!.entry));
    expect(answer.properties.reports.items.properties.reportTimeStamp.type).toBe('integer');
  });

  it.each(['claim', 'unclaim', 'approve', 'dismiss', 'undo'])('%s: body with moderator.id, data of 4.4-4.8', (action) => {
    const path = `/v1/reports/{id}/${action}`;
    expect(requestBody('POST', path).properties.moderator.required).toEqual(['id']);
    const answer = response('POST', path, 200);
    expect(props(answer)).toEqual(['data', 'success']);
    expect(props(answer.properties.data)).toEqual([...endpoint(contract, 'POST', path).response.data!].sort());
    expect(props(answer.properties.data.properties.moderator)).toEqual(['id', 'username']);
  });

  it('dismiss and unclaim bodies: the fields of 4.7 and 4.5', () => {
    expect(props(requestBody('POST', '/v1/reports/{id}/dismiss'))).toEqual(names(body('POST', '/v1/reports/{id}/dismiss').fields));
    expect(props(requestBody('POST', '/v1/reports/{id}/unclaim'))).toEqual(names(body('POST', '/v1/reports/{id}/unclaim').fields));
  });

  it('GET /docs serves the documentation page', async () => {
    const res = await fetch(`${sys.baseUrl}/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/swagger/i);
  });
});
