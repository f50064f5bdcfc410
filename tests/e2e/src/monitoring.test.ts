import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { freePort, report, ROOT, System, type AppName } from './harness.js';

// deploy/monitoring: the alerting rules checked and unit-tested by promtool, each alert with its
// runbook, the dashboard's queries valid PromQL, and every metric the dashboard and the rules name
// served by a running system's /metrics.

const MONITORING = join(ROOT, 'deploy/monitoring');
const RULES = join(MONITORING, 'prometheus/alerts.yml');
const PROMTOOL = process.env['PROMTOOL_PATH'] ?? '/usr/bin/promtool';

type Rule = { alert: string; expr: string; annotations: Record<string, string> };
const rules = (parse(readFileSync(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(readFileSync(join(MONITORING, 'grafana/dashboards/report-moderation.json'), 'utf8')) as { panels: { type: string; title: string; datasource?: { uid: string }; targets?: { expr: string }[] }[] };
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

function promtool(...args: string[]): { status: number | null; output: string } {
  try {
    accessSync(PROMTOOL, constants.X_OK);
  } catch {
    throw new Error(`no promtool at ${PROMTOOL}: run the tests with \`npm test\` (it installs Debian's prometheus package when it can), or \`apt-get install prometheus\`, or set PROMTOOL_PATH`);
  }
  const run = spawnSync(PROMTOOL, args, { encoding: 'utf8', cwd: join(MONITORING, 'prometheus') });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/**
 * The metric names a PromQL expression reads: what is left once label matchers, strings, ranges,
 * `by (...)`/`without (...)` lists, functions (a name before `(`), keywords and numbers are gone.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\S+/g, ' ');
  const keywords = new Set(['and', 'or', 'unless', 'bool']);
  const names = [...bare.matchAll(/([a-zA-Z_:][\w:]*)(\s*\()?/g)].filter((m) => m[2] === undefined && !keywords.has(m[1]!)).map((m) => m[1]!);
  return [...new Set(names)];
}

describe('alerting rules (deploy/monitoring/prometheus)', () => {
  it('promtool checks the rules and the Prometheus configuration that loads them', () => {
    const rulesCheck = promtool('check', 'rules', 'alerts.yml');
    expect(rulesCheck.status, rulesCheck.output).toBe(0);
    expect(rulesCheck.output).toContain(`SUCCESS: ${rules.length} rules found`);
    const configCheck = promtool('check', 'config', 'prometheus.yml');
    expect(configCheck.status, configCheck.output).toBe(0);
  });

  it("promtool's unit tests pass, and every alert has one where it fires and one where it stays silent", () => {
    const run = promtool('test', 'rules', 'alerts.test.yml');
    expect(run.status, run.output).toBe(0);
    const tests = (parse(readFileSync(join(MONITORING, 'prometheus/alerts.test.yml'), 'utf8')) as { tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests;
    const evals = tests.flatMap((t) => t.alert_rule_test);
    for (const { alert } of rules) {
      expect(evals.some((e) => e.alertname === alert && e.exp_alerts.length > 0), `${alert} fires in a test`).toBe(true);
      expect(evals.some((e) => e.alertname === alert && e.exp_alerts.length === 0), `${alert} stays silent in a test`).toBe(true);
    }
  });

  it('a broken rule is caught: the unit tests fail when a threshold moves', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rm-rules-'));
    try {
      writeFileSync(join(dir, 'alerts.yml'), readFileSync(RULES, 'utf8').replace('rm_dependency_up{dependency="redis"} == 0', 'rm_dependency_up{dependency="redis"} == 2'));
      writeFileSync(join(dir, 'alerts.test.yml'), readFileSync(join(MONITORING, 'prometheus/alerts.test.yml'), 'utf8'));
      const run = spawnSync(PROMTOOL, ['test', 'rules', 'alerts.test.yml'], { encoding: 'utf8', cwd: dir });
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toContain('alertname: RedisUnavailable');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every alert names its runbook: a section of docs/operations.md with its name', () => {
    const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
    const headings = new Set([...operations.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!.trim()));
    for (const { alert, annotations } of rules) {
      expect(annotations['runbook'], alert).toBe(`docs/operations.md#${alert.toLowerCase()}`);
      expect(headings.has(alert), `docs/operations.md has a section "${alert}"`).toBe(true);
      expect(annotations['summary'], alert).toBeTruthy();
    }
  });
});

describe('the Grafana dashboard (deploy/monitoring/grafana)', () => {
  it('every query is valid PromQL (checked by promtool as recording rules) over the datasource variable', () => {
    expect(dashboardExprs.length).toBeGreaterThan(20);
    const dir = mkdtempSync(join(tmpdir(), 'rm-dashboard-'));
    try {
      // Grafana's own variable is not PromQL: a fixed range stands in for it.
      const asRules = { groups: [{ name: 'dashboard', rules: dashboardExprs.map((e, i) => ({ record: `dashboard:query_${i}`, expr: e.expr.replaceAll('$__rate_interval', '5m') })) }] };
      writeFileSync(join(dir, 'dashboard.rules.yml'), stringify(asRules));
      const run = promtool('check', 'rules', join(dir, 'dashboard.rules.yml'));
      expect(run.status, run.output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const p of dashboard.panels.filter((x) => x.type !== 'row')) expect(p.datasource?.uid, p.title).toBe('${datasource}');
  });

  it('shows what the issue asks for: intake, queues, decisions, SLA, dead letters, platforms, the ban API and feed, memory', () => {
    const titles = dashboard.panels.map((p) => p.title.toLowerCase()).join('\n');
    for (const topic of ['submit', 'waiting', 'oldest', 'decision latency', 'sla', 'dead letters', 'platform', 'ban api', 'memory']) expect(titles, topic).toContain(topic);
  });

  it('reads metric names out of PromQL', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le, queue) (rate(rm_job_duration_seconds_bucket{queue="x"}[5m])))')).toEqual(['rm_job_duration_seconds_bucket']);
    expect(metricNames('max by (service) (rm_ready{service=~"a|b"}) == 0 or absent(rm_ready{service="c"})')).toEqual(['rm_ready']);
    expect(metricNames('sum(rate(a_total[5m])) / sum(rate(b_total[5m])) > 0.05')).toEqual(['a_total', 'b_total']);
  });
});

describe('every metric the dashboard and the rules name is served by a running system', () => {
  let sys: System;
  const ports = new Map<AppName, number>();
  beforeAll(async () => {
    for (const app of ['intake', 'moderation', 'notification', 'evidence'] as const) ports.set(app, await freePort());
    sys = await System.start({ appEnv: Object.fromEntries([...ports].map(([app, port]) => [app, { METRICS_PORT: String(port) }])) });
  }, 60_000);
  afterAll(() => sys?.stop());

  it('each name is on some process /metrics after a submit, a refusal, a stored report and a decision', async () => {
    const admin = await sys.createKey(['--admin']);
    await sys.addUser('5401');
    await sys.addModerator('mod-54', 'moderator54');
    const submitted = await sys.post('/v1/reports/new', admin.auth, report('5401', 'r-5401'));
    expect(submitted.status).toBe(200);
    await sys.waitFor(async () => (await sys.get('/v1/reports/5401', admin.auth)).body.count === 1, 20_000, 'the report stored');
    // The same reporter again on the open case: refused as a duplicate (rm_refusals_total).
    expect((await sys.post('/v1/reports/new', admin.auth, report('5401', 'r-5401'))).status).toBe(400);
    expect((await sys.post(`/v1/reports/${submitted.body.id as string}/claim`, admin.auth, { moderator: { id: 'mod-54' } })).status).toBe(200);
    expect((await sys.get('/v1/sanctions/5401', admin.auth)).status).toBe(200);
    expect((await sys.get('/v1/sanctions', admin.auth)).status).toBe(200);

    const scrapes = await Promise.all([sys.baseUrl, ...[...ports.values()].map((p) => `http://127.0.0.1:${p}`)].map((base) => fetch(`${base}/metrics`).then((r) => r.text())));
    const served = new Set(scrapes.flatMap((text) => [...text.matchAll(/^([a-zA-Z_:][\w:]*)(?:\{| )/gm)].map((m) => m[1]!)));
    const named = new Map<string, string>();
    for (const { alert, expr } of rules) for (const n of metricNames(expr)) named.set(n, `alert ${alert}`);
    for (const { panel, expr } of dashboardExprs) for (const n of metricNames(expr)) named.set(n, `panel "${panel}"`);
    expect(named.size).toBeGreaterThan(15);
    expect([...named].filter(([name]) => !served.has(name)).map(([name, where]) => `${name} (${where})`)).toEqual([]);
  }, 60_000);
});
