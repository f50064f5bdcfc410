import { MongoClient, MongoServerSelectionError, type MongoClientOptions, type WriteConcernSettings } from 'mongodb';

/**
 * Bounds on every operation, so a job fails (and is retried by its queue) instead of hanging when
 * the deployment cannot answer: a lost majority, a dead socket, no primary. Documented in docs/scaling.md (MongoDB, bounded operations).
 */
export const MONGO_LIMITS = {
  /** How long an operation waits for a suitable server (a primary, during an election). */
  serverSelectionTimeoutMS: 15_000,
  /** How long a socket may stay silent while a reply is awaited. */
  socketTimeoutMS: 60_000,
  /** How long a majority write waits for the majority's acknowledgement. */
  writeTimeoutMS: 10_000,
  /** How long a transaction's commit may take on the server. */
  maxCommitTimeMS: 10_000,
  /** How long a transaction may take in all, its retries and its commit's majority wait included (runTransaction). */
  transactionMS: 10_000,
  /** How long a read outside a transaction may run on the server (maxTimeMS, collections.ts). */
  readMS: 10_000,
  /** At start: how long the first contact may take before the deployment is diagnosed. */
  startupProbeMS: 5_000,
} as const;

/**
 * A write is acknowledged once a majority holds it, so a failover cannot roll back an answer; and
 * within writeTimeoutMS, else the operation fails. A timed-out write may still apply later: every
 * write the store makes is idempotent or inside a transaction, so the retry is safe.
 */
export const MAJORITY_WRITE: WriteConcernSettings = { w: 'majority', wtimeoutMS: MONGO_LIMITS.writeTimeoutMS };

/**
 * Connects and checks that the deployment runs transactions: a replica set (one member is enough)
 * or a sharded cluster. A standalone mongod, an uninitiated replica-set member or a wrong
 * `replicaSet` name is refused at start with a message saying which (after a short probe), rather
 * than failing on the first decision or after a long server-selection timeout. The URL is never
 * part of an error message: it may hold a password.
 */
export async function connectMongo(url: string, extra: Pick<MongoClientOptions, 'monitorCommands'> = {}): Promise<MongoClient> {
  await probe(url);
  const client = new MongoClient(url, { ...clientOptions(), ...extra });
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** The store's client options; they override the URL's (MongoClient gives its options object precedence). */
export function clientOptions(): MongoClientOptions {
  return {
    appName: 'report-moderation',
    writeConcern: MAJORITY_WRITE,
    // Every read decides something (a ban flag, an open case, a decision already taken, a
    // duplicate's first record), so all read the primary whatever the URL's readPreference asks:
    // a lagging secondary would answer "not banned", "no open case" or "no such decision"
    // (docs/decisions.md).
    readPreference: 'primary',
    // Optional fields left undefined are not stored (the driver would write null), as with JSON.
    // It strips undefined from filters too: undefined-keys.ts guards every keyed method for that.
    ignoreUndefined: true,
    serverSelectionTimeoutMS: MONGO_LIMITS.serverSelectionTimeoutMS,
    socketTimeoutMS: MONGO_LIMITS.socketTimeoutMS,
  };
}

const STANDALONE =
  'MONGODB_URL points at a standalone mongod; the MongoDB store needs a replica set or a sharded cluster ' +
  '(a one-member replica set will do: start mongod with --replSet rs0 and run rs.initiate() once)';

/** What a server said of itself (its hello reply), or why it could not be asked. */
export interface ServerAnswer {
  address: string;
  hello?: { setName?: unknown; isreplicaset?: unknown; msg?: unknown };
  error?: string;
}

/** A first contact with a short timeout, listening to what each server says of itself. */
async function probe(url: string): Promise<void> {
  const options: MongoClientOptions = { appName: 'report-moderation', serverSelectionTimeoutMS: MONGO_LIMITS.startupProbeMS };
  const client = new MongoClient(url, options);
  // Heartbeats, not server descriptions: a server of another replica set is dropped from the
  // topology without a description event, but its heartbeat reply still says which set it is in.
  const answers = new Map<string, ServerAnswer>();
  client.on('serverHeartbeatSucceeded', (e) => answers.set(e.connectionId, { address: e.connectionId, hello: e.reply }));
  client.on('serverHeartbeatFailed', (e) => answers.set(e.connectionId, { address: e.connectionId, error: e.failure.message }));
  try {
    await client.connect();
    const hello = await client.db('admin').command({ hello: 1 });
    if (typeof hello['setName'] !== 'string' && hello['msg'] !== 'isdbgrid') throw new Error(STANDALONE);
  } catch (err) {
    if (err instanceof MongoServerSelectionError) throw new Error(diagnose([...answers.values()], client.options.replicaSet), { cause: err });
    throw err;
  } finally {
    await client.close();
  }
}

/** Why no server could be selected, from what the servers answered. */
export function diagnose(answers: ServerAnswer[], replicaSet: string | undefined): string {
  const wait = `within ${MONGO_LIMITS.startupProbeMS} ms`;
  const said = answers.filter((a) => a.hello);
  if (said.some((a) => a.hello!.isreplicaset === true && typeof a.hello!.setName !== 'string')) {
    return `MONGODB_URL reaches a mongod started with --replSet whose replica set is not initiated: run rs.initiate() once on it (no primary ${wait})`;
  }
  const other = said.find((a) => typeof a.hello!.setName === 'string' && replicaSet && a.hello!.setName !== replicaSet);
  if (other) {
    return `MONGODB_URL names replicaSet=${replicaSet}, but ${other.address} belongs to replica set ${String(other.hello!.setName)}: fix the replicaSet option`;
  }
  if (said.some((a) => typeof a.hello!.setName !== 'string' && a.hello!.msg !== 'isdbgrid')) return STANDALONE;
  if (said.length > 0) return `MONGODB_URL reaches replica-set members but no primary ${wait} (an election, or a lost majority)`;
  const failed = answers.find((a) => a.error);
  return `no MongoDB server of MONGODB_URL answered ${wait}${failed ? `: ${failed.address} answered ${failed.error}` : ''}`;
}
