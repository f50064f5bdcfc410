#!/usr/bin/env node
// `npm start`: installs what is missing, builds, makes sure Redis runs, then runs every process of
// the system with prefixed logs until Ctrl-C / SIGTERM. Redis is left running for the next start.
// `npm start -- --gateways 2 --workers intake=3,moderation=1,notification=1,evidence=1` runs several of each.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { APPS, supervise } from './lib/processes.mjs';
import { ensureRedis } from './lib/redis.mjs';
import { instances, parseTopology } from './lib/topology.mjs';

try {
  const topology = parseTopology(process.argv.slice(2), process.env);
  await bootstrap();
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? 'data');
  mkdirSync(dataDir, { recursive: true });
  const redisUrl = await ensureRedis(dataDir);
  const env = { ...process.env, REDIS_URL: redisUrl, DATA_DIR: dataDir };
  const port = Number(process.env.PORT ?? 3000);
  const running = instances(topology, port).map(({ app, name, env: own }) => supervise(name, APPS[app], { ...env, ...own }));
  const gateways = Array.from({ length: topology.gateway }, (_, i) => `http://127.0.0.1:${port + i}`).join(', ');
  say(`system starting: gateway on ${gateways}, data in ${dataDir}, Redis at ${redisUrl}`);
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
