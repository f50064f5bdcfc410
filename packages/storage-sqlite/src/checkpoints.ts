import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** The WAL's size, in pages, at which a checkpoint copies its frames into the database file. */
export const CHECKPOINT_PAGES = 10_000;
/** A checkpoint's own trigger, only if the background one cannot keep up: it blocks the committing process. */
const BACKSTOP_FACTOR = 4;
/** After a checkpoint the WAL starts over, cut back to this much: its size then says how much it holds. */
const WAL_KEPT_BYTES = 4 * 1024 * 1024;
/**
 * How often the WAL's size is looked at (a stat of the file). A store draining a backlog writes up
 * to ~60 MB of WAL a second here: polled each second, the WAL overshot the threshold by that much
 * and filled a 64 MB disk that the in-commit checkpoint had kept it within (faults/disk-full.test.ts).
 */
const POLL_MS = 100;

// The thread's code, given as a script so it runs the same from src (tests) and dist. A PASSIVE
// checkpoint neither waits for nor blocks writers and readers; another process's checkpoint
// running answers SQLITE_BUSY at once, and a full disk fails it: both are left for the next poll.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
parentPort.on('message', () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  parentPort.postMessage('done');
});
`;

/**
 * Checkpoints the store's WAL on a thread of this process instead of in whichever commit crosses
 * the threshold: a checkpoint of 10,000 pages copies and fsyncs for tens of milliseconds, and
 * SQLite's automatic one runs inside the commit, stalling that process's event loop (a moderation
 * worker's decision, a gateway's answers) meanwhile. The WAL's file size is polled every 100 ms; the
 * thread starts the first time it is over the threshold (a small or idle store never has one).
 * Every process does this; only one checkpoint runs at a time and the others return at once.
 * The automatic checkpoint stays, at four times the threshold, in case this falls behind.
 */
export function checkpointInBackground(db: Database.Database, file: string, pages = CHECKPOINT_PAGES): { close: () => void } {
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  db.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  db.pragma(`wal_autocheckpoint = ${pages * BACKSTOP_FACTOR}`);
  const walFile = `${file}-wal`;
  let thread: Worker | null = null;
  let running = false;
  const poll = setInterval(() => {
    if (running || walBytes(walFile) < pages * pageSize) return;
    thread ??= start(file, () => (running = false));
    running = true;
    thread.postMessage('checkpoint');
  }, POLL_MS);
  poll.unref();
  return {
    close: () => {
      clearInterval(poll);
      void thread?.terminate();
    },
  };
}

function start(file: string, done: () => void): Worker {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD, { eval: true, workerData: { file, driver } });
  thread.on('message', done);
  // A thread that died (it cannot open the file) leaves the automatic checkpoint to do the work.
  thread.on('error', () => undefined);
  thread.unref();
  return thread;
}

function walBytes(walFile: string): number {
  try {
    return statSync(walFile).size;
  } catch {
    return 0;
  }
}
