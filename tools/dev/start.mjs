#!/usr/bin/env node
// `npm start`: installs what is missing, builds, makes sure Redis runs, then runs every process of
// the system with prefixed logs until Ctrl-C / SIGTERM. Redis is left running for the next start.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { APPS, supervise } from './lib/processes.mjs';
import { ensureRedis } from './lib/redis.mjs';

try {
  await bootstrap();
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? 'data');
  mkdirSync(dataDir, { recursive: true });
  const redisUrl = await ensureRedis(dataDir);
  const env = { ...process.env, REDIS_URL: redisUrl, DATA_DIR: dataDir };
  const running = Object.entries(APPS).map(([name, entry]) => supervise(name, entry, env));
  const port = process.env.PORT ?? '3000';
  say(`system starting: gateway on http://127.0.0.1:${port}, data in ${dataDir}, Redis at ${redisUrl}`);
  say('create a key:  npm run cli -- apikey create --name game --permission reports.submit_report');
  say('stop with Ctrl-C');

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping ${running.map((p) => p.name).join(', ')}`);
    await Promise.all(running.map((p) => p.stop()));
    say('stopped (Redis keeps running for the next start)');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (err) {
  say(`cannot start: ${err.message}`);
  process.exit(1);
}
