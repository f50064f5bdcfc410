// `npm run bench -- replicas`: what REDIS_MIN_REPLICAS_ACK=1 costs a submit (issue 51). The
// gateway alone (as the main bench measures it) against the bench's Redis with one replica of
// it (AOF always, on this host), submit rate and latency with and without the setting, in
// alternating rounds. Expects REDIS_URL.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { cannon, type CannonResult } from './cannon.js';
import { dropQueue } from './drain.js';
import { createAdminKey, importUsers, randomOf, ROOT, submissionBody } from './fixtures.js';
import { benchSystem, GATEWAY_NODE_ARGS, runBench, startProcess, waitHttp, type Proc } from './processes.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 3);
const PREFIX = 'benchreplicas';
const say = (m: string) => process.stderr.write(`[bench replicas] ${m}\n`);

const { redisUrl, dataDir, env } = benchSystem('replicas', { KEY_PREFIX: PREFIX, MAX_REPORTS_PER_DAY: '5', METRICS_PORT: '0' });
const running: Proc[] = [];
const closers: (() => void)[] = [];

const freePort = () =>
  new Promise<number>((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });

/** A replica of the bench's Redis, as it runs (AOF always); stopped by PID with the rest. */
async function startReplica(): Promise<void> {
  const primary = new URL(redisUrl);
  const port = await freePort();
  const dir = join(dataDir, 'replica');
  mkdirSync(dir, { recursive: true });
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''];
  const child = spawn('redis-server', [...args, '--replicaof', primary.hostname || '127.0.0.1', primary.port || '6379'], { stdio: 'ignore' });
  const stop = () =>
    new Promise<void>((ok) => {
      if (child.exitCode !== null || child.signalCode !== null) return ok();
      child.once('exit', () => ok());
      child.kill('SIGTERM');
    });
  running.push({ name: 'replica', pid: child.pid!, stop });
  const replica = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => 100 });
  replica.on('error', () => undefined);
  closers.push(() => replica.disconnect());
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    if ((await replica.info('replication').catch(() => '')).includes('master_link_status:up')) return;
  }
  throw new Error(`the replica on ${port} did not get in sync`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await runBench(
  async () => {
    await startReplica();
    // A port found free, not a fixed one: another system on this host may hold any given port.
    const PORT = await freePort();
    const auth = createAdminKey({ ...env });
    const pick = randomOf(importUsers({ ...env }, 1000));
    const submit = { url: `http://127.0.0.1:${PORT}/v1/reports/new`, method: 'POST' as const, headers: { authorization: auth }, body: () => submissionBody(pick()), connections: CONNECTIONS };
    const runs: Record<'without' | 'with', CannonResult[]> = { without: [], with: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternating order: the second of a pair ran slower on this VM.
      for (const ack of round % 2 ? [0, 1] : [1, 0]) {
        const gateway = startProcess('gateway', 'apps/gateway/dist/main.js', { ...env, PORT: String(PORT), REDIS_MIN_REPLICAS_ACK: String(ack) }, GATEWAY_NODE_ARGS);
        running.push(gateway);
        await waitHttp(`http://127.0.0.1:${PORT}/`);
        if (WARMUP > 0) await cannon({ ...submit, durationSec: WARMUP });
        const result = await cannon({ ...submit, durationSec: DURATION });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors with REDIS_MIN_REPLICAS_ACK=${ack}: not a measure of submits`);
        runs[ack ? 'with' : 'without'].push(result);
        say(`round ${round}, REDIS_MIN_REPLICAS_ACK=${ack}: ${result.reqPerSec} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.non2xx} non-2xx`);
        await gateway.stop();
        running.splice(running.indexOf(gateway), 1);
        // Nothing consumes the jobs (the gateway is measured alone): dropped between runs.
        await dropQueue(env, PREFIX, 'intake');
      }
    }
    const summary = {
      reqPerSecWithout: median(runs.without.map((r) => r.reqPerSec)),
      reqPerSecWith: median(runs.with.map((r) => r.reqPerSec)),
      p99Without: median(runs.without.map((r) => r.p99)),
      p99With: median(runs.with.map((r) => r.p99)),
    };
    const ratio = Math.round((summary.reqPerSecWith / summary.reqPerSecWithout) * 1000) / 1000;
    const out = join(ROOT, 'bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'replicas.json'), `${JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, connections: CONNECTIONS, durationSec: DURATION, ...summary, withOverWithout: ratio, runs }, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify({ ...summary, withOverWithout: ratio })}\nwritten: bench/results/replicas.json\n`);
  },
  { say, running, dataDir, closers },
);
