#!/usr/bin/env node
// `npm run cli -- ...`: the admin CLI, built first if it has never been built.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { run } from './lib/run.mjs';

const entry = join(ROOT, 'tools/cli/dist/main.js');
try {
  if (!existsSync(entry)) await bootstrap();
} catch (err) {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(1);
}
// Same data as `npm start`: DATA_DIR relative to the project root.
const env = { ...process.env, DATA_DIR: resolve(ROOT, process.env.DATA_DIR ?? 'data') };
process.exit(await run(process.execPath, [entry, ...process.argv.slice(2)], { env }));
