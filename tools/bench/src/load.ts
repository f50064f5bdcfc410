import { Command, Option } from 'commander';
import cliProgress from 'cli-progress';
import { writeFileSync } from 'node:fs';
import { drive, type Operation } from './driver.js';
import { addModerator, checkBody, createAdminKey, importUsers, randomOf, submissionBody } from './fixtures.js';
import { assertLoopback } from './loopback.js';
import type { OperationSummary } from './stats.js';

interface Options {
  url: string;
  allowRemote: boolean;
  auth?: string;
  users: number;
  connections: number;
  duration: number;
  requests: number;
  mix: string;
  json?: string;
}

const whole = (name: string, min: number, max: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${v})`);
  return n;
};

function parseMix(mix: string): Record<string, number> {
  const parts = Object.fromEntries(
    mix.split(',').map((part) => {
      const [name, pct] = part.split('=');
      if (!name || !['submit', 'check', 'list', 'decisions'].includes(name) || pct === undefined || !(Number(pct) >= 0)) {
        throw new Error(`--mix takes submit=N,check=N,list=N,decisions=N (got ${part})`);
      }
      return [name, Number(pct)];
    }),
  );
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  if (total <= 0) throw new Error('--mix must give some operation a share above 0');
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, (v / total) * 100]));
}

function operations(mix: Record<string, number>, users: string[], submitted: string[]): Operation[] {
  const user = randomOf(users);
  const all: Record<string, Operation['build']> = {
    submit: () => ({ method: 'POST', path: '/v1/reports/new', body: submissionBody(user()) }),
    check: () => ({ method: 'POST', path: '/v1/reports/check', body: checkBody(user()) }),
    list: () => ({ method: 'GET', path: `/v1/reports/${user()}?limit=25` }),
    // Claim or unclaim a report submitted earlier in this run: exercises the decisions queue round trip.
    decisions: () => {
      const id = submitted[Math.floor(Math.random() * submitted.length)] ?? '00000000-0000-7000-8000-000000000000';
      return { method: 'POST', path: `/v1/reports/${id}/${Math.random() < 0.5 ? 'claim' : 'unclaim'}`, body: JSON.stringify({ moderator: { id: 'load-mod' } }) };
    },
  };
  return Object.entries(mix)
    .filter(([, w]) => w > 0)
    .map(([name, weight]) => ({ name, weight, build: all[name]! }));
}

async function warmUp(baseUrl: URL, auth: string, users: string[], count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(new URL('/v1/reports/new', baseUrl), {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: submissionBody(users[i % users.length]!),
    });
    const body = (await res.json()) as { id?: string };
    if (body.id) ids.push(body.id);
  }
  return ids;
}

function printSummary(seconds: number, ops: Record<string, OperationSummary>, errors: Record<string, number>): void {
  const rows = Object.entries(ops).map(([name, s]) => [name, s.requests, s.reqPerSec, s.p50, s.p90, s.p99, s.max, JSON.stringify(s.statuses)]);
  const total = Object.values(ops).reduce((a, s) => a + s.requests, 0);
  process.stdout.write(`\n${total} requests in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(0)} req/s\n`);
  const header = ['operation', 'requests', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'statuses'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((c, i) => String(c).padEnd(widths[i]!)).join('  ')}\n`);
  if (Object.keys(errors).length > 0) process.stdout.write(`connection errors: ${JSON.stringify(errors)}\n`);
}

const program = new Command('load')
  .description('Drive a running gateway with a mix of operations and report throughput and latency')
  .option('--url <url>', 'gateway base URL (loopback only unless --allow-remote)', 'http://127.0.0.1:3000')
  .option('--allow-remote', 'allow a non-loopback URL', false)
  .option('--auth <key:secret>', 'use this admin key instead of creating one through the CLI')
  .addOption(new Option('--users <n>', 'players to create and report about').argParser(whole('--users', 1, 1_000_000)).default(100))
  .addOption(new Option('--connections <n>', 'concurrent connections').argParser(whole('--connections', 1, 1000)).default(50))
  .addOption(new Option('--duration <s>', 'seconds to run at most').argParser(whole('--duration', 1, 3600)).default(10))
  .addOption(new Option('--requests <n>', 'requests to send at most').argParser(whole('--requests', 1, 100_000_000)).default(1_000_000))
  .option('--mix <mix>', 'percentages: submit=N,check=N,list=N,decisions=N', 'submit=70,check=20,list=10,decisions=0')
  .option('--json <file>', 'also write the summary as JSON to this file')
  .action(async (o: Options) => {
    const baseUrl = assertLoopback(o.url, o.allowRemote);
    const mix = parseMix(o.mix);
    process.stderr.write(`setting up: ${o.users} users${o.auth ? '' : ', an admin key'} through the admin CLI\n`);
    const auth = o.auth ?? createAdminKey(process.env);
    const users = o.auth ? Array.from({ length: o.users }, (_, i) => String(900_000_000 + i)) : importUsers(process.env, o.users);
    if ((mix['decisions'] ?? 0) > 0) addModerator(process.env, 'load-mod', 'load-moderator');

    // A short warm-up of submits gives the decisions operation reports to act on.
    const submitted = (mix['decisions'] ?? 0) > 0 ? await warmUp(baseUrl, auth, users, 200) : [];
    const bar = new cliProgress.SingleBar({ format: 'load [{bar}] {value} req | {rate} req/s | {elapsed}s', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000 }, cliProgress.Presets.shades_classic);
    bar.start(o.requests, 0, { rate: 0, elapsed: 0 });
    const result = await drive(operations(mix, users, submitted), {
      baseUrl,
      auth,
      connections: o.connections,
      durationSec: o.duration,
      maxRequests: o.requests,
      onProgress: (done, elapsed) => bar.update(done, { rate: Math.round(done / Math.max(elapsed, 0.001)), elapsed: elapsed.toFixed(0) }),
    });
    bar.stop();
    const summary = Object.fromEntries(Object.entries(result.operations).map(([k, s]) => [k, s.summary(result.seconds)]));
    printSummary(result.seconds, summary, result.errors);
    if (o.json) writeFileSync(o.json, JSON.stringify({ url: o.url, connections: o.connections, seconds: result.seconds, operations: summary, errors: result.errors }, null, 2));
  });

program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(1);
});
