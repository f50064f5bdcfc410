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

  it('declares the error statuses of section 7 with its shape on every endpoint; `errors` only on a 400 with a body', () => {
    for (const e of contract.endpoints) {
      for (const status of contract.errorStatuses) {
        const schema = response(e.method, e.path, status);
        const withErrors = status === 400 && e.body !== undefined;
        expect(props(schema), `${e.method} ${e.path} ${status}`).toEqual(withErrors ? ['errors', 'message', 'success'] : ['message', 'success']);
        expect(schema.required).toEqual(expect.arrayContaining(['success', 'message']));
      }
    }
  });

  it("declares the statuses an extension adds beyond section 7's, in its shape without `errors`", () => {
    const added = contract.extensions.filter((e) => e.moreErrorStatuses);
    expect(added.map((e) => `${e.method} ${e.path}`)).toContain('POST /v1/sanctions');
    for (const e of added) {
      for (const status of e.moreErrorStatuses!) expect(props(response(e.method, e.path, status)), `${e.method} ${e.path} ${status}`).toEqual(['message', 'success']);
    }
  });

  it('every operation, extensions too: operationId and summary, `errors` only where section 7 allows it', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods as Record<string, any>).map(([method, o]) => ({ path, method, o })));
    expect(operations.length).toBeGreaterThanOrEqual(contract.endpoints.length);
    const ids = operations.map(({ o }) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, o } of operations) {
      const name = `${method.toUpperCase()} ${path}`;
      expect(o.operationId, name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(o.summary, name).toMatch(/\S/);
      for (const [status, answer] of Object.entries(o.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        const allowed = status === '400' && o.requestBody !== undefined;
        expect('errors' in (jsonOf(answer.content)?.properties ?? {}), `${name} ${status}`).toBe(allowed);
      }
    }
    for (const e of [...contract.endpoints, ...contract.extensions]) expect(op(e.method, e.path).operationId, `${e.method} ${e.path}`).toBe(e.operationId);
  });

  it('names its servers and licence', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: expect.any(String) })]);
    expect(doc.info.license.name).toMatch(/\S/);
  });

  it('submit id: the pattern of 2.2 keeps its case-insensitive meaning without a regex flag', () => {
    const pattern = new RegExp(response('POST', '/v1/reports/new', 200).properties.id.pattern);
    for (const id of ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B', '00000000-0000-0000-0000-000000000000']) expect(id).toMatch(pattern);
    for (const id of ['0190a1b2-c3d4-9e5f-8a9b-0c1d2e3f4a5b', '0190a1b2-c3d4-7e5f-ca9b-0c1d2e3f4a5b', 'not-a-uuid']) expect(id).not.toMatch(pattern);
  });

  it('bounds nothing on submit where the spec is silent: userId, questionId, evidence url, reporter.id', () => {
    const schema = requestBody('POST', '/v1/reports/new');
    const unbounded = [schema.properties.userId, schema.properties.answers.items.properties.questionId, schema.properties.evidence.items.properties.url, schema.properties.reporter.properties.id];
    for (const field of unbounded) expect(field).toEqual({ type: 'string' });
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
