#!/usr/bin/env node
// `npm run load -- ...`: the load generator (tools/bench), built first if it has never been built.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { run } from './lib/run.mjs';

const entry = join(ROOT, 'tools/bench/dist/load.js');
try {
  if (!existsSync(entry)) await bootstrap();
} catch (err) {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(1);
}
const env = { ...process.env, DATA_DIR: resolve(ROOT, process.env.DATA_DIR ?? 'data') };
process.exit(await run(process.execPath, [entry, ...process.argv.slice(2)], { env }));
