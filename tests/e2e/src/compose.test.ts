import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LIMITS, SANCTIONS_API_LIMITS } from '@rm/contracts';
import { ROOT } from './harness.js';

// No Docker engine runs here, so the compose file is checked for structure and for staying in step
// with the configuration the services declare and docs/configuration.md documents.
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, any> };
const configuration = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

/** The `server { ... }` blocks of an nginx configuration, brace-matched. */
function nginxServers(conf: string): string[] {
  const blocks: string[] = [];
  for (const m of conf.matchAll(/\bserver\s*\{/g)) {
    let depth = 0;
    for (let i = m.index! + m[0].length - 1; i < conf.length; i++) {
      if (conf[i] === '{') depth++;
      else if (conf[i] === '}' && --depth === 0) {
        blocks.push(conf.slice(m.index!, i + 1));
        break;
      }
    }
  }
  return blocks;
}

/**
 * The body of the location a server serves a path with, by nginx's prefix rules (`^~` and plain
 * prefixes: the longest match wins; the only kinds this configuration uses); undefined when none.
 */
function locationOf(server: string, path: string): string | undefined {
  const locations = [...server.matchAll(/location\s+(?:\^~\s+)?(\S+)\s*\{([^}]*)\}/g)].map((m) => ({ prefix: m[1]!, body: m[2]! }));
  return locations.filter((l) => path.startsWith(l.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0]?.body;
}

/** What a server does with a path: its location's `return` or `proxy_pass` directive. */
function routeOf(server: string, path: string): string {
  return locationOf(server, path)?.match(/(return \d+|proxy_pass \S+?);/)?.[1] ?? 'none';
}
const documented = new Set([...configuration.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));

describe('docker-compose.yml', () => {
  it('runs Redis with AOF and noeviction', () => {
    const command = compose.services['redis'].command.join(' ');
    expect(command).toContain('--appendonly yes');
    expect(command).toContain('--maxmemory-policy noeviction');
  });

  it('runs MongoDB as a replica set and points the apps at it', () => {
    for (const m of ['mongo1', 'mongo2', 'mongo3']) expect(compose.services[m].command).toContain('--replSet');
    expect(compose.services['gateway'].environment.MONGODB_URL).toMatch(/replicaSet=rs0/);
  });

  it('runs two gateways behind a proxy and each worker as its own service with a replica count', () => {
    expect(compose.services['gateway'].deploy.replicas).toBe(2);
    expect(compose.services['proxy'].depends_on).toContain('gateway');
    for (const worker of ['intake-worker', 'moderation-worker', 'notification-worker']) {
      expect(compose.services[worker].command.join(' ')).toContain(`apps/${worker}/dist/main.js`);
      expect(compose.services[worker].deploy.replicas).toBeGreaterThanOrEqual(1);
    }
  });

  it('runs Redis with the fsync policy the docs promise (appendfsync always)', () => {
    expect(compose.services['redis'].command.join(' ')).toContain('--appendfsync always');
    expect(operations).toMatch(/`npm start` uses\s+`appendfsync always`/);
  });

  it('publishes operator pages (/admin/queues, /metrics) only on the operator address, never on the public port', () => {
    const ports: string[] = compose.services['proxy'].ports;
    const publicPort = ports.find((p) => p.startsWith('3000:'));
    const operatorPort = ports.find((p) => p !== publicPort);
    expect(publicPort).toBe('3000:8080');
    // host address:host port:container port, the address an operator's choice, loopback by default.
    expect(operatorPort).toMatch(/^\$\{OPERATOR_ADDRESS:-127\.0\.0\.1\}:\d+:8081$/);
    const servers = nginxServers(readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8'));
    const publicServer = servers.find((b) => /\blisten 8080;/.test(b))!;
    const operatorServer = servers.find((b) => /\blisten 8081;/.test(b))!;
    for (const path of ['/admin/queues', '/admin/queues/static/x.js', '/metrics']) {
      expect(routeOf(publicServer, path), path).toBe('return 404');
      expect(routeOf(operatorServer, path), path).toBe('proxy_pass http://gateways');
    }
    for (const path of ['/v1/reports/new', '/openapi.json', '/health']) expect(routeOf(publicServer, path), path).toBe('proxy_pass http://gateways');
    expect(operations).toMatch(/OPERATOR_ADDRESS/);
  });

  it('lets uploads and ban waves through the proxy, and hands out links that name it', () => {
    const conf = readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8');
    const mib = (size: string) => Number(/^(\d+)([km])$/.exec(size)![1]) * (size.endsWith('m') ? 1024 * 1024 : 1024);
    /** The client_max_body_size that applies to a path: its location's, else the server's. */
    const bodyLimit = (server: string, path: string) => {
      const body = locationOf(server, path) ?? '';
      const size = /client_max_body_size (\S+);/.exec(body)?.[1] ?? /^\s*client_max_body_size (\S+);/m.exec(server.replace(/location[^{]*\{[^}]*\}/g, ''))![1]!;
      return mib(size);
    };
    for (const server of nginxServers(conf)) {
      expect(bodyLimit(server, '/v1/reports/new')).toBe(LIMITS.bodyBytes);
      expect(bodyLimit(server, '/v1/sanctions/batch')).toBeGreaterThanOrEqual(SANCTIONS_API_LIMITS.batchBodyBytes);
      expect(bodyLimit(server, '/v1/evidence/uploads/abc')).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    }
    for (const header of ['X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host']) expect(conf).toMatch(new RegExp(`proxy_set_header ${header} \\$`));
    expect(compose.services['gateway'].environment.TRUSTED_PROXIES).toBeTruthy();
  });

  it('gives every gateway and the evidence worker one data volume (uploads, kept copies, the token key)', () => {
    for (const service of ['gateway', 'evidence-worker', 'cli']) {
      const { environment, volumes } = compose.services[service];
      expect(volumes, service).toContain(`shared-data:${environment.DATA_DIR}`);
      expect(Object.keys(environment), service).toContain('EVIDENCE_TOKEN_SECRET');
    }
  });

  it('sets only variables docs/configuration.md documents', () => {
    // Our processes' variables: Prometheus and Grafana (the monitoring profile) take their own.
    const ours = Object.values(compose.services).filter((s) => !s.profiles?.includes('monitoring'));
    const used = new Set(ours.flatMap((s) => Object.keys(s.environment ?? {})));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((v) => !documented.has(v))).toEqual([]);
  });
});

describe('the monitoring profile of docker-compose.yml', () => {
  const mounts = (service: string) =>
    new Map((compose.services[service].volumes as string[]).filter((v) => v.startsWith('./')).map((v) => [v.split(':')[1]!, v.split(':')[0]!]));

  it('runs Prometheus and Grafana only when asked (profile monitoring), on the operator address', () => {
    for (const service of ['prometheus', 'grafana']) {
      expect(compose.services[service].profiles, service).toEqual(['monitoring']);
      for (const port of compose.services[service].ports as string[]) expect(port, service).toMatch(/^\$\{OPERATOR_ADDRESS:-127\.0\.0\.1\}:/);
    }
  });

  it('loads the files of deploy/monitoring: the scrape configuration, the alerts beside it, the dashboard and its provisioning', () => {
    const prometheus = mounts('prometheus');
    const config = parse(readFileSync(join(ROOT, prometheus.get('/etc/prometheus/prometheus.yml')!), 'utf8')) as { rule_files: string[]; scrape_configs: any[] };
    // rule_files are read relative to the configuration's own folder.
    for (const file of config.rule_files) expect(prometheus.get(`/etc/prometheus/${file}`), file).toBe('./deploy/monitoring/prometheus/alerts.yml');
    const grafana = mounts('grafana');
    expect(grafana.get('/etc/grafana/provisioning')).toBe('./deploy/monitoring/grafana/provisioning');
    const provider = parse(readFileSync(join(ROOT, 'deploy/monitoring/grafana/provisioning/dashboards/report-moderation.yml'), 'utf8')) as { providers: { options: { path: string } }[] };
    expect(grafana.get(provider.providers[0]!.options.path)).toBe('./deploy/monitoring/grafana/dashboards');
    const datasource = parse(readFileSync(join(ROOT, 'deploy/monitoring/grafana/provisioning/datasources/prometheus.yml'), 'utf8')) as { datasources: { url: string }[] };
    expect(datasource.datasources[0]!.url).toBe(`http://prometheus:${(compose.services['prometheus'].ports[0] as string).split(':').at(-1)}`);
  });

  it('scrapes every process of the project on the port that serves its /metrics', () => {
    const config = parse(readFileSync(join(ROOT, 'deploy/monitoring/prometheus/prometheus.yml'), 'utf8')) as { scrape_configs: { dns_sd_configs: { names: string[]; port: number }[] }[] };
    const scraped = new Map(config.scrape_configs.flatMap((c) => c.dns_sd_configs.flatMap((d) => d.names.map((n) => [n, d.port] as const))));
    const apps = Object.entries(compose.services).filter(([, s]) => (s.command as string[] | undefined)?.some((a) => /^apps\/.*\/dist\/main\.js$/.test(a)));
    expect(apps.length).toBe(5);
    for (const [name, s] of apps) expect(scraped.get(name), name).toBe(Number(s.environment.PORT ?? s.environment.METRICS_PORT));
  });
});

describe('the configuration table (docs/configuration.md)', () => {
  it('documents only variables some process declares', async () => {
    const { readdirSync, statSync } = await import('node:fs');
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (entry === 'node_modules' || entry === 'dist') continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) sources.push(readFileSync(path, 'utf8'));
      }
    };
    for (const root of ['apps', 'packages']) walk(join(ROOT, root));
    const code = sources.join('\n');
    expect(documented.size).toBeGreaterThan(20);
    expect([...documented].filter((v) => !new RegExp(`\\b${v}:`).test(code))).toEqual([]);
  });
});
