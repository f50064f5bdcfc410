// `npm run soak` (tools/dev/soak.mjs starts a private Redis for it): the whole system (gateway and
// every worker, as `npm start` runs them) under a steady mixed load for 30 minutes by default,
// with a row per minute (each operation's requests, p50 and p99, errors, each process's RSS and
// heap) and a verdict against issue 51's goals. Not part of `npm test`.
import { Command, Option } from 'commander';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { cpuSeconds } from './cpu.js';
import { addModerator, createAdminKey, importUsers, submissionBody } from './fixtures.js';
import { Redis } from 'ioredis';
import { benchSystem, GATEWAY_NODE_ARGS, redisProcs, rssMb, runBench, startProcess, waitHttp, type Proc } from './processes.js';
import { SoakLoad, SOAK_MIX, type MinuteOfLoad } from './soak-load.js';
import { GOALS, minuteLine, minuteTable, verdict, type Memory, type SoakMinute } from './soak-report.js';

const WORKERS = {
  intake: 'apps/intake-worker/dist/main.js',
  moderation: 'apps/moderation-worker/dist/main.js',
  notification: 'apps/notification-worker/dist/main.js',
  evidence: 'apps/evidence-worker/dist/main.js',
} as const;
const MINUTE_MS = Number(process.env['SOAK_MINUTE_MS'] ?? 60_000);
const SAMPLE_MS = 5_000;
const REDIS_STALL_MS = 5;

interface Options {
  minutes: number;
  warmup?: number;
  rate: number;
  players: number;
  decided: number;
  json?: string;
}

