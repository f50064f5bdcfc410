import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode, type CliResult } from './harness.js';

// `cli migrate` on the SQLite store, as an operator runs it: what it applied, or that the file is
// up to date, and mistakes in one line. (A file an earlier version left: migrate-store.test.ts in
// the storage package; MongoDB's paged migrations: its MongoDB suite.) Needs neither Redis nor a
// running system.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rm-migrate-'));
  dirs.push(dir);
  return dir;
}

const migrate = (env: Record<string, string>): Promise<CliResult> => runNode('tools/cli/dist/main.js', ['migrate'], { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env });

describe('cli migrate (SQLite)', () => {
  it('applies every migration to a new file, then says it is up to date', async () => {
    const dir = dataDir();
    const file = join(dir, 'reports.db');
    const first = await migrate({ DATA_DIR: dir });
    expect(first.code, first.stderr).toBe(0);
    const known = /^SQLite \((.+)\): applied migrations 1 to (\d+); all (\d+) applied\n$/.exec(first.stdout);
    expect(known, first.stdout).not.toBeNull();
    expect(known![1]).toBe(file);
    expect(known![3]).toBe(known![2]);
    const again = await migrate({ DATA_DIR: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`SQLite (${file}): up to date (${known![2]} migrations)\n`);
  });

  it('an operator mistake is one line on stderr, exit 1, no stack', async () => {
    const bad = await migrate({ DATA_DIR: dataDir(), MIGRATIONS: 'later' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: invalid configuration: MIGRATIONS: must be wait or run (got "later")\n');
    // A MongoDB nobody answers at: the store's own diagnosis, after its 5 s probe.
    const away = await migrate({ DATA_DIR: dataDir(), MONGODB_URL: 'mongodb://127.0.0.1:1/rm?replicaSet=rs0' });
    expect(away.code).toBe(1);
    expect(away.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: no MongoDB server of MONGODB_URL answered within \d+ ms/)]);
    expect(away.stdout).toBe('');
  }, 30_000);
});
