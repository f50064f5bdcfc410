import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { say } from './log.mjs';
import { aptInstall, canApt } from './apt.mjs';
import { which } from './run.mjs';

/** True when a Redis answers PING at host:port. */
export function ping(host, port, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    let answer = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

/**
 * `CONFIG GET name` on host:port over plain RESP: the value, or undefined when CONFIG is refused
 * (managed services hide it) or nothing sensible answers.
 */
export function configGet(host, port, name, timeoutMs = 1_000) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    let answer = '';
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.on('error', () => done(undefined));
    socket.on('connect', () => socket.write(`CONFIG GET ${name}\r\n`));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (!answer.startsWith('*')) return answer.includes('\r\n') && done(undefined);
      // *2 $len name $len value: five CRLF-terminated lines in all.
      const lines = answer.split('\r\n');
      if (lines.length >= 6) done(lines[0] === '*2' ? lines[4] : undefined);
    });
  });
}

/**
 * The checks every process runs at start (packages/runtime, checkRedis), for a Redis `npm start`
 * reuses: an evicting one is refused with one line; AOF off, or CONFIG hidden, is a warning.
 */
export async function checkReusedRedis(host, port) {
  const [policy, aof] = [await configGet(host, port, 'maxmemory-policy'), await configGet(host, port, 'appendonly')];
  if (policy !== undefined && policy !== 'noeviction') {
    throw new Error(`the Redis on ${host}:${port} has maxmemory-policy ${policy}; it must be noeviction, or Redis silently deletes queued reports and decisions when memory is full (CONFIG SET maxmemory-policy noeviction, or stop it and let npm start run its own)`);
  }
  if (policy === undefined || aof === undefined) say(`warning: the settings of the Redis on ${host}:${port} could not be checked (CONFIG GET is not allowed): make sure maxmemory-policy is noeviction and AOF is on`);
  else if (aof === 'no') say(`warning: the Redis on ${host}:${port} has AOF off: a Redis restart loses the accepted reports and decisions it holds (CONFIG SET appendonly yes)`);
}

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Finds Debian's redis-server, installing it with apt when missing and we are root. */
export async function redisServerBinary() {
  let binary = which('redis-server');
  if (binary) return binary;
  if (!canApt()) {
    throw new Error('redis-server is not installed and cannot be installed from here (needs root and apt-get): install Debian\'s redis-server, or set REDIS_URL');
  }
  const installed = await aptInstall('redis-server');
  binary = which('redis-server');
  if (!installed || !binary) throw new Error('installing redis-server with apt-get failed; install it by hand or set REDIS_URL');
  return binary;
}

/**
 * Starts redis-server on 127.0.0.1:port with its data in dir: AOF on with appendfsync always, so a
 * report answered 200 survives a crash of Redis itself. Detached in its own process group, so it
 * outlives the launcher and the apps. Resolves once it answers PING.
 */
export async function startRedis({ port, dir }) {
  const binary = await redisServerBinary();
  mkdirSync(dir, { recursive: true });
  const logFd = openSync(join(dir, 'redis.log'), 'a');
  const child = spawn(
    binary,
    [
      '--bind', '127.0.0.1',
      '--port', String(port),
      '--dir', dir,
      '--pidfile', join(dir, 'redis.pid'),
      '--appendonly', 'yes',
      '--appendfsync', 'always',
      '--maxmemory-policy', 'noeviction',
      '--save', '',
      '--daemonize', 'no',
    ],
    { detached: true, stdio: ['ignore', logFd, logFd] },
  );
  child.unref();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (await ping('127.0.0.1', port)) return { pid: child.pid, url: `redis://127.0.0.1:${port}` };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  let tail = '';
  try {
    tail = readFileSync(join(dir, 'redis.log'), 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {}
  throw new Error(`redis-server did not start on port ${port}: ${tail}`);
}

/**
 * The Redis the system uses: the one REDIS_SENTINELS name, or the cluster of REDIS_CLUSTER_NODES, when
 * set; else REDIS_URL when set;
 * else one already answering on 127.0.0.1:6379 (for example the one a previous `npm start` left
 * running); else a new one under dataDir/redis.
 */
export async function ensureRedis(dataDir) {
  if (process.env.REDIS_SENTINELS) {
    // Sentinel-managed: the Sentinels name the primary; REDIS_URL only carries credentials and TLS.
    say(`using the Redis whose Sentinels are ${process.env.REDIS_SENTINELS}`);
    return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  }
  if (process.env.REDIS_CLUSTER_NODES) {
    // A cluster is the operator's to run; REDIS_URL then only carries its credentials and TLS.
    say(`using the Redis Cluster at ${process.env.REDIS_CLUSTER_NODES}`);
    return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  }
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  if (await ping('127.0.0.1', 6379)) {
    await checkReusedRedis('127.0.0.1', 6379);
    say('using the Redis already running on 127.0.0.1:6379');
    return 'redis://127.0.0.1:6379';
  }
  const dir = join(dataDir, 'redis');
  say(`starting redis-server on 127.0.0.1:6379 (data in ${dir}, AOF appendfsync always)`);
  const { url } = await startRedis({ port: 6379, dir });
  return url;
}

/**
 * One command over plain RESP (no auth, no TLS): the reply as a string, null for a nil reply;
 * rejects on an error reply or no answer. Enough for the launcher's few checks.
 */
export function redisCommand(host, port, args, timeoutMs = 2_000) {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port });
    let answer = Buffer.alloc(0);
    const done = (err, value) => {
      socket.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(new Error(`Redis at ${host}:${port} did not answer`)));
    socket.on('error', (err) => done(err));
    socket.on('connect', () => socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`));
    socket.on('data', (chunk) => {
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf('\r\n');
      if (end < 0) return;
      const head = answer.subarray(0, end).toString();
      if (head[0] === '+' || head[0] === ':') return done(null, head.slice(1));
      if (head[0] === '-') return done(new Error(head.slice(1)));
      if (head === '$-1') return done(null, null);
      if (head[0] === '$') {
        const len = Number(head.slice(1));
        if (answer.length >= end + 2 + len + 2) done(null, answer.subarray(end + 2, end + 2 + len).toString());
        return;
      }
      done(new Error(`unexpected reply from Redis at ${host}:${port}`));
    });
  });
}

/**
 * Two systems with their own SQLite data must not share one Redis under one KEY_PREFIX: each would
 * take the other's jobs and store them in the wrong file. The first launcher records its data
 * folder under the prefix; another data folder under the same prefix is refused, unless the one
 * recorded is gone (moved or deleted), which is taken over. Checked only where it can be: a plain
 * redis:// without credentials (npm start's own Redis, or one on this host).
 */
export async function claimKeyPrefix(redisUrl, prefix, dataDir) {
  const url = new URL(redisUrl);
  if (url.protocol !== 'redis:' || url.username || url.password) return;
  const [host, port] = [url.hostname || '127.0.0.1', Number(url.port || 6379)];
  const key = `${prefix}:launcher:data-dir`;
  if ((await redisCommand(host, port, ['SET', key, dataDir, 'NX'])) === 'OK') return;
  const recorded = await redisCommand(host, port, ['GET', key]);
  if (recorded === dataDir) return;
  if (recorded !== null && existsSync(recorded)) {
    throw new Error(
      `the Redis at ${host}:${port} already serves the system with its data in ${recorded} under KEY_PREFIX ${prefix}: give this one its own KEY_PREFIX (or REDIS_URL), see "Two systems on one host" in docs/operations.md; if that system is gone for good, delete the key ${key}`,
    );
  }
  await redisCommand(host, port, ['SET', key, dataDir]);
}