const whole = (name: string, min: number, max: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${v})`);
  return n;
};

const say = (m: string) => process.stderr.write(`[soak] ${m}\n`);

const freePort = () =>
  new Promise<number>((ok, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Redis's latency events since the last call (event -> its longest, ms), the monitor then reset. */
async function redisStalls(admin: Redis): Promise<Record<string, number>> {
  const latest = (await admin.latency('LATEST').catch(() => [])) as [string, number, number, number][];
  await admin.latency('RESET').catch(() => undefined);
  return Object.fromEntries(latest.map(([event, , , max]) => [event, max]));
}

/**
 * What a process's /metrics says of its heap used (MB) and its longest event-loop stall since the
 * last scrape (ms: prom-client resets its delay histogram at each); null heap when it does not answer.
 */
async function processMetrics(metricsUrl: string): Promise<Pick<Memory, 'heapMb' | 'loopMaxMs'>> {
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(2_000) })).text();
    const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
    const heap = value('nodejs_heap_size_used_bytes');
    // The delay monitor ticks every 10 ms and records each tick's whole interval: its least is the tick.
    const stall = value('nodejs_eventloop_lag_max_seconds') - value('nodejs_eventloop_lag_min_seconds');
    return { heapMb: Number.isNaN(heap) ? null : heap / 1e6, ...(!Number.isNaN(stall) && { loopMaxMs: Math.max(0, stall * 1000) }) };
  } catch {
    return { heapMb: null };
  }
}

/** A warm-up of a sixth of the run (5 of 30 minutes), at least one minute, unless told. */
export function warmUpMinutes(minutes: number, asked?: number): number {
  return asked ?? (minutes >= 30 ? 5 : Math.max(1, Math.round(minutes / 6)));
}

async function soak(o: Options): Promise<void> {
  const warmUp = warmUpMinutes(o.minutes, o.warmup);
  if (o.minutes - warmUp < 2) throw new Error(`--minutes ${o.minutes} with a warm-up of ${warmUp}: at least two minutes must follow the warm-up`);
  // OTEL_* reach every process: a soak can be traced (docs/testing.md) to see where a slow minute's time went.
  const otel = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('OTEL_')));
  const { dataDir, env } = benchSystem('soak', { KEY_PREFIX: 'soak', ...otel });
  const running: Proc[] = [];
  await runBench(
    async () => {
      const port = await freePort();
      const baseUrl = new URL(`http://127.0.0.1:${port}`);
      // Each process as `npm start` runs it (the gateway with its heap limit), each worker's /metrics on a port of its own.
      const metricsOf: Record<string, string> = { gateway: `${baseUrl.origin}/metrics` };
      const gateway = startProcess('gateway', 'apps/gateway/dist/main.js', { ...env, PORT: String(port) }, GATEWAY_NODE_ARGS);
      running.push(gateway);
      for (const [name, entry] of Object.entries(WORKERS)) {
        const metricsPort = await freePort();
        running.push(startProcess(name, entry, { ...env, METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' }));
        metricsOf[name] = `http://127.0.0.1:${metricsPort}/metrics`;
      }
      await waitHttp(`${baseUrl.origin}/`);
      for (const url of Object.values(metricsOf)) await waitHttp(url.replace('/metrics', '/health'));

      say(`setting up: an admin key, ${o.players} players, a moderator, ${o.decided} cases to approve and undo`);
      const cliEnv = { ...env };
      const auth = createAdminKey(cliEnv, 'soak');
      const players = importUsers(cliEnv, o.players);
      const decidedIds = importUsers(cliEnv, o.decided, 800_000_000);
      addModerator(cliEnv, 'soak-mod', 'soak-moderator');
      const decided = await openCases(baseUrl, auth, decidedIds);

      const procs = [...running.map((p) => ({ name: p.name, pid: p.pid })), ...redisProcs()];
      const load = new SoakLoad({ baseUrl, auth, rate: o.rate, players, decided, moderatorId: 'soak-mod', maxInFlight: 200 });
      say(
        `${o.minutes} minutes at ${o.rate} requests/s (${Object.entries(SOAK_MIX)
          .map(([k, v]) => `${k} ${v} %`)
          .join(', ')}); warm-up ${warmUp} minute(s)${o.warmup === undefined && o.minutes < 30 ? ` (a sixth of a ${o.minutes}-minute run: the goals speak of 5 of 30)` : ''}`,
      );
      const minutes: SoakMinute[] = [];
      // Redis's AOF rewrites per minute: each forks and writes the file anew beside the fsync of every write.
      const admin = new Redis(env['REDIS_URL']!);
      const aofRewrites = async () => Number(/aof_rewrites:(\d+)/.exec(await admin.info('persistence').catch(() => ''))?.[1] ?? 0);
      let rewrites = await aofRewrites();
      // And what stalled it: Redis's latency monitor records each event (fork, fsync, command) over 5 ms.
      await admin.config('SET', 'latency-monitor-threshold', String(REDIS_STALL_MS));
      await admin.latency('RESET');
      load.start();
      for (let minute = 1; minute <= o.minutes; minute++) {
        const samples: Record<string, Memory[]> = {};
        const cpuAtStart = Object.fromEntries(procs.map((p) => [p.name, cpuSeconds(p.pid)]));
        const end = Date.now() + MINUTE_MS;
        while (Date.now() < end) {
          await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, end - Date.now())));
          for (const p of procs) (samples[p.name] ??= []).push({ rssMb: rssMb(p.pid), ...(metricsOf[p.name] ? await processMetrics(metricsOf[p.name]!) : { heapMb: null }) });
        }
        const row = summarize(minute, minute <= warmUp, load.takeMinute(), samples);
        const rewritesNow = await aofRewrites();
        row.aofRewrites = rewritesNow - rewrites;
        rewrites = rewritesNow;
        row.redisStalls = await redisStalls(admin);
        for (const p of procs) row.memory[p.name]!.cpuPct = ((cpuSeconds(p.pid) - cpuAtStart[p.name]!) / (MINUTE_MS / 1000)) * 100;
        minutes.push(row);
        process.stdout.write(`${minuteLine(row)}\n`);
      }
      await load.stop();
      admin.disconnect();
      const result = verdict(minutes);
      process.stdout.write(`\n${minuteTable(minutes)}\n\n(w: warm-up minute; RSS and heap: each minute's mean of a sample every ${SAMPLE_MS / 1000} s; load: the machine's load average at the minute's end)\n\n`);
      process.stdout.write(`verdict after a ${warmUp}-minute warm-up: ${result.pass ? 'PASS' : 'MISS'}\n${result.lines.map((l) => `  ${l}`).join('\n')}\n`);
      if (o.json) writeFileSync(o.json, JSON.stringify({ minutes: o.minutes, warmUp, rate: o.rate, mix: SOAK_MIX, goals: GOALS, rows: minutes, verdict: result }, null, 2));
      if (!result.pass) process.exitCode = 1;
    },
    { say, running, dataDir },
  );
}

