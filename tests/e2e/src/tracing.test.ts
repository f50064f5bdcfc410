import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from './harness.js';

// One report's way through the system, followed from outside: every process exports its spans
// over OTLP/HTTP (JSON) to a small receiver on 127.0.0.1, and the test joins them by trace id.

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; arrayValue?: { values: OtlpValue[] } };
const valueOf = (v: OtlpValue): unknown => v.stringValue ?? v.intValue ?? v.boolValue ?? v.arrayValue?.values.map(valueOf);
const attributesOf = (list: { key: string; value: OtlpValue }[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** An OTLP/HTTP trace receiver (JSON encoding) keeping every span it is sent. */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: any[] }[] }[] };
      for (const rs of parsed.resourceSpans) {
        const service = String(attributesOf(rs.resource.attributes)['service.name']);
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            this.spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, attributes: attributesOf(s.attributes), links: s.links ?? [] });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((ok) => this.server.close(() => ok()));
  }
}

const TEXT = 'He used an aimbot in ranked, see my clip';
const URL_ = 'https://clips.example/tracing-54';

let receiver: OtlpReceiver;
let sys: System;
let admin: Key;

beforeAll(async () => {
  receiver = new OtlpReceiver();
  await receiver.start();
  // Spans leave each process every 100 ms instead of every 5 s.
  sys = await System.start({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', CASE_SYNC_DELAY_MS: '0' } });
  admin = await sys.createKey(['--admin']);
  await sys.addUser('5454', 'secretname54', 'Secret Display 54');
  await sys.addModerator('mod-t54', 'tracer54');
}, 60_000);
afterAll(async () => {
  await sys?.stop();
  await receiver?.close();
});

const spansOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
const find = (pred: (s: ReceivedSpan) => boolean) => receiver.spans.find(pred);

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  let reportId: string;
  let submit: ReceivedSpan;

  it("one trace joins the gateway's submit span to the intake worker's store span", async () => {
    const res = await sys.post('/v1/reports/new', admin.auth, report('5454', 'rep-t54', { answers: [{ questionId: 'q1', answer: TEXT }], evidence: [{ url: URL_, type: 'url' }] }));
    expect(res.status).toBe(200);
    reportId = res.body.id;
    await sys.waitFor(async () => Boolean(find((s) => s.service === 'gateway' && s.name === 'POST /v1/reports/new')), 20_000, 'the submit span');
    submit = find((s) => s.service === 'gateway' && s.name === 'POST /v1/reports/new')!;
    expect(submit.attributes['http.route']).toBe('/v1/reports/new');
    await sys.waitFor(async () => spansOf(submit.traceId).some((s) => s.service === 'intake-worker' && s.name === 'store saveReports'), 20_000, "the intake worker's store span in the submit's trace");
    const trace = spansOf(submit.traceId);
    // The gateway's intake turn is the hop from the requests to their batched job: it continues the
    // first sampled request, links every one, and the intake worker's span continues it.
    const enqueue = trace.find((s) => s.service === 'gateway' && s.name === 'intake enqueue')!;
    expect(enqueue.parentSpanId).toBe(submit.spanId);
    expect(enqueue.links.map((l) => l.spanId)).toContain(submit.spanId);
    const consumer = trace.find((s) => s.service === 'intake-worker' && s.name === 'intake process')!;
    expect(consumer.parentSpanId).toBe(enqueue.spanId);
    expect(consumer.links.map((l) => l.spanId)).toContain(submit.spanId);
    // The gateway's Redis commands (the reservations) are client spans of the turn, named by command only.
    const redisSpan = trace.find((s) => s.service === 'gateway' && s.name.startsWith('redis ') && s.parentSpanId === enqueue.spanId);
    expect(redisSpan?.attributes).toEqual({ 'db.system.name': 'redis', 'db.operation.name': redisSpan?.name.slice('redis '.length) });
    const stored = trace.find((s) => s.name === 'intake store')!;
    expect(stored.parentSpanId).toBe(consumer.spanId);
    expect(stored.attributes['rm.report_ids']).toEqual([reportId]);
  }, 60_000);

  it("a caller's traceparent is continued, and a request it left unsampled leaves no span in any process", async () => {
    const traceOf = (flags: string) => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-${flags}`;
    const [sampled, unsampled] = [traceOf('01'), traceOf('00')];
    const ids: string[] = [];
    for (const [i, traceparent] of [sampled, unsampled].entries()) {
      const res = await sys.request('POST', '/v1/reports/new', { auth: admin.auth, headers: { traceparent }, body: report('5454', `rep-t54-${i}`) });
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
    const storedSpan = (id: string) => find((s) => s.name === 'intake store' && (s.attributes['rm.report_ids'] as string[]).includes(id));
    await sys.waitFor(async () => Boolean(storedSpan(ids[0]!)), 20_000, 'the sampled report stored');
    expect(storedSpan(ids[0]!)!.traceId).toBe(sampled.slice(3, 35));
    // Stored too, yet no process made a span of it: the sampler's verdict rode with the job.
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${ids[1]}`, admin.auth)).status === 200, 20_000, 'the unsampled report stored');
    await new Promise((ok) => setTimeout(ok, 500));
    expect(spansOf(unsampled.slice(3, 35))).toEqual([]);
    expect(storedSpan(ids[1]!)).toBeUndefined();
  }, 60_000);

  it('the decision continues its request, and its effects (the case message) continue the decision', async () => {
    expect((await sys.post(`/v1/reports/${reportId}/claim`, admin.auth, { moderator: { id: 'mod-t54' } })).status).toBe(200);
    // The request's span ends after its answer: both are waited for.
    await sys.waitFor(async () => Boolean(find((s) => s.name === 'decision claim') && find((s) => s.name === 'POST /v1/reports/:id/claim')), 20_000, 'the decision and request spans');
    const decision = find((s) => s.name === 'decision claim')!;
    const request = find((s) => s.service === 'gateway' && s.name === 'POST /v1/reports/:id/claim')!;
    expect(decision.traceId).toBe(request.traceId);
    expect(decision.attributes['rm.report_id']).toBe(reportId);
    expect(decision.attributes['rm.case_id']).toEqual(expect.any(String));
    await sys.waitFor(async () => spansOf(decision.traceId).some((s) => s.service === 'notification-worker' && s.name === 'notifications process'), 20_000, "a notification job's span in the decision's trace");
    // The store call of every process is a client span of its own, named by its method and store only.
    const transition = spansOf(decision.traceId).find((s) => s.service === 'moderation-worker' && s.name === 'store transitionCase');
    expect(transition?.attributes).toEqual({ 'db.system.name': 'sqlite', 'db.operation.name': 'transitionCase' });
  }, 60_000);

  it('a store call or Redis command is never a trace of its own: only a part of a request\'s or a job\'s', () => {
    const roots = receiver.spans.filter((s) => /^(store|redis) /.test(s.name) && s.parentSpanId === '');
    expect(roots.map((s) => `${s.service}: ${s.name}`)).toEqual([]);
  });

  it('no span carries report text, names, evidence URLs or secrets', () => {
    expect(receiver.spans.length).toBeGreaterThan(5);
    const everything = JSON.stringify(receiver.spans.map((s) => [s.name, s.attributes]));
    for (const forbidden of [TEXT, URL_, 'secretname54', 'Secret Display 54', admin.secret]) expect(everything).not.toContain(forbidden);
  });
});
