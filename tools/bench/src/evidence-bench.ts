// `npm run bench -- evidence`: what keeping evidence costs. (1) The intake drain with
// `createEvidence: true` on every report against the same drain without it (the capture jobs are
// queued after each commit: one more Redis command per micro-batch of intake jobs); (2) captures per second of
// one evidence worker from a local HTTP server serving small images. Expects REDIS_URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPTURE_ITEMS_PER_JOB, jobIdFor, QUEUES, type CaptureJob } from '@rm/contracts';
import { createRedis, openQueue } from '@rm/runtime';
import { drainRate, type DrainResult } from './drain.js';
import { createAdminKey, importUsers, ROOT, submissionBody } from './fixtures.js';
import { benchSystem, startProcess } from './processes.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const DRAIN_REPORTS = Number(process.env['BENCH_EVIDENCE_REPORTS'] ?? 10_000);
const CAPTURES = Number(process.env['BENCH_CAPTURES'] ?? 3_000);
/** Capture jobs at once (each keeps up to CAPTURE_ITEMS_PER_JOB items at once). */
const CAPTURE_CONCURRENCY = Number(process.env['BENCH_CAPTURE_CONCURRENCY'] ?? 5);
const say = (m: string) => process.stderr.write(`[bench evidence] ${m}\n`);

const { redisUrl, dataDir, env } = benchSystem('evidence', { MAX_REPORTS_PER_DAY: '5', METRICS_PORT: '0' });

// A 1x1 PNG; each capture gets different bytes (a counter after IEND), so each is stored anew.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  return s.length % 2 ? s[Math.floor(mid)]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** (1) Drains at concurrency 10 with and without createEvidence, alternating, a store of their own each. */
async function drains(): Promise<{ plain: DrainResult[]; withEvidence: DrainResult[]; ratio: number }> {
  const plain: DrainResult[] = [];
  const withEvidence: DrainResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const evidence of [false, true]) {
      const drainEnv = { ...env, DATA_DIR: join(dataDir, `drain-${round}-${evidence}`) };
      const load = { auth: createAdminKey(drainEnv), connections: CONNECTIONS, users: importUsers(drainEnv, 1000) };
      const d = await drainRate(drainEnv, 10, DRAIN_REPORTS, load, { body: (u) => submissionBody(u, evidence), tag: `${evidence ? 'e' : 'p'}${round}` });
      (evidence ? withEvidence : plain).push(d);
      say(`round ${round}: intake drain ${evidence ? 'with' : 'without'} createEvidence: ${d.reportsPerSec} reports/s`);
    }
  }
  const ratio = Math.round(median(withEvidence.map((d, i) => d.reportsPerSec / plain[i]!.reportsPerSec)) * 1000) / 1000;
  return { plain, withEvidence, ratio };
}

/** (2) One evidence worker captures CAPTURES queued small images from a local server. */
async function captures(): Promise<{ captures: number; seconds: number; perSec: number; concurrency: number }> {
  let n = 0;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.from(String(n++))]));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const prefix = 'benchcapture';
  const redis = createRedis({ REDIS_URL: redisUrl });
  const queue = openQueue('evidence', redis, prefix);
  try {
    // As intake queues them: the items of a batch of reports, CAPTURE_ITEMS_PER_JOB to a job.
    const jobs: CaptureJob[] = Array.from({ length: Math.ceil(CAPTURES / CAPTURE_ITEMS_PER_JOB) }, (_, j) => ({
      kind: 'capture',
      items: Array.from({ length: Math.min(CAPTURE_ITEMS_PER_JOB, CAPTURES - j * CAPTURE_ITEMS_PER_JOB) }, (_, k) => {
        const i = j * CAPTURE_ITEMS_PER_JOB + k;
        return { reportId: `bench-${i}`, caseId: 'bench-case', index: 0, url: `http://127.0.0.1:${port}/shot-${i}.png`, type: 'url' as const };
      }),
    }));
    for (let i = 0; i < jobs.length; i += 1000) {
      await queue.addBulk(jobs.slice(i, i + 1000).map((data) => ({ name: data.kind, data, opts: { jobId: jobIdFor.evidence(data), attempts: QUEUES.evidence.attempts, removeOnComplete: true } })));
    }
    const worker = startProcess('evidence-worker', 'apps/evidence-worker/dist/main.js', {
      ...env,
      KEY_PREFIX: prefix,
      EVIDENCE_CONCURRENCY: String(CAPTURE_CONCURRENCY),
      // The bench's own local server: the test-only allow-list, on 127.0.0.1 only.
      EVIDENCE_FETCH_ALLOW: `127.0.0.1:${port}`,
    });
    try {
      while ((await queue.getWorkers()).length === 0) await new Promise((r) => setTimeout(r, 20));
      const t0 = performance.now();
      // The worker also schedules the daily sweep, a delayed job that stays: only the captures count.
      for (;;) {
        const counts = await queue.getJobCounts('wait', 'active', 'prioritized');
        if (Object.values(counts).every((c) => c === 0)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const seconds = (performance.now() - t0) / 1000;
      const failed = await queue.getFailedCount();
      if (failed > 0) throw new Error(`${failed} capture jobs failed`);
      return { captures: CAPTURES, seconds: Math.round(seconds * 100) / 100, perSec: Math.round(CAPTURES / seconds), concurrency: CAPTURE_CONCURRENCY };
    } finally {
      await worker.stop();
    }
  } finally {
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
    server.close();
  }
}

try {
  const d = await drains();
  say(`intake drain with createEvidence / without: ${d.ratio}`);
  const c = await captures();
  say(`captures: ${c.perSec}/s (${c.captures} in ${c.seconds} s at concurrency ${c.concurrency})`);
  const results = { date: new Date().toISOString(), drainReports: DRAIN_REPORTS, rounds: ROUNDS, drainWithEvidenceOverPlain: d.ratio, drains: d, captures: c };
  const out = join(ROOT, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'evidence.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ drainWithEvidenceOverPlain: d.ratio, capturesPerSec: c.perSec })}\nwritten: bench/results/evidence.json\n`);
} catch (err) {
  say(`failed: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
