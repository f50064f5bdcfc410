import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './harness.js';

// No Docker engine runs here, so the compose file is checked for structure and for staying in step
// with the configuration the services declare and the README documents.
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, any> };
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));

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

  it('sets only variables the README documents', () => {
    const used = new Set(Object.values(compose.services).flatMap((s) => Object.keys(s.environment ?? {})));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((v) => !documented.has(v))).toEqual([]);
  });
});

describe('the README configuration table', () => {
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
