import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, System } from '../harness.js';
import { PrivateRedis } from '../private-redis.js';

// Issue 18 item 6: every process checks the Redis it is given at start. An evicting Redis is
// refused with one clear line; AOF off is one warning line at start and shown by /ready.
const started: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.stop();
});

/** `npm start`'s check of a Redis it would reuse (tools/dev/lib/redis.mjs), run as its own process. */
function launcherCheck(port: number) {
  const lib = join(ROOT, 'tools/dev/lib/redis.mjs');
  const script = `import { checkReusedRedis } from ${JSON.stringify(lib)}; await checkReusedRedis('127.0.0.1', ${port});`;
  return new Promise<{ code: number; stderr: string }>((ok) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 }, (err, _stdout, stderr) => ok({ code: err ? Number(err.code ?? 1) : 0, stderr }));
  });
}

describe('an evicting Redis (maxmemory-policy allkeys-lru)', () => {
  it('the gateway and a worker refuse to start, with one line saying why; so does npm start', async () => {
    const redis = await PrivateRedis.start(['--maxmemory-policy', 'allkeys-lru']);
    started.push(redis);
    for (const app of ['gateway', 'intake'] as const) {
      const failure = await System.start({ apps: [app], env: { REDIS_URL: redis.url } }).then(
        () => 'started',
        (err: Error) => err.message,
      );
      expect(failure, app).toMatch(new RegExp(`${app === 'intake' ? 'intake' : 'gateway'} exited`));
      const lines = failure.split('\n').filter((l) => l.includes('maxmemory-policy'));
      expect(lines, app).toHaveLength(1);
      expect(lines[0]).toMatch(/invalid configuration: Redis maxmemory-policy is allkeys-lru; it must be noeviction/);
    }
    const launcher = await launcherCheck(redis.port);
    expect(launcher.code).not.toBe(0);
    expect(launcher.stderr).toMatch(/has maxmemory-policy allkeys-lru; it must be noeviction/);
  }, 90_000);
});

describe('a Redis with AOF off', () => {
  it('each process warns once at start, /ready of the gateway and the worker shows it, both still ready', async () => {
    const redis = await PrivateRedis.start(['--appendonly', 'no']);
    started.push(redis);
    const metricsPort = await freePort();
    const sys = await System.start({ apps: ['gateway', 'intake'], env: { REDIS_URL: redis.url, LOG_LEVEL: 'info' }, appEnv: { intake: { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' } } });
    started.push(sys);
    for (const app of ['gateway', 'intake'] as const) {
      await sys.waitFor(async () => sys.logsOf(app).includes('AOF is off'), 10_000, `${app}'s warning`);
      const warnings = sys
        .logsOf(app)
        .split('\n')
        .filter((l) => l.includes('AOF is off'));
      expect(warnings, app).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40 });
    }
    for (const url of [`${sys.baseUrl}/ready`, `http://127.0.0.1:${metricsPort}/ready`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      const body = (await res.json()) as { status: string; warnings: string[] };
      expect(body.status).toBe('ready');
      expect(body.warnings).toEqual([expect.stringMatching(/^Redis AOF is off: a Redis restart loses/)]);
    }
    const launcher = await launcherCheck(redis.port);
    expect(launcher.code).toBe(0);
    expect(launcher.stderr).toMatch(/warning: the Redis on 127\.0\.0\.1:\d+ has AOF off/);
  }, 90_000);

  it('a Redis that hides CONFIG (as managed services do): it starts, and says it could not check', async () => {
    const redis = await PrivateRedis.start(['--rename-command', 'CONFIG', '']);
    started.push(redis);
    const sys = await System.start({ apps: ['gateway'], env: { REDIS_URL: redis.url, LOG_LEVEL: 'info' } });
    started.push(sys);
    const body = (await (await fetch(`${sys.baseUrl}/ready`)).json()) as { status: string; warnings: string[] };
    expect(body.status).toBe('ready');
    expect(body.warnings).toEqual([expect.stringMatching(/^Redis settings could not be checked \(CONFIG GET is not allowed\)/)]);
    expect(sys.logsOf('gateway').split('\n').filter((l) => l.includes('could not be checked'))).toHaveLength(1);
  });

  it('a Redis with AOF on and noeviction: no warning, /ready lists none', async () => {
    const redis = await PrivateRedis.start();
    started.push(redis);
    const sys = await System.start({ apps: ['gateway'], env: { REDIS_URL: redis.url, LOG_LEVEL: 'info' } });
    started.push(sys);
    const body = (await (await fetch(`${sys.baseUrl}/ready`)).json()) as { warnings: string[] };
    expect(body.warnings).toEqual([]);
    expect(sys.logsOf('gateway')).not.toMatch(/AOF is off|could not be checked/);
  });
});
