import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS, ROOT, runNode, System } from './harness.js';

let sys: System;

beforeAll(async () => {
  sys = await System.start({ apps: [] });
});
afterAll(() => sys?.stop());

const expectOneLineError = (r: { code: number; stderr: string; stdout: string }, pattern: RegExp) => {
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
};

it('a reader that stops early (`rm queues | head -1`) ends the run quietly: exit 0, nothing on stderr', async () => {
  const child = spawn(process.execPath, [join(ROOT, 'tools/cli/dist/main.js'), 'queues'], { env: sys.env, cwd: ROOT });
  // The reading end closed before the CLI writes a line: its first write meets a closed pipe.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  expect(stderr).toBe('');
  expect(code).toBe(0);
});

describe('apikey', () => {
  it('create --json prints exactly one JSON object and stores only a hash of the secret', async () => {
    const r = await sys.cli(['apikey', 'create', '--name', 'game-server', '--permission', 'reports.submit_report', '--permission', 'reports.view_reports', '--elevated', '--rate-limit', '600', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['admin', 'elevated', 'key', 'moderatorId', 'name', 'permissions', 'rateLimit', 'secret']);
    expect(out.moderatorId).toBeNull();
    expect(out).toMatchObject({ name: 'game-server', permissions: ['reports.submit_report', 'reports.view_reports'], elevated: true, admin: false, rateLimit: 600 });
    const db = readFileSync(join(sys.dataDir, 'reports.db'));
    expect(db.includes(out.key)).toBe(true);
    expect(db.includes(out.secret)).toBe(false);
  });

  it('create without --json prints the key and the secret once', async () => {
    const r = await sys.cli(['apikey', 'create', '--name', 'bot', '--admin']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/key:\s+rk_/);
    expect(r.stdout).toMatch(/secret:\s+\S{40,}/);
  });

  it.each([
    [['--name', 'x', '--permission', 'reports.everything'], /unknown permission reports\.everything/],
    [['--permission', 'reports.view_reports'], /--name/],
    [['--name', 'x'], /at least one --permission/],
    [['--name', 'x', '--admin', '--rate-limit', '0'], /--rate-limit/],
    [['--name', 'x', '--admin', '--rate-limit', 'lots'], /--rate-limit/],
  ])('create %j fails with one clear line', async (args, pattern) => {
    expectOneLineError(await sys.cli(['apikey', 'create', ...args]), pattern);
  });

  it('list shows keys without secrets; revoke marks one revoked, once', async () => {
    const created = JSON.parse((await sys.cli(['apikey', 'create', '--name', 'to-revoke', '--admin', '--json'])).stdout);
    const list = await sys.cli(['apikey', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(created.key);
    expect(list.stdout).not.toContain(created.secret);
    expect((await sys.cli(['apikey', 'revoke', created.key])).code).toBe(0);
    expect((await sys.cli(['apikey', 'list'])).stdout).toMatch(new RegExp(`${created.key}.*revoked`));
    expectOneLineError(await sys.cli(['apikey', 'revoke', created.key]), /already revoked/);
    expectOneLineError(await sys.cli(['apikey', 'revoke', 'rk_nope']), /no API key rk_nope/);
  });
});

describe('user and moderator', () => {
  it('user add registers a player; bad or duplicate ids fail with one line', async () => {
    expect((await sys.cli(['user', 'add', '--id', '7', '--name', 'n', '--display-name', 'N', '--avatar', 'https://a/7.png'])).code).toBe(0);
    expectOneLineError(await sys.cli(['user', 'add', '--id', '7', '--name', 'n', '--display-name', 'N']), /user 7 already exists/);
    expectOneLineError(await sys.cli(['user', 'add', '--id', 'abc', '--name', 'n', '--display-name', 'N']), /numeric/);
    expectOneLineError(await sys.cli(['user', 'add', '--id', '8', '--name', '', '--display-name', 'N']), /must not be empty/);
    expectOneLineError(await sys.cli(['user', 'add', '--id', '99999999999999999999', '--name', 'n', '--display-name', 'N']), /numeric/);
    expectOneLineError(await sys.cli(['user', 'add', '--id', '8', '--name', 'n']), /--display-name/);
  });

  it('moderator add and list; duplicates fail with one line', async () => {
    expect((await sys.cli(['moderator', 'add', '--id', 'mod-1', '--username', 'alice'])).code).toBe(0);
    expect((await sys.cli(['moderator', 'add', '--id', 'mod-2', '--username', 'bob'])).code).toBe(0);
    expectOneLineError(await sys.cli(['moderator', 'add', '--id', 'mod-1', '--username', 'again']), /moderator mod-1 already exists/);
    const list = await sys.cli(['moderator', 'list']);
    expect(list.stdout).toMatch(/mod-1\s+alice/);
    expect(list.stdout).toMatch(/mod-2\s+bob/);
  });
});

describe('case, messages, jobs', () => {
  it('case history of an unknown report fails with one line', async () => {
    expectOneLineError(await sys.cli(['case', 'history', 'nope']), /no report nope/);
  });

  it('messages list on an empty store prints only the header', async () => {
    const r = await sys.cli(['messages', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('notifications dead on an empty system says there are none', async () => {
    const r = await sys.cli(['notifications', 'dead']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('0 dead notification(s)');
  });

  it('a --limit that is not a whole number of at least 1 fails with one line', async () => {
    expectOneLineError(await sys.cli(['messages', 'list', '--limit', '0']), /--limit must be a whole number, at least 1 \(got 0\)/);
    expectOneLineError(await sys.cli(['notifications', 'dead', '--limit', 'many']), /--limit must be a whole number, at least 1 \(got many\)/);
  });

  it('jobs failed says clearly when Redis does not answer', async () => {
    expectOneLineError(await sys.cli(['jobs', 'failed'], { REDIS_URL: 'redis://127.0.0.1:1' }), /did not answer/);
  });

  it('an unknown command fails with exit code 1', async () => {
    const r = await sys.cli(['frobnicate']);
    expect(r.code).toBe(1);
  });
});

describe('configuration', () => {
  it('the CLI names an invalid variable in one line', async () => {
    expectOneLineError(await sys.cli(['moderator', 'list'], { LOG_LEVEL: 'loud' }), /LOG_LEVEL/);
  });

  it.each([
    ['gateway', { PORT: 'http' }, /PORT/],
    ['gateway', { MAX_REPORTS_PER_DAY: '0' }, /MAX_REPORTS_PER_DAY/],
    ['intake', { INTAKE_CONCURRENCY: 'many' }, /INTAKE_CONCURRENCY/],
    ['moderation', { HIDE_USERNAME: 'maybe' }, /HIDE_USERNAME/],
    ['gateway', { REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    ['gateway', { USER_DIRECTORY_URL: 'directory.internal' }, /USER_DIRECTORY_URL/],
    ['notification', { NOTIFY_ATTEMPTS: '0' }, /NOTIFY_ATTEMPTS/],
    ['notification', { CHAT_API_URL: 'http://127.0.0.1:1/chat' }, /CHAT_TOKEN: required when CHAT_API_URL is set/],
    ['notification', { DECISION_WEBHOOK_URL: 'http://127.0.0.1:1/hook' }, /DECISION_WEBHOOK_SECRET: required when DECISION_WEBHOOK_URL is set/],
  ] as const)('%s stops at start with one line naming %j', async (app, env, pattern) => {
    const r = await runNode(APPS[app], [], { ...sys.env, ...env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  });
});
