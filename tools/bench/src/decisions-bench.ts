// `npm run bench -- decisions`: only the decision cycles (f) of the full bench, on a system of its
// own: a gateway and the three workers on the SQLite store. Quick enough to compare two builds.
// Expects REDIS_URL (and REDIS_PID for Redis's share of the CPU).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decisionScenario } from './decision-scenario.js';
import { addModerator, createAdminKey } from './fixtures.js';
import { runBench, startProcess, waitHttp, type Proc } from './processes.js';

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const say = (m: string) => process.stderr.write(`[bench decisions] ${m}\n`);

const redisUrl = process.env['REDIS_URL'];
if (!redisUrl) throw new Error('REDIS_URL is not set: run `npm run bench -- decisions`, which starts a Redis for it');
const dataDir = mkdtempSync(join(tmpdir(), 'rm-bench-decisions-'));
const prefix = 'benchdecisions';
const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], REDIS_URL: redisUrl, DATA_DIR: dataDir, KEY_PREFIX: prefix, LOG_LEVEL: 'warn', HOST: '127.0.0.1', METRICS_PORT: '0' };
const running: Proc[] = [];

await runBench(async () => {
  const gateway = startProcess('gateway', 'apps/gateway/dist/main.js', { ...env, PORT: '3910' }, ['--max-old-space-size=128']);
  running.push(gateway);
  await waitHttp('http://127.0.0.1:3910/');
  const auth = createAdminKey({ ...env });
  addModerator({ ...env }, 'bench-mod', 'bench');
  running.push(...['intake-worker', 'moderation-worker', 'notification-worker'].map((w) => startProcess(w, `apps/${w}/dist/main.js`, env)));
  const redisPid = Number(process.env['REDIS_PID'] ?? 0);
  const figures = await decisionScenario({
    baseUrl: 'http://127.0.0.1:3910',
    auth,
    env,
    prefix,
    moderatorId: 'bench-mod',
    connections: CONNECTIONS,
    durationSec: DURATION,
    procs: [...running.map((p) => ({ name: p.name, pid: p.pid })), ...(redisPid ? [{ name: 'redis', pid: redisPid }] : [])],
  });
  const steps = (c: typeof figures.cycles) => Object.entries(c.steps).map(([k, s]) => `${k} p50 ${s.p50} ms`).join(', ');
  say(`${CONNECTIONS} at once: ${figures.cycles.cyclesPerSec} cycles/s (${steps(figures.cycles)})`);
  say(`one moderator: ${figures.cyclesAtOne.cyclesPerSec} cycles/s (${steps(figures.cyclesAtOne)})`);
  say(`CPU per decision: ${figures.cpu.perDecisionMs} ms over the system (load generator ${figures.cpu.loadGeneratorPerDecisionMs} ms); seconds: ${JSON.stringify(figures.cpu.seconds)}`);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}, { say, running, dataDir });
