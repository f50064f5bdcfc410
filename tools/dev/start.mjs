#!/usr/bin/env node
// `npm start`: installs what is missing, builds, makes sure Redis runs, then runs every process of
// the system with prefixed logs until Ctrl-C / SIGTERM. Redis is left running for the next start.
// `npm start -- --gateways 2 --workers intake=3,moderation=1,notification=1,evidence=1` runs several of each;
// `--no-build` skips the install and build (already done, e.g. a second system from the same tree).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { APPS, supervise } from './lib/processes.mjs';
import { claimKeyPrefix, ensureRedis } from './lib/redis.mjs';
import { checkPortsFree } from './lib/ports.mjs';
import { DEFAULT_METRICS_BASE, instances, listenPorts, parseTopology, portSetting } from './lib/topology.mjs';

/**
 * The key that signs players' appeal links (APPEAL_LINK_SECRET, docs/appeals.md): the environment's
 * when set, else one made once for this data folder (owner read/write only), so links survive a restart.
 */
function appealLinkSecret(dataDir) {
  if (process.env.APPEAL_LINK_SECRET) return process.env.APPEAL_LINK_SECRET;
  const file = join(dataDir, 'appeal-link.secret');
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

try {
  const args = process.argv.slice(2);
  const noBuild = args.includes('--no-build');
  const topology = parseTopology(args.filter((a) => a !== '--no-build'), process.env);
  const port = portSetting(process.env.PORT, 'PORT', 3000);
  // METRICS_PORT is the base of the workers' metrics ports (scheme in lib/topology.mjs and docs/operations.md).
  const metricsBase = portSetting(process.env.METRICS_PORT, 'METRICS_PORT', DEFAULT_METRICS_BASE);
  const processes = instances(topology, port, metricsBase);
  await checkPortsFree(listenPorts(processes), (p) => (p.setting === 'PORT' ? process.env.HOST : process.env.METRICS_HOST) || '0.0.0.0');
  if (!noBuild) await bootstrap();
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? 'data');
  mkdirSync(dataDir, { recursive: true });
  const redisUrl = await ensureRedis(dataDir);
  // A SQLite system owns its KEY_PREFIX on that Redis (MongoDB: every launcher shares one store).
  if (!process.env.MONGODB_URL && !process.env.REDIS_CLUSTER_NODES && !process.env.REDIS_SENTINELS) await claimKeyPrefix(redisUrl, process.env.KEY_PREFIX || process.env.QUEUE_PREFIX || 'rm', dataDir);
  // One machine: on MongoDB every process runs the migrations not yet recorded before it starts (docs/scaling.md#migrations).
  const env = { MIGRATIONS: 'run', ...process.env, REDIS_URL: redisUrl, DATA_DIR: dataDir, APPEAL_LINK_SECRET: appealLinkSecret(dataDir) };
  const running = processes.map(({ app, name, env: own }) => supervise(name, APPS[app], { ...env, ...own }));
  const gateways = Array.from({ length: topology.gateway }, (_, i) => `http://127.0.0.1:${port + i}`).join(', ');
  const metrics = metricsBase === 0 ? 'off' : `from ${metricsBase}`;
  say(`system starting: gateway on ${gateways}, worker metrics ports ${metrics}, data in ${dataDir}, Redis at ${redisUrl}`);
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
