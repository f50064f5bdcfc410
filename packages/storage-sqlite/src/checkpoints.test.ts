import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { report } from '@rm/storage/contract';
import { openSqliteStore } from './sqlite.adapter.js';

const dir = mkdtempSync(join(tmpdir(), 'rm-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (f: string) => statSync(f).size;

it("the WAL is checkpointed by the store's own thread once it passes the threshold, without a commit doing it", async () => {
  const file = join(dir, 'reports.db');
  // 400 pages: the backstop in the commit would be at 1,600, which the writes below stay under.
  const store = openSqliteStore(file, { checkpointPages: 400 });
  const walPages = () => bytes(`${file}-wal`) / 4096;
  try {
    const before = bytes(file);
    for (let i = 0; walPages() <= 400 && i < 1_000; i++) await store.saveReports([report(`r${i}`, `u${i}`, 1_000 + i)]);
    expect(walPages()).toBeGreaterThan(400);
    expect(walPages()).toBeLessThan(1_600);
    // Until a checkpoint, the new pages are in the WAL only; the thread's moves them into the file.
    expect(bytes(file)).toBe(before);
    const deadline = Date.now() + 10_000;
    while (bytes(file) === before && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 100));
    expect(bytes(file)).toBeGreaterThan(before);
    expect((await store.listReportsByUser('u7', { offset: 0, limit: 10 })).reports.map((r) => r.id)).toEqual(['r7']);
  } finally {
    await store.close();
  }
}, 20_000);
