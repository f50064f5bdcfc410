import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';

/**
 * Finds a MongoDB server for the contract suite, in order: MONGODB_URL; a `mongo:7` container when
 * a Docker engine answers; mongodb-memory-server on a mongod binary already on this machine (it
 * never downloads one). Every server it starts is a one-member replica set, since the store needs
 * transactions. Never a fake: with none of these, the suite is skipped and says why, unless
 * REQUIRE_MONGODB is set (CI on a runner with Docker): then finding none is a failure.
 */

export interface TestServer {
  /** A connection string without a database: each test names its own. */
  url: string;
  stop(): Promise<void>;
}

export type Discovery = { server: TestServer } | { skipped: string };

const DOCKER_PING_TIMEOUT_MS = 1_000;
const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';
const REPLICA_SET = 'rs0';

/** Where a server can come from; findTestServer's second argument, so its order can be tested. */
export interface ServerSources {
  dockerAnswers(env: NodeJS.ProcessEnv): Promise<boolean>;
  startContainer(): Promise<TestServer>;
  localMongod(env: NodeJS.ProcessEnv): LocalMongod | null;
  startMemoryReplicaSet(mongod: LocalMongod): Promise<TestServer>;
}

const SOURCES: ServerSources = { dockerAnswers, startContainer, localMongod, startMemoryReplicaSet };
const NONE_FOUND = 'no MONGODB_URL, no Docker engine, no cached mongod binary';

/**
 * True when REQUIRE_MONGODB is set to anything but empty, `0` or `false`: the MongoDB suite must
 * run whole, so what would skip it (or one of its tests) fails instead.
 */
export function mongoRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env['REQUIRE_MONGODB']?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** A test's skip(reason), except under REQUIRE_MONGODB, where the reason is the test's failure. */
export function skipUnlessRequired(skip: (note: string) => never, reason: string, env: NodeJS.ProcessEnv = process.env): never {
  if (mongoRequired(env)) throw new Error(`REQUIRE_MONGODB is set, so this test may not be skipped: ${reason}`);
  return skip(reason);
}

export async function findTestServer(env: NodeJS.ProcessEnv = process.env, sources: ServerSources = SOURCES): Promise<Discovery> {
  // Someone else's server: nothing to stop.
  if (env['MONGODB_URL']) return { server: { url: env['MONGODB_URL'], stop: () => Promise.resolve() } };
  if (await sources.dockerAnswers(env)) return { server: await sources.startContainer() };
  const mongod = sources.localMongod(env);
  if (mongod) return { server: await sources.startMemoryReplicaSet(mongod) };
  if (mongoRequired(env)) throw new Error(`REQUIRE_MONGODB is set but no MongoDB server was found: ${NONE_FOUND}`);
  return { skipped: `mongodb contract suite skipped: ${NONE_FOUND}` };
}

/** True when something answers on DOCKER_HOST (unix or tcp) or the default socket, within a second. */
async function dockerAnswers(env: NodeJS.ProcessEnv): Promise<boolean> {
  const host = env['DOCKER_HOST'];
  if (host?.startsWith('tcp://')) {
    const { hostname, port } = new URL(host);
    return tcpAnswers(hostname, Number(port || 2375));
  }
  const socket = host?.startsWith('unix://') ? host.slice('unix://'.length) : DEFAULT_DOCKER_SOCKET;
  return existsSync(socket) && (await pingSocket(socket));
}

function pingSocket(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', timeout: DOCKER_PING_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

function tcpAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: DOCKER_PING_TIMEOUT_MS });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.on('connect', () => done(true));
    socket.on('timeout', () => done(false));
    socket.on('error', () => done(false));
  });
}

/**
 * A `mongo:7` container started with `args` (none: a standalone server), not initiated: for the
 * tests of what the store refuses. Null without a Docker engine.
 */
export async function startBareContainer(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<TestServer | null> {
  if (!(await dockerAnswers(env))) return null;
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('mongo:7')
    .withCommand([...args, '--bind_ip_all'])
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/waiting for connections/i))
    .withStartupTimeout(120_000)
    .start();
  return { url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/`, stop: async () => void (await container.stop()) };
}

async function startContainer(): Promise<TestServer> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('mongo:7')
    // enableTestCommands: the failCommand fail points of the MongoDB-only tests.
    .withCommand(['--replSet', REPLICA_SET, '--bind_ip_all', '--setParameter', 'enableTestCommands=1'])
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/waiting for connections/i))
    .withStartupTimeout(120_000)
    .start();
  // directConnection: the member's own address in the replica set config is internal to Docker.
  const url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`;
  try {
    await initiateReplicaSet(url);
  } catch (err) {
    await container.stop();
    throw err;
  }
  return { url, stop: async () => void (await container.stop()) };
}

async function initiateReplicaSet(url: string): Promise<void> {
  const client = new MongoClient(url);
  try {
    const admin = client.db('admin');
    await admin.command({ replSetInitiate: { _id: REPLICA_SET, members: [{ _id: 0, host: 'localhost:27017' }] } });
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      if ((await admin.command({ hello: 1 }))['isWritablePrimary'] === true) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the mongo:7 container did not become a replica set primary within 30 s');
  } finally {
    await client.close();
  }
}

export interface LocalMongod {
  path: string;
  version: string;
}

/** MONGOMS_SYSTEM_BINARY, else a binary mongodb-memory-server cached in ~/.cache/mongodb-binaries. */
function localMongod(env: NodeJS.ProcessEnv): LocalMongod | null {
  const candidates = env['MONGOMS_SYSTEM_BINARY'] ? [env['MONGOMS_SYSTEM_BINARY']] : cachedBinaries(join(homedir(), '.cache', 'mongodb-binaries'));
  for (const path of candidates) {
    const version = mongodVersion(path);
    if (version) return { path, version };
  }
  return null;
}

function cachedBinaries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith('mongod'))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort()
    .reverse();
}

/** The binary's version, or null when it does not run here. */
function mongodVersion(path: string): string | null {
  if (!existsSync(path)) return null;
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return /db version v?(\d+\.\d+\.\d+)/.exec(run.stdout ?? '')?.[1] ?? null;
}

async function startMemoryReplicaSet(mongod: LocalMongod): Promise<TestServer> {
  // The binary is given, so nothing needs downloading; this makes sure nothing tries.
  process.env['MONGOMS_RUNTIME_DOWNLOAD'] = 'false';
  const { MongoMemoryReplSet } = await import('mongodb-memory-server-core');
  const replSet = await MongoMemoryReplSet.create({
    binary: { systemBinary: mongod.path, version: mongod.version },
    // wiredTiger: the only engine with transactions.
    replSet: { count: 1, name: REPLICA_SET, storageEngine: 'wiredTiger', args: ['--setParameter', 'enableTestCommands=1'] },
  });
  return { url: replSet.getUri(), stop: async () => void (await replSet.stop()) };
}
