// `npm run bench`: every figure of the performance issue in one run on this machine, bare
// ceilings first, then the system. Expects REDIS_URL (tools/dev/bench.mjs starts a private one).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NewReport } from '@rm/storage';
import { createStore } from '@rm/storage-factory';
import { uuidv7 } from '@rm/runtime';
import { cannon } from './cannon.js';
import { cpuUs, metered, type Metered } from './cpu-per-request.js';
import { bareDecisionScenario, decisionScenario } from './decision-scenario.js';
import { combineDrains, dropBareQueue, dropQueue, drainRate } from './drain.js';
import { addModerator, checkBody, createAdminKey, importUsers, randomOf, ROOT, submissionBody } from './fixtures.js';
import { benchSystem, GATEWAY_NODE_ARGS, redisProcs, runBench, sampleRss, startProcess, waitHttp, type Proc } from './processes.js';
import { banWave } from './ban-wave.js';
import { holdAofRewrites } from './aof.js';
import { seedSanctions } from './sanction-fixtures.js';
import { combine, machine, markdown, ratios, type Measured } from './report.js';
import { TRACED } from './pairs.js';
import type { BenchResults } from './results.js';

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
/** Seconds of load before each measured run, not counted. */
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 3);
/**
 * Rounds of the paired scenarios (ceiling, then ours); their figures are the rounds' means. Even,
 * so submit and submitEvidence, run in alternating order, are each second as often: with three
 * rounds the median of their ratios fell on a round whose second was the evidence side.
 */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 4);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const DRAIN_REPORTS = Number(process.env['BENCH_DRAIN_REPORTS'] ?? 40_000);
const LIST_REPORTS = 10_000;
const SANCTION_PLAYERS = 10_000;
const BAN_WAVE = Number(process.env['BENCH_BAN_WAVE'] ?? 10_000);
/** The tracing runs' scenarios (pairs.ts), and what each mode is. */
const TRACING_SCENARIOS = TRACED.flatMap((t) => [t.off, t.on, t.at10]);
const TRACING_NOTES: Record<string, string> = { TracingOff: 'tracing off', Traced: 'tracing on, default sampler', Traced10: 'tracing on, parentbased_traceidratio 0.1' };
/** Seconds of unmeasured submits and then checks a traced gateway takes once started. */
const TRACED_WARMUP = Number(process.env['BENCH_TRACED_WARMUP'] ?? 10);
const say = (m: string) => process.stderr.write(`[bench] ${m}\n`);

const { redisUrl, dataDir, env } = benchSystem(null, { KEY_PREFIX: 'bench', MAX_REPORTS_PER_DAY: '5' });
const running: Proc[] = [];
/** Connections of its own, closed whatever happened (runBench). */
const closers: (() => void)[] = [];
const base = (port: number) => `http://127.0.0.1:${port}`;