/** One report about each player, stored (its case open) before the load starts. */
async function openCases(baseUrl: URL, auth: string, userIds: string[]): Promise<{ userId: string; reportId: string }[]> {
  const opened: { userId: string; reportId: string }[] = [];
  for (const userId of userIds) {
    const res = await fetch(new URL('/v1/reports/new', baseUrl), { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: submissionBody(userId) });
    const body = (await res.json()) as { id?: string };
    if (res.status !== 200 || !body.id) throw new Error(`the first report about ${userId} was answered ${res.status}`);
    opened.push({ userId, reportId: body.id });
  }
  const deadline = Date.now() + 120_000;
  for (const { userId } of opened) {
    for (;;) {
      const res = await fetch(new URL(`/v1/reports/${userId}`, baseUrl), { headers: { authorization: auth } });
      if (((await res.json()) as { count?: number }).count === 1) break;
      if (Date.now() > deadline) throw new Error(`the first report about ${userId} was not stored within two minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return opened;
}

function summarize(minute: number, warmUp: boolean, load: MinuteOfLoad, samples: Record<string, Memory[]>): SoakMinute {
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const memory = Object.fromEntries(
    Object.entries(samples).map(([name, s]) => {
      const heaps = s.map((x) => x.heapMb).filter((h): h is number => h !== null);
      const loops = s.map((x) => x.loopMaxMs).filter((l): l is number => l !== undefined);
      return [name, { rssMb: mean(s.map((x) => x.rssMb)), heapMb: heaps.length ? mean(heaps) : null, ...(loops.length && { loopMaxMs: Math.max(...loops) }) }];
    }),
  );
  const ops = Object.fromEntries(
    Object.entries(load.ops).map(([name, samples]) => {
      const { requests, p50, p99 } = samples.summary(MINUTE_MS / 1000);
      return [name, { requests, p50, p99 }];
    }),
  );
  return { minute, warmUp, ops, errors: load.errors, shed: load.shed, memory, load: loadavg()[0]! };
}

const program = new Command('soak')
  .description('The whole system under a steady mixed load: per minute, latency per operation, errors, RSS and heap per process; a verdict against the goals')
  .addOption(new Option('--minutes <n>', 'minutes to run').argParser(whole('--minutes', 3, 24 * 60)).default(30))
  .addOption(new Option('--warmup <n>', 'minutes not held to the goals (default: 5 of 30, a sixth of a shorter run, at least 1)').argParser(whole('--warmup', 0, 24 * 60)))
  .addOption(new Option('--rate <n>', 'requests per second offered').argParser(whole('--rate', 1, 10_000)).default(100))
  // Enough of each that no player's case or sanctions grow large in half an hour: the load stays the
  // same from minute to minute (with 200 players and 20 decided ones, each case held ~360 reports and
  // each decided player ~220 sanctions by minute 30, and the syncs and ban answers grew with them).
  .addOption(new Option('--players <n>', 'players reported about').argParser(whole('--players', 1, 100_000)).default(2_000))
  .addOption(new Option('--decided <n>', 'players whose case is approved and undone in turn').argParser(whole('--decided', 1, 100_000)).default(1_000))
  .option('--json <file>', 'also write every minute and the verdict as JSON to this file')
  .action((o: Options) => soak(o));

program.parseAsync(process.argv).catch((err: Error) => {
  say(err.message);
  process.exit(1);
});
