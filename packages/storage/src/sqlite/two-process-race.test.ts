import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { NewReport, SavedReport } from '../records.js';
import { openSqliteStore } from './sqlite.adapter.js';

/**
 * Saving reports and deciding their cases from two processes on one SQLite file, as the intake and
 * moderation workers do: within one process better-sqlite3 runs each call to its end, so only two
 * processes can interleave them. The deciding side runs the built store (`dist`, built before tests).
 */
const DIST = pathToFileURL(resolve(import.meta.dirname, '../../dist/index.js')).href;

/** Dismisses each case of CASES as soon as it can; prints, per case, its report ids right after the decision. */
const DECIDER = `
const { openSqliteStore } = await import(process.env.DIST);
const store = openSqliteStore(process.env.FILE);
const seen = {};
process.stdout.write('ready\\n');
for (const caseId of JSON.parse(process.env.CASES)) {
  const c = await store.getCase(caseId);
  const t = { caseId, expectedVersion: c.version, expectedState: c.state, next: { state: 'dismissed', claimedBy: null },
    event: { decisionId: 'd-' + caseId, action: 'dismiss', moderatorId: 'm1', at: 5000, result: { ok: true } } };
  if (!(await store.transitionCase(t))) throw new Error('the case moved on: ' + caseId);
  seen[caseId] = await store.caseReportIds(caseId);
}
await store.close();
process.stdout.write(JSON.stringify(seen));
`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const report = (id: string, userId: string, receivedAt: number): NewReport => ({
  id,
  userId,
  reporterId: `reporter-${id}`,
  reporterPlatform: 'gameplatform',
  reportType: null,
  answers: [],
  evidence: [],
  receivedAt,
  user: { name: userId, displayName: userId, avatar: null },
});

it('a report saved in one process while another decides its case joins it before the decision, or a new case after it', async () => {
  dir = mkdtempSync(join(tmpdir(), 'rm-race-'));
  const file = join(dir, 'reports.db');
  const store = openSqliteStore(file);
  const users = Array.from({ length: 200 }, (_, i) => `race-${i}`);
  const cases: string[] = [];
  for (const u of users) cases.push((await store.saveReports([report(`${u}-a`, u, 1_000)]))[0]!.caseId);

  const decider = spawn(process.execPath, ['--input-type=module', '-e', DECIDER], { env: { ...process.env, DIST, FILE: file, CASES: JSON.stringify(cases) } });
  let out = '';
  let err = '';
  decider.stdout.on('data', (d) => (out += d));
  decider.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((ok) => decider.on('exit', ok));
  // Both sides start together: the decider has started (node and the store open) before the saves.
  await new Promise<void>((ok, fail) => {
    decider.stdout.on('data', () => out.startsWith('ready\n') && ok());
    void exited.then(() => fail(new Error(`the decider exited before it started: ${err}`)));
  });
  // Meanwhile this process saves a second report about each user, from the other end: the two
  // sides meet somewhere in the middle, whichever is faster.
  const saved: SavedReport[] = [];
  for (let i = users.length - 1; i >= 0; i--) {
    const u = users[i]!;
    saved[i] = (await store.saveReports([report(`${u}-b`, u, 2_000)]))[0]!;
    await new Promise((r) => setImmediate(r));
  }
  expect(await exited, err).toBe(0);
  const atDecision = JSON.parse(out.slice('ready\n'.length)) as Record<string, string[]>;

  let joinedBefore = 0;
  for (const [i, caseId] of cases.entries()) {
    expect(await store.caseReportIds(caseId), `case ${caseId}: nothing joins it after its decision`).toEqual(atDecision[caseId]);
    const s = saved[i]!;
    if (s.caseId === caseId) {
      joinedBefore++;
      expect(atDecision[caseId]).toContain(s.reportId);
    } else {
      expect((await store.getCase(s.caseId))?.state).toBe('open');
    }
  }
  process.stderr.write(`two-process race: ${joinedBefore} of ${users.length} reports joined their case before its decision, the others opened a new one\n`);
  await store.close();
}, 120_000);
