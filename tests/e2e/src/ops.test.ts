import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, report, System, type Key } from './harness.js';

// What an operator watches: liveness, readiness and Prometheus metrics on the gateway and on a
// worker's own ops port, and a request id that follows one report from HTTP to the worker's log.
let sys: System;
let admin: Key;
let intakeOps: string;

beforeAll(async () => {
  const port = await freePort();
  intakeOps = `http://127.0.0.1:${port}`;
  sys = await System.start({ apps: ['gateway', 'intake'], appEnv: { gateway: { MAX_REPORTS_PER_DAY: '1' }, intake: { METRICS_PORT: String(port), LOG_LEVEL: 'info' } } });
  admin = await sys.createKey(['--admin']);
  await sys.addUser('910');
  await sys.addUser('911');
});
afterAll(() => sys?.stop());

/** The value of the sample `name{labels...}` in a Prometheus text scrape, or undefined. */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of scrape.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = new Map([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}

async function scrape(base: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${base}/metrics`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

describe('gateway ops endpoints', () => {
  it('GET /health answers 200 {status: ok} without an API key', async () => {
    const r = await getJson(`${sys.baseUrl}/health`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok' });
  });

  it('GET /ready answers 200 once Redis and the store answer', async () => {
    const r = await getJson(`${sys.baseUrl}/ready`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ready', redis: true, store: true });
  });

  it('GET /metrics: request counts and latency by route template and status, queue depth, process metrics', async () => {
    expect((await sys.post('/v1/reports/check', admin.auth, { userId: '910', reporterId: 'ops-1' })).status).toBe(200);
    expect((await sys.post('/v1/reports/check', admin.auth, { userId: '910', reporterId: 'ops-1' })).status).toBe(200);
    expect((await sys.get('/v1/reports/910', 'rk_nope:nope')).status).toBe(401);
    const m = await scrape(sys.baseUrl);
    expect(m.status).toBe(200);
    expect(m.type).toMatch(/^text\/plain/);
    expect(m.text).toContain('# TYPE rm_http_requests_total counter');
    expect(sample(m.text, 'rm_http_requests_total', { route: '/v1/reports/check', method: 'POST', status: '200', service: 'gateway' })).toBeGreaterThanOrEqual(2);
    // The route template, not the URL: one series for every user id.
    expect(sample(m.text, 'rm_http_requests_total', { route: '/v1/reports/:id', method: 'GET', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(m.text).not.toContain('route="/v1/reports/910"');
    expect(sample(m.text, 'rm_http_request_duration_seconds_bucket', { route: '/v1/reports/check', method: 'POST', status: '200', le: '+Inf' })).toBeGreaterThanOrEqual(2);
    expect(sample(m.text, 'rm_http_request_duration_seconds_count', { route: '/v1/reports/check', status: '200' })).toBeGreaterThanOrEqual(2);
    for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed']) {
      expect(sample(m.text, 'rm_queue_jobs', { queue: 'intake', state }), state).toBeGreaterThanOrEqual(0);
    }
    expect(sample(m.text, 'rm_queue_jobs', { queue: 'decisions', state: 'waiting' })).toBeGreaterThanOrEqual(0);
    expect(sample(m.text, 'process_resident_memory_bytes', { service: 'gateway' })).toBeGreaterThan(0);
  });

  it("the ban API's answers kept in the gateway's memory: rm_memory_cache_active, _entries and _bytes", async () => {
    expect((await sys.get('/v1/sanctions/910', admin.auth)).status).toBe(200);
    expect((await sys.get('/v1/sanctions/910', admin.auth)).status).toBe(200);
    const m = await scrape(sys.baseUrl);
    expect(sample(m.text, 'rm_memory_cache_active', { cache: 'sanction-status', service: 'gateway' })).toBe(1);
    expect(sample(m.text, 'rm_memory_cache_entries', { cache: 'sanction-status' })).toBeGreaterThanOrEqual(1);
    expect(sample(m.text, 'rm_memory_cache_bytes', { cache: 'sanction-status' })).toBeGreaterThan(0);
  });

  it('a request refused by the rate limit is counted in rm_refusals_total{reason="rate"}', async () => {
    const before = sample((await scrape(sys.baseUrl)).text, 'rm_refusals_total', { reason: 'rate' }) ?? 0;
    const limited = await sys.createKey(['--permission', 'reports.view_reports', '--rate-limit', '1']);
    expect((await sys.get('/v1/reports/910', limited.auth)).status).toBe(200);
    expect((await sys.get('/v1/reports/910', limited.auth)).status).toBe(429);
    const m = await scrape(sys.baseUrl);
    expect(sample(m.text, 'rm_refusals_total', { reason: 'rate', service: 'gateway' })).toBe(before + 1);
    expect(sample(m.text, 'rm_http_requests_total', { route: '/v1/reports/:id', method: 'GET', status: '429' })).toBeGreaterThanOrEqual(1);
  });

  it('a report refused by the daily maximum is counted in rm_refusals_total{reason="daily"}', async () => {
    const before = sample((await scrape(sys.baseUrl)).text, 'rm_refusals_total', { reason: 'daily' }) ?? 0;
    expect((await sys.post('/v1/reports/new', admin.auth, report('910', 'ops-daily'))).status).toBe(200);
    expect((await sys.post('/v1/reports/new', admin.auth, report('911', 'ops-daily'))).status).toBe(429);
    expect(sample((await scrape(sys.baseUrl)).text, 'rm_refusals_total', { reason: 'daily', service: 'gateway' })).toBe(before + 1);
  });
});

describe('intake worker ops port (METRICS_PORT)', () => {
  it('GET /health and /ready answer 200; anything else is a 404', async () => {
    const health = await getJson(`${intakeOps}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', service: 'intake-worker' });
    const ready = await getJson(`${intakeOps}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready' });
    expect((await fetch(`${intakeOps}/nope`)).status).toBe(404);
  });

  it('a stored report is counted in rm_jobs_total{outcome="completed"} and timed in rm_job_duration_seconds', async () => {
    const res = await sys.post('/v1/reports/new', admin.auth, report('910', 'ops-metrics'));
    expect(res.status).toBe(200);
    await sys.waitFor(async () => (await sys.queue('intake').getJob(res.body.id))?.isCompleted() ?? false, 15_000, 'the intake job to complete');
    // The counter moves on BullMQ's `completed` event, a moment after the job is marked completed.
    let text = '';
    await sys.waitFor(async () => {
      text = (await scrape(intakeOps)).text;
      return (sample(text, 'rm_jobs_total', { queue: 'intake', outcome: 'completed' }) ?? 0) >= 1;
    }, 5_000, 'rm_jobs_total to count the job');
    expect(sample(text, 'rm_jobs_total', { queue: 'intake', outcome: 'completed', service: 'intake-worker' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'rm_job_duration_seconds_count', { queue: 'intake' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'rm_job_duration_seconds_bucket', { queue: 'intake', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'rm_queue_jobs', { queue: 'intake', state: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'process_resident_memory_bytes', { service: 'intake-worker' })).toBeGreaterThan(0);
  });
});

describe('request id', () => {
  const storedLines = () =>
    sys
      .logsOf('intake')
      .split('\n')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      })
      .filter((l) => l['msg'] === 'report stored');

  it('x-request-id given on a submit appears in the intake worker\'s log line next to the stored report id', async () => {
    const res = await sys.request('POST', '/v1/reports/new', { auth: admin.auth, body: report('910', 'ops-trace'), headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    await sys.waitFor(async () => storedLines().some((l) => l['reportId'] === id), 15_000, 'the worker to log the stored report');
    expect(storedLines().find((l) => l['reportId'] === id)).toMatchObject({ reportId: id, requestId: 'trace-abc-123', service: 'intake-worker', level: 30 });
  });

  it('without a usable x-request-id the gateway gives the request one of its own, which travels the same way', async () => {
    const res = await sys.request('POST', '/v1/reports/new', { auth: admin.auth, body: report('910', 'ops-trace-2'), headers: { 'x-request-id': 'spaces are not allowed' } });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    await sys.waitFor(async () => storedLines().some((l) => l['reportId'] === id), 15_000, 'the worker to log the stored report');
    const line = storedLines().find((l) => l['reportId'] === id)!;
    expect(line['requestId']).toEqual(expect.stringMatching(/^[\w.-]{1,64}$/));
    expect(line['requestId']).not.toBe('spaces are not allowed');
  });
});
