import { Queue } from 'bullmq';
import type { QueueKey } from '@rm/contracts';
import { createRedis, openQueue, type Redis } from '@rm/runtime';
import { BARE_QUEUE } from './bare/bare-queue.js';
import { cannon } from './cannon.js';
import { randomOf, submissionBody } from './fixtures.js';
import { startProcess, waitHttp } from './processes.js';

const DRAIN_GATEWAY_PORT = 3903;

/** Resolves once the queue has nothing waiting, running, delayed or prioritized. */
export async function emptied(queue: Queue): Promise<void> {
  for (;;) {
    const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
    if (Object.values(counts).every((n) => n === 0)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface BenchQueue {
  redis: Redis;
  queue: Queue;
}

/** One queue of the catalog under `prefix` (a KEY_PREFIX), on a connection of its own. */
function benchQueue(env: NodeJS.ProcessEnv, prefix: string, key: QueueKey): BenchQueue {
  const redis = createRedis({ REDIS_URL: env['REDIS_URL']! });
  return { redis, queue: openQueue(key, redis, prefix) };
}

async function close({ redis, queue }: BenchQueue): Promise<void> {
  await queue.close();
  redis.disconnect();
}

/** Removes the queue and every job in it, then closes it. */
async function drop(q: BenchQueue): Promise<void> {
  await q.queue.obliterate({ force: true });
  await close(q);
}

/** Removes a queue and every job in it. */
export async function dropQueue(env: NodeJS.ProcessEnv, prefix: string, key: QueueKey): Promise<void> {
  await drop(benchQueue(env, prefix, key));
}

/** Removes the bare queue stack's queue (bare/queue-stack.ts) and every job in it. */
export async function dropBareQueue(redisUrl: string): Promise<void> {
  const redis = createRedis({ REDIS_URL: redisUrl });
  const queue = new Queue(BARE_QUEUE.name, { connection: redis, prefix: BARE_QUEUE.prefix });
  await drop({ redis, queue });
}

/** Resolves once the intake queue under `prefix` has nothing waiting or running. */
export async function untilDrained(env: NodeJS.ProcessEnv, prefix: string): Promise<void> {
  const q = benchQueue(env, prefix, 'intake');
  await emptied(q.queue);
  await close(q);
}

export interface DrainResult {
  concurrency: number;
  /** Reports submitted, and the intake jobs the gateway made of them. */
  reports: number;
  jobs: number;
  seconds: number;
  reportsPerSec: number;
  jobsPerSec: number;
}

/**
 * Intake drain rate: with no intake worker running, a gateway on a fresh queue prefix takes
 * `reports` submits from `connections` connections, so the queue holds the jobs a loaded gateway
 * really makes; then one intake worker at the given concurrency is timed until it has stored them.
 */
export async function drainRate(
  env: NodeJS.ProcessEnv,
  concurrency: number,
  reports: number,
  load: { auth: string; connections: number; users: string[] },
  /** The submit body for a user (default: submissionBody); the queue prefix is `drain<concurrency><tag>`. */
  submission: { body: (userId: string) => string; tag: string } = { body: submissionBody, tag: '' },
): Promise<DrainResult> {
  const prefix = `drain${concurrency}${submission.tag}`;
  const gateway = startProcess(`gateway-drain-${concurrency}`, 'apps/gateway/dist/main.js', { ...env, KEY_PREFIX: prefix, PORT: String(DRAIN_GATEWAY_PORT) });
  const url = `http://127.0.0.1:${DRAIN_GATEWAY_PORT}`;
  await waitHttp(`${url}/`);
  const pick = randomOf(load.users);
  const filled = await cannon({ url: `${url}/v1/reports/new`, method: 'POST', headers: { authorization: load.auth }, body: () => submission.body(pick()), connections: load.connections, amount: reports });
  await gateway.stop();
  if (filled.non2xx + filled.errors > 0) throw new Error(`${filled.non2xx + filled.errors} submits failed while filling the drain queue at concurrency ${concurrency}`);

  const intake = benchQueue(env, prefix, 'intake');
  const { queue } = intake;
  const jobs = await queue.getWaitingCount();
  const worker = startProcess(`intake-${concurrency}`, 'apps/intake-worker/dist/main.js', { ...env, KEY_PREFIX: prefix, INTAKE_CONCURRENCY: String(concurrency) });
  while ((await queue.getWorkers()).length === 0) await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  await emptied(queue);
  const seconds = (performance.now() - t0) / 1000;
  const failed = await queue.getFailedCount();
  if (failed > 0) throw new Error(`${failed} intake jobs failed during the drain at concurrency ${concurrency}`);
  await worker.stop();
  await drop(intake);
  return drainResult(concurrency, filled.requests, jobs, seconds);
}

/** Several drains at one concurrency as one: their totals, and the rates of those totals. */
export function combineDrains(runs: DrainResult[]): DrainResult {
  const total = (pick: (r: DrainResult) => number) => runs.reduce((n, r) => n + pick(r), 0);
  return drainResult(runs[0]!.concurrency, total((r) => r.reports), total((r) => r.jobs), total((r) => r.seconds));
}

function drainResult(concurrency: number, reports: number, jobs: number, seconds: number): DrainResult {
  return { concurrency, reports, jobs, seconds: Math.round(seconds * 100) / 100, reportsPerSec: Math.round(reports / seconds), jobsPerSec: Math.round(jobs / seconds) };
}
