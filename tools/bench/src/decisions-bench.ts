// `npm run bench -- decisions`: only the decision cycles (f) of the full bench, on a system of its
// own: a gateway and the three workers on the SQLite store. Quick enough to compare two builds.
// Expects REDIS_URL (and REDIS_PID for Redis's share of the CPU).
import { bareDecisionScenario, decisionScenario } from './decision-scenario.js';
import { addModerator, createAdminKey } from './fixtures.js';
import { ratio } from './report.js';
import { holdAofRewrites } from './aof.js';
import { benchSystem, GATEWAY_NODE_ARGS, redisProcs, runBench, startProcess, waitHttp, type Proc } from './processes.js';

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const say = (m: string) => process.stderr.write(`[bench decisions] ${m}\n`);

const prefix = 'benchdecisions';
const { dataDir, env, redisUrl } = benchSystem('decisions', { KEY_PREFIX: prefix, METRICS_PORT: '0' });
const running: Proc[] = [];
/** Connections of its own, closed whatever happened (runBench). */
const closers: (() => void)[] = [];

await runBench(async () => {
  const { admin, rewrite } = await holdAofRewrites(redisUrl);
  closers.push(() => admin.disconnect());
  // Its ceiling first, in the same minutes: this VM's speed drifts between runs.
  const bare = await bareDecisionScenario({ env, port: 3911, connections: CONNECTIONS, durationSec: DURATION, running });
  await rewrite();
  const gateway = startProcess('gateway', 'apps/gateway/dist/main.js', { ...env, PORT: '3910' }, GATEWAY_NODE_ARGS);
  running.push(gateway);
  await waitHttp('http://127.0.0.1:3910/');
  const auth = createAdminKey({ ...env });
  addModerator({ ...env }, 'bench-mod', 'bench');
  running.push(...['intake-worker', 'moderation-worker', 'notification-worker'].map((w) => startProcess(w, `apps/${w}/dist/main.js`, env)));
  const figures = await decisionScenario({
    baseUrl: 'http://127.0.0.1:3910',
    auth,
    env,
    prefix,
    moderatorId: 'bench-mod',
    connections: CONNECTIONS,
    durationSec: DURATION,
    procs: [...running.map((p) => ({ name: p.name, pid: p.pid })), ...redisProcs()],
  });
  const steps = (c: typeof figures.cycles) => Object.entries(c.steps).map(([k, s]) => `${k} p50 ${s.p50} ms`).join(', ');
  say(`bare decision stack: ${bare.cyclesPerSec} cycles/s, ${bare.cpu.perDecisionMs} ms of CPU per decision; at one moderator ${steps(bare.cyclesAtOne)}`);
  say(`${CONNECTIONS} at once: ${figures.cycles.cyclesPerSec} cycles/s (${steps(figures.cycles)})`);
  say(`one moderator: ${figures.cyclesAtOne.cyclesPerSec} cycles/s (${steps(figures.cyclesAtOne)})`);
  say(`CPU per decision: ${figures.cpu.perDecisionMs} ms over the system (load generator ${figures.cpu.loadGeneratorPerDecisionMs} ms); seconds: ${JSON.stringify(figures.cpu.seconds)}`);
  say(`cycles at ${CONNECTIONS} / the bare stack's: ${ratio(figures.cycles.cyclesPerSec, bare.cyclesPerSec)}`);
  process.stdout.write(`${JSON.stringify({ ...figures, bare })}\n`);
}, { say, running, dataDir, closers });
