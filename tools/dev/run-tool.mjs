#!/usr/bin/env node
// `npm run cli -- ...` and `npm run load -- ...`: runs a built tool (built first if it never was)
// with the same DATA_DIR as `npm start`, relative to the project root.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { run } from './lib/run.mjs';

const TOOLS = { cli: 'tools/cli/dist/main.js', load: 'tools/bench/dist/load.js' };
const [tool, ...args] = process.argv.slice(2);
if (!TOOLS[tool]) {
  process.stderr.write(`error: unknown tool ${tool}; one of ${Object.keys(TOOLS).join(', ')}\n`);
  process.exit(1);
}
const entry = join(ROOT, TOOLS[tool]);
try {
  if (!existsSync(entry)) await bootstrap();
} catch (err) {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(1);
}
const env = { ...process.env, DATA_DIR: resolve(ROOT, process.env.DATA_DIR ?? 'data') };
process.exit(await run(process.execPath, [entry, ...args], { env }));
