// One SQLite store handle in a process of its own, driven over IPC by store-in-child.ts: the
// shared-store contract races two of these, because two handles in one process never interleave
// (better-sqlite3 is synchronous).
import { openSqliteStore } from '../dist/index.js';

const store = openSqliteStore(process.argv[2]);
process.on('message', async ({ id, method, args }) => {
  try {
    process.send({ id, ok: true, value: await store[method](...args) });
  } catch (err) {
    process.send({ id, ok: false, error: { name: err?.name ?? 'Error', message: err?.message ?? String(err) } });
  }
  if (method === 'close') process.disconnect();
});
process.send({ ready: true });
