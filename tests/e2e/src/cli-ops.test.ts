import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '@rm/contracts';
import { report, ROOT, System, type Key } from './harness.js';

// The operators' CLI commands: queue depths (once and watching) and bulk user import.
let sys: System;
let admin: Key;
let files: string;

beforeAll(async () => {
  // No intake worker: a submitted report stays waiting, so the queue table has a number to show.
  sys = await System.start({ apps: ['gateway'] });
  admin = await sys.createKey(['--admin']);
  files = mkdtempSync(join(tmpdir(), 'rm-import-'));
});
afterAll(async () => {
  await sys?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

// Every queue of the typed catalog, in its order: a queue added to the catalog must show.
const QUEUE_NAMES: string[] = Object.values(QUEUES).map((q) => q.name);
const HEADER = /^QUEUE\s+WAITING\s+ACTIVE\s+DELAYED\s+FAILED\s+COMPLETED\s+WORKERS$/;

/** The rows of one printed queue table, by queue name: [waiting, active, delayed, failed, completed, workers]. */
function rowsOf(lines: string[]): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const line of lines) {
    const cells = line.trim().split(/\s+/);
    if (QUEUE_NAMES.includes(cells[0]!) && cells.length === 7) rows.set(cells[0]!, cells.slice(1).map(Number));
  }
  return rows;
}

describe('queues', () => {
  it('prints one table: every queue of the catalog with its depth by state and its workers', async () => {
    await sys.addUser('930');
    expect((await sys.post('/v1/reports/new', admin.auth, report('930', 'q-1'))).status).toBe(200);
    const r = await sys.cli(['queues']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(HEADER);
    expect(lines).toHaveLength(1 + QUEUE_NAMES.length);
    const rows = rowsOf(lines);
    expect([...rows.keys()]).toEqual(QUEUE_NAMES);
    for (const cells of rows.values()) for (const n of cells) expect(Number.isInteger(n) && n >= 0).toBe(true);
    expect(rows.get('intake')).toEqual([1, 0, 0, 0, 0, 0]);
  });

  it('--interval below 0.2 s fails with one line', async () => {
    const r = await sys.cli(['queues', '--watch', '--interval', '0.05']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--interval/);
  });

  it('--watch --interval 0.3 prints a fresh timestamped table each time until it is interrupted', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'tools/cli/dist/main.js'), 'queues', '--watch', '--interval', '0.3'], { env: sys.env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
    // Never left behind: killed for good if Ctrl-C does not stop it in time.
    const guard = setTimeout(() => child.kill('SIGKILL'), 12_000);
    // About 1.5 s, longer only if a busy machine has not printed two tables by then.
    const started = Date.now();
    await sys.waitFor(async () => Date.now() - started >= 1_500 && (stdout.match(/^QUEUE /gm)?.length ?? 0) >= 2, 7_000, 'two snapshots');
    process.kill(child.pid!, 'SIGINT');
    const code = await exited;
    clearTimeout(guard);
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n');
    const stamps = lines.filter((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(l));
    expect(stamps.length).toBeGreaterThanOrEqual(2);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(lines.filter((l) => HEADER.test(l))).toHaveLength(stamps.length);
    expect(lines.filter((l) => l.startsWith('intake ')).length).toBe(stamps.length);
    // No screen-clearing codes when stdout is not a terminal.
    expect(stdout).not.toContain('\x1b[');
  });
});

describe('user import', () => {
  const check = async (userId: string) => (await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: 'import-check' })).body;

  it('imports a JSON array: reports rows already present and invalid ones, exit 1, the valid rows still imported', async () => {
    await sys.addUser('940', 'already', 'Already Here');
    const file = join(files, 'users.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: '941', name: 'alpha', displayName: 'Alpha One', avatar: 'https://a/941.png' },
        { id: 942, name: 'beta', displayName: 'Beta Two' },
        { id: '940', name: 'already', displayName: 'Already Here' },
        { id: 'abc', name: 'nope', displayName: 'Not A Number' },
        { id: '943', name: 'noname' },
      ]),
    );
    const r = await sys.cli(['user', 'import', file]);
    expect(r.code).toBe(1);
    expect(r.stdout.trim()).toBe('imported 2 user(s), 1 already present, 2 invalid');
    expect(r.stderr).toMatch(/row 4: id must be numeric/);
    expect(r.stderr).toMatch(/row 5: name and displayName are required/);
    expect(r.stderr).toMatch(/^error: 2 row\(s\) were not imported$/m);
    // The progress bar is on stderr, never mixed into the summary on stdout.
    expect(r.stderr).toMatch(/importing users \[.*\] 5\/5 100%/);
    expect(r.stdout).not.toMatch(/importing users/);
    expect((await check('941')).user).toEqual({ id: 941, name: 'alpha', displayName: 'Alpha One' });
    expect((await check('942')).user).toEqual({ id: 942, name: 'beta', displayName: 'Beta Two' });
  });

  it('imports a CSV with a quoted comma in a display name; a second import finds every row present and exits 0', async () => {
    const file = join(files, 'users.csv');
    writeFileSync(file, ['id,name,displayName,avatar', '950,smith,"Smith, John",https://a/950.png', '951,doe,"Jane ""JD"" Doe",', '', '952,,Nameless', '953,ok,Okay'].join('\n'));
    const first = await sys.cli(['user', 'import', file]);
    expect(first.code).toBe(1);
    expect(first.stdout.trim()).toBe('imported 3 user(s), 0 already present, 1 invalid');
    expect(first.stderr).toMatch(/row 5: name and displayName are required/);
    expect((await check('950')).user).toEqual({ id: 950, name: 'smith', displayName: 'Smith, John' });
    expect((await check('951')).user).toEqual({ id: 951, name: 'doe', displayName: 'Jane "JD" Doe' });
    expect((await check('953')).user).toEqual({ id: 953, name: 'ok', displayName: 'Okay' });

    const valid = join(files, 'valid.csv');
    writeFileSync(valid, 'id,name,displayName\r\n950,smith,"Smith, John"\r\n954,new,New One\r\n');
    const again = await sys.cli(['user', 'import', valid]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('imported 1 user(s), 1 already present, 0 invalid');
    expect(again.stderr).toMatch(/importing users/);
  });

  it.each([
    ['a missing file', () => join(files, 'missing.json'), /^error: cannot read .*missing\.json: ENOENT$/],
    ['a file that is not JSON', () => (writeFileSync(join(files, 'bad.json'), '{nope'), join(files, 'bad.json')), /^error: the file is not valid JSON/],
    ['JSON that is not an array', () => (writeFileSync(join(files, 'obj.json'), '{"id":"1"}'), join(files, 'obj.json')), /^error: a JSON import file must hold an array/],
    ['a CSV without the id column', () => (writeFileSync(join(files, 'nohead.csv'), 'name,displayName\nx,X\n'), join(files, 'nohead.csv')), /^error: CSV header must name the columns.*missing id/],
  ])('%s fails with one line and exit 1', async (_what, path, pattern) => {
    const r = await sys.cli(['user', 'import', path()]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(pattern);
    expect(r.stdout).toBe('');
  });
});