async function serve(name: string, entry: string, port: number, node: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<Proc> {
  const p = startProcess(name, entry, { ...env, ...extraEnv, PORT: String(port) }, node);
  running.push(p);
  await waitHttp(`${base(port)}/`);
  return p;
}

async function stop(p: Proc) {
  await p.stop();
  running.splice(running.indexOf(p), 1);
}

async function main() {
  const runs: Record<string, { note?: string; results: Measured[] }> = {};
  /** The server under load and Redis: the processes whose CPU a request costs (issue 55). */
  const meterOf = (p: Proc): Metered[] => [{ name: p.name, pid: p.pid }, ...redisProcs()];
  const shoot = async (name: string, url: string, extra: Partial<Parameters<typeof cannon>[0]> = {}, note?: string, meter?: Metered[]) => {
    // Warmed up first and that part discarded: a ceiling starts afresh every round while the
    // gateway stays up, and a cold process against a warm one is no comparison.
    if (WARMUP > 0) await cannon({ url, connections: CONNECTIONS, durationSec: WARMUP, ...extra });
    say(`${name}: ${CONNECTIONS} connections, ${DURATION} s`);
    const load = () => cannon({ url, connections: CONNECTIONS, durationSec: DURATION, ...extra });
    const result: Measured = meter ? await metered(meter, load) : await load();
    (runs[name] ??= { ...(note && { note }), results: [] }).results.push(result);
    const perProcess = result.cpuByProcess ? ` (µs of CPU per request: ${Object.entries(result.cpuByProcess).map(([p, s]) => `${p} ${cpuUs(s, result.requests)}`).join(', ')})` : '';
    say(`${name}: ${result.reqPerSec} req/s, p99 ${result.p99} ms${perProcess}`);
  };
  /** A ceiling runs alone: its own process, stopped before anything else is measured. */
  const ceiling = async (name: string, entry: string, port: number, extra: Partial<Parameters<typeof cannon>[0]>, note: string) => {
    const proc = await serve(name, entry, port);
    await shoot(name, `${base(port)}/`, extra, note, meterOf(proc));
    await stop(proc);
  };
  // The jobs a measured run leaves are load, not data: dropped after it, so Redis does not grow by
  // a hundred thousand jobs a run. Then Redis rewrites its AOF at once, not during a measured run,
  // and every run starts from a compact AOF.
  const { admin, rewrite } = await holdAofRewrites(redisUrl);
  closers.push(() => admin.disconnect());
  const dropBacklogs = async () => {
    await Promise.all([dropQueue(env, 'bench', 'intake'), dropBareQueue(redisUrl)]);
    await rewrite();
  };

  // The system on the embedded SQLite store. The gateway is measured alone, like the ceilings:
  // its workers would otherwise share the two cores with it; (g) measures how fast they drain.
  // Started as `npm start` and the compose file start it (tools/dev/lib/processes.mjs).
  const gateway = await serve('gateway', 'apps/gateway/dist/main.js', 3900, GATEWAY_NODE_ARGS);
  const atGateway = meterOf(gateway);
  const auth = createAdminKey({ ...env });
  const users = importUsers({ ...env }, 1000);
  addModerator({ ...env }, 'bench-mod', 'bench');
  const headers = { authorization: auth };
  const pick = randomOf(users);
  const submit = { method: 'POST' as const, headers, body: () => submissionBody(pick()) };
  const submitEvidence = { ...submit, body: () => submissionBody(pick(), true) };
  const checkRequests = { method: 'POST' as const, headers, body: () => checkBody(pick()) };

  // (a) to (d) in rounds, each ceiling right before the scenario it is compared with: this VM's
  // speed drifts by tens of percent within minutes, and a ratio should compare the same minutes.
  // The idle gateway costs the ceilings nothing. RSS is sampled during the submits.
  const rss: Record<string, number> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    say(`round ${round} of ${ROUNDS}`);
    await ceiling('bareQueue', 'tools/bench/dist/bare/queue-stack.js', 3902, { method: 'POST', body: () => submissionBody('1') }, 'Fastify + zod + queue.add');
    await dropBacklogs();
    const plainSubmit = async () => {
      const stopSampling = sampleRss([{ name: 'gateway', pid: gateway.pid }, ...redisProcs()]);
      await shoot('submit', `${base(3900)}/v1/reports/new`, submit, 'appendfsync always', atGateway);
      for (const [name, mb] of Object.entries(stopSampling())) rss[name] = Math.max(rss[name] ?? 0, mb);
    };
    // Issue 29: asking for evidence to be kept must not slow the submit (the capture is queued by
    // intake, after its commit). The two in alternating order: the second of a pair ran slower here.
    const evidenceSubmit = () => shoot('submitEvidence', `${base(3900)}/v1/reports/new`, submitEvidence, 'createEvidence: true', atGateway);
    for (const run of round % 2 ? [plainSubmit, evidenceSubmit] : [evidenceSubmit, plainSubmit]) {
      await run();
      await dropBacklogs();
    }
    // Check's goal is against the plain hello (issue 30); the hello taking check's very requests
    // is printed beside it, to tell the load generator's share (a body built per request) apart.
    await ceiling('helloCheckRequests', 'tools/bench/dist/bare/hello.js', 3901, checkRequests, "bare Fastify, check's requests");
    await ceiling('hello', 'tools/bench/dist/bare/hello.js', 3901, {}, 'bare Fastify');
    // Issue 55: check's own ceiling, the bare check stack (Fastify + zod + one EVALSHA of the
    // check's shape on the same keys), right before it as bareQueue is before submit.
    await ceiling('bareCheck', 'tools/bench/dist/bare/check-stack.js', 3902, checkRequests, 'Fastify + zod + one EVALSHA');
    await shoot('check', `${base(3900)}/v1/reports/check`, checkRequests, undefined, atGateway);
  }

  // Issue 54: submit and check with tracing on, at the default sampler (every request) and at
  // 10 %, against the same gateway with it off, in rounds of their own. Each traced gateway runs
  // beside the untraced one on the same store, idle while another is measured, and exports to a
  // sink of its own, so each sink's count says what its sampler sent.
  const tracingRounds = async () => {
    const modes = [
      { suffix: 'TracingOff', port: 3900, gateway, sink: null, sampler: {} },
      { suffix: 'Traced', port: 3904, sink: 3906, sampler: {} },
      { suffix: 'Traced10', port: 3905, sink: 3907, sampler: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } },
    ];
    const started: Proc[] = [];
    const sides = [];
    for (const m of modes) {
      if (m.sink === null) {
        sides.push({ ...m, proc: gateway });
        continue;
      }
      started.push(await serve(`otlp sink ${m.suffix}`, 'tools/bench/dist/bare/otlp-sink.js', m.sink));
      const proc = await serve(`gateway ${m.suffix}`, 'apps/gateway/dist/main.js', m.port, GATEWAY_NODE_ARGS, { OTEL_EXPORTER_OTLP_ENDPOINT: base(m.sink), ...m.sampler });
      started.push(proc);
      sides.push({ ...m, proc });
      // A gateway just started compiles its hot paths for seconds (WARMUP_SEC's comment), which
      // the untraced one, under load for minutes by now, paid long ago: both paths warmed first.
      for (const [path, requests] of [['new', submit], ['check', checkRequests]] as const) {
        await cannon({ url: `${base(m.port)}/v1/reports/${path}`, connections: CONNECTIONS, durationSec: TRACED_WARMUP, ...requests });
      }
      await dropBacklogs();
    }
    for (let round = 1; round <= ROUNDS; round++) {
      say(`tracing round ${round} of ${ROUNDS}`);
      // Alternating order: the first and the last of a series are each first as often.
      const order = round % 2 ? sides : [...sides].reverse();
      for (const side of order) {
        await shoot(`submit${side.suffix}`, `${base(side.port)}/v1/reports/new`, submit, TRACING_NOTES[side.suffix], meterOf(side.proc));
        await dropBacklogs();
      }
      for (const side of order) await shoot(`check${side.suffix}`, `${base(side.port)}/v1/reports/check`, checkRequests, TRACING_NOTES[side.suffix], meterOf(side.proc));
    }
    const exported: Record<string, { exports: number; bytes: number }> = {};
    for (const side of sides) if (side.sink !== null) exported[side.suffix] = (await (await fetch(`${base(side.sink)}/count`)).json()) as { exports: number; bytes: number };
    for (const p of started.reverse()) await stop(p);
    return exported;
  };
  const tracingExports = await tracingRounds();

  // The cost of appendfsync always (our default) against everysec.
  await admin.config('SET', 'appendfsync', 'everysec');
  await shoot('submitEverysec', `${base(3900)}/v1/reports/new`, submit, 'appendfsync everysec', atGateway);
  await admin.config('SET', 'appendfsync', 'always');
  await dropBacklogs();

  // (e) list: one user with 10,000 reports, seeded through the storage port.
  const listUser = '700000000';
  const store = await createStore({ DATA_DIR: dataDir });
  for (let i = 0; i < LIST_REPORTS; i += 1000) {
    const batch: NewReport[] = Array.from({ length: 1000 }, (_, k) => ({
      id: uuidv7(Date.now() - LIST_REPORTS + i + k),
      userId: listUser,
      reporterId: `seed-${i + k}`,
      reporterPlatform: 'gameplatform',
      reportType: null,
      answers: [{ questionId: 'q1', answer: 'toxic chat' }],
      evidence: [{ url: 'https://clips.example/s', type: 'url' }],
      receivedAt: Date.now() - LIST_REPORTS + i + k,
      user: { name: 'seeded', displayName: 'Seeded', avatar: null },
    }));
    await store.saveReports(batch);
  }
  await store.close();
  await shoot('list', `${base(3900)}/v1/reports/${listUser}?limit=25`, { headers }, `${LIST_REPORTS} reports about the user`, atGateway);

  // (e2) the ban API over 10,000 players, a tenth banned (seeded through the storage port), and
  // a read of 1,000 feed events. Its ceiling is the hello world taking the very same requests
  // (random players' paths, the key's header, each built by autocannon as it sends it, which
  // costs the shared cores a third of the plain hello's rate), in rounds like the paired
  // scenarios; the plain hello is measured too, for the figure of earlier runs.
  const players = await seedSanctions(dataDir, SANCTION_PLAYERS);
  const player = randomOf(players);
  const statusRequests = { headers, path: () => `/v1/sanctions/${player()}` };
  await ceiling('helloBeforeSanctions', 'tools/bench/dist/bare/hello.js', 3901, {}, 'bare Fastify, plain requests');
  for (let round = 1; round <= ROUNDS; round++) {
    await ceiling('helloSanctionRequests', 'tools/bench/dist/bare/hello.js', 3901, statusRequests, "bare Fastify, sanctionStatus's requests");
    await shoot('sanctionStatus', `${base(3900)}/v1/sanctions/${players[0]}`, statusRequests, `${SANCTION_PLAYERS} players, a tenth banned`, atGateway);
  }
  await shoot('sanctionFeed', `${base(3900)}/v1/sanctions?limit=1000`, { headers }, '1,000 events per read', atGateway);

  // (f0) the ceiling of the decision cycles, right before them: the bare decision stack.
  say(`bare decision stack: ${CONNECTIONS} cases, ${DURATION} s`);
  const bareDecisions = await bareDecisionScenario({ env, port: 3903, connections: CONNECTIONS, durationSec: DURATION, running });
  say(`bare decision stack: ${bareDecisions.cyclesPerSec} cycles/s, ${bareDecisions.cpu.perDecisionMs} ms of CPU per decision`);

  // The workers now; they serve the decision cycles alone (the submits' backlog is gone; the drain
  // rate is measured on its own below).
  const workers = ['intake-worker', 'moderation-worker', 'notification-worker'].map((w) => startProcess(w, `apps/${w}/dist/main.js`, { ...env, METRICS_PORT: '0' }));
  running.push(...workers);
  const stopWorkerSampling = sampleRss(workers.map((w) => ({ name: w.name, pid: w.pid })));

  // (f) decision cycles: one case per connection, the CPU of every process metered.
  say(`decision cycles: ${CONNECTIONS} cases, ${DURATION} s`);
  const decisions = await decisionScenario({
    baseUrl: base(3900),
    auth,
    env,
    prefix: 'bench',
    moderatorId: 'bench-mod',
    connections: CONNECTIONS,
    durationSec: DURATION,
    procs: [...[gateway, ...workers].map((p) => ({ name: p.name, pid: p.pid })), ...redisProcs()],
  });
  say(`decision cycles: ${decisions.cycles.cyclesPerSec} cycles/s, ${decisions.cpu.perDecisionMs} ms of CPU per decision`);
  say(`decision cycles at one moderator: claim p50 ${decisions.cyclesAtOne.steps['claim']!.p50} ms`);

  // (f2) a ban wave through the sanctions API, the workers carrying out its effects meanwhile.
  say(`ban wave: ${BAN_WAVE} sanctions in batches of 1,000`);
  const wave = await banWave(base(3900), auth, BAN_WAVE, 1000);
  say(`ban wave: ${wave.sanctionsPerSec} sanctions/s (${wave.seconds} s), exactly once: ${wave.exactlyOnce}`);

  Object.assign(rss, stopWorkerSampling());

  for (const p of [...running]) await stop(p);

  // (g) intake drain rate at concurrency 1, 10, 50, in rounds like the paired scenarios: one
  // drain lasts a few seconds, and this VM's speed drifts.
  const drain = [];
  for (const c of [1, 10, 50]) {
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      say(`intake drain: ${DRAIN_REPORTS} reports at concurrency ${c}, round ${round} of ${ROUNDS}`);
      // A store of its own per run: SQLite inserts slow down as the tables grow, and each run
      // should face the same store.
      const drainEnv = { ...env, DATA_DIR: join(dataDir, `drain${c}-${round}`) };
      const load = { auth: createAdminKey(drainEnv), connections: CONNECTIONS, users: importUsers(drainEnv, 1000) };
      const d = await drainRate(drainEnv, c, DRAIN_REPORTS, load);
      rounds.push(d);
      say(`intake drain at ${c}: ${d.reportsPerSec} reports/s (${d.jobs} jobs, ${d.jobsPerSec} jobs/s)`);
    }
    drain.push(combineDrains(rounds));
  }

  const order = ['hello', 'bareQueue', 'submit', 'submitEvidence', 'submitEverysec', 'helloCheckRequests', 'bareCheck', 'check', ...TRACING_SCENARIOS, 'list', 'helloBeforeSanctions', 'helloSanctionRequests', 'sanctionStatus', 'sanctionFeed'];
  const scenarios: BenchResults['scenarios'] = Object.fromEntries(order.filter((name) => runs[name]).map((name) => [name, combine(runs[name]!.results, runs[name]!.note)]));
  const results: BenchResults = { machine: machine(), connections: CONNECTIONS, durationSec: DURATION, warmupSec: WARMUP, rounds: ROUNDS, scenarios, cycles: decisions.cycles, cyclesAtOne: decisions.cyclesAtOne, decisionCpu: decisions.cpu, bareDecisions, drain, banWave: wave, rssMb: rss, tracingExports, ratios: ratios(scenarios, drain, decisions.cycles.cyclesPerSec, bareDecisions.cyclesPerSec) };
  const md = markdown(results);
  const out = join(ROOT, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(out, 'latest.md'), md);
  process.stdout.write(`\n${md}\nwritten: bench/results/latest.json, bench/results/latest.md\n`);
}

await runBench(main, { say, running, dataDir, closers });
