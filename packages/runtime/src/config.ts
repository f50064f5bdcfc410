import { z } from 'zod';

/** Thrown when the environment does not parse; `lines` names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`invalid configuration: ${lines.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** A URL's password never reaches a message or a log: `redis://user:***@host`. */
export function withoutPassword(value: string | undefined): string | undefined {
  return value?.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@\s]*@/i, '$1:***@');
}

/**
 * Variables whose value is a credential (`EVIDENCE_TOKEN_SECRET`, `CHAT_TOKEN`, `DECISION_WEBHOOK_SECRET`,
 * `EVIDENCE_S3_SECRET_ACCESS_KEY`...): a message about one names it and its length, never its value,
 * since the message is what a process prints on stderr, into the logs (docs/privacy.md#logs).
 */
export const SECRET_VARIABLE = /SECRET|TOKEN|PASSWORD/;

/** What a configuration error says it got: the value, a URL without its password, or only a secret's length. */
function received(name: string, value: string | undefined): string {
  if (value !== undefined && SECRET_VARIABLE.test(name)) return `${value.length} characters, not shown`;
  return JSON.stringify(withoutPassword(value) ?? null);
}

/** Variables renamed since an earlier release: the old name still works when the new one is unset (CHANGELOG.md). */
const RENAMED: Record<string, string> = { KEY_PREFIX: 'QUEUE_PREFIX' };

/** The variables a process reads: the keys of its config schema, exactly what loadConfig looks up. */
export function configVariables(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape);
}

/**
 * Parses only the variables a process declares. The one place that reads process.env: callers
 * receive a typed, validated object or a ConfigError naming every bad variable.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const input: Record<string, string | undefined> = {};
  for (const key of configVariables(schema)) {
    const old = RENAMED[key];
    const value = env[key] ?? (old === undefined ? undefined : env[old]);
    input[key] = value === '' ? undefined : value;
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) {
    const missing = [...redisModeConflicts(parsed.data as Record<string, unknown>), ...sharedStorageMissing(configVariables(schema), parsed.data as Record<string, unknown>)];
    if (missing.length > 0) throw new ConfigError(missing);
    return parsed.data;
  }
  const lines = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const variable = String(issue.path[0]);
    return `${name}: ${issue.message} (got ${received(variable, input[variable])})`;
  });
  throw new ConfigError(lines);
}

/** A Redis is a Cluster or Sentinel-managed, not both: each names where the primaries are. */
function redisModeConflicts(config: Record<string, unknown>): string[] {
  if (config['REDIS_CLUSTER_NODES'] === undefined || config['REDIS_SENTINELS'] === undefined) return [];
  return ['REDIS_SENTINELS: cannot be set with REDIS_CLUSTER_NODES (a Redis Cluster fails over by itself, without Sentinel); set one of them'];
}

/**
 * With REQUIRE_SHARED_STORAGE (processes on several hosts: Kubernetes), the stores every process
 * must share are required instead of falling back to files of this host: MongoDB, and the S3
 * bucket in processes that keep evidence (those that declare EVIDENCE_S3_BUCKET).
 */
export const SHARED_STORAGE_VARIABLES = ['MONGODB_URL', 'EVIDENCE_S3_BUCKET'] as const;

function sharedStorageMissing(variables: string[], config: Record<string, unknown>): string[] {
  if (config['REQUIRE_SHARED_STORAGE'] !== true) return [];
  const required = SHARED_STORAGE_VARIABLES.filter((v) => variables.includes(v) && config[v] === undefined);
  return required.map((v) => `${v}: is required when REQUIRE_SHARED_STORAGE is true (a file of this host is no store for several) (got null)`);
}

/** Helpers for declaring environment variables with defaults and clear messages. */
export const env = {
  port: (fallback: number) =>
    z.coerce.number({ error: 'must be a port number' }).int('must be a port number').min(0).max(65535, 'must be at most 65535').default(fallback),
  positiveInt: (fallback: number) =>
    z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').default(fallback),
  nonNegativeInt: (fallback: number) =>
    z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be at least 0').default(fallback),
  string: (fallback: string) => z.string().min(1).default(fallback),
  optionalString: () => z.string().min(1).optional(),
  url: () => z.url({ error: 'must be a URL' }).optional(),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
      .transform((v) => v === 'true' || v === '1' || v === 'yes')
      .default(fallback),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/** `host:port,host:port`, parsed into ioredis cluster seed nodes (or Sentinel addresses). */
function hostPorts() {
  const node = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):(\d{1,5})$/;
  const valid = (n: string) => {
    const port = Number(node.exec(n.trim())?.[2]);
    return port >= 1 && port <= 65535;
  };
  return z
    .string()
    .refine((v) => v.split(',').every(valid), 'must be comma-separated host:port pairs')
    .transform((v) =>
      v.split(',').map((n) => {
        const [, host, port] = node.exec(n.trim())!;
        return { host: host!.replace(/^\[|\]$/g, ''), port: Number(port) };
      }),
    );
}

/** Variables every process shares: where Redis and the data are, how loud to log. */
export const commonConfig = z.object({
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').default('redis://127.0.0.1:6379'),
  // Set: a Redis Cluster, reached through these seed nodes (credentials and TLS still come from REDIS_URL).
  REDIS_CLUSTER_NODES: hostPorts().optional(),
  // Set: a Redis run by Sentinel; these Sentinels name its primary (REDIS_SENTINEL_NAME) and are asked again after a failover.
  REDIS_SENTINELS: hostPorts().optional(),
  // The primary's name in the Sentinels' configuration (`sentinel monitor <name> ...`).
  REDIS_SENTINEL_NAME: z.string().regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, . _ and - only').default('mymaster'),
  // The Sentinels' own password (their `requirepass`), when they ask for one; the servers' comes from REDIS_URL.
  REDIS_SENTINEL_PASSWORD: env.optionalString(),
  // Starts every Redis key; hash tags are added where keys must share a cluster slot, so no braces here.
  KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only (no braces: hash tags are added where needed)').default('rm'),
  DATA_DIR: env.string('./data'),
  LOG_LEVEL: env.logLevel(),
  // Set: traces go there over OTLP/HTTP (the SDK reads it and the other OTEL_* itself; checked here so a bad one stops the process naming it).
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url(),
  // Set: MongoDB is the store (a replica set or sharded cluster); unset: the SQLite file in DATA_DIR.
  MONGODB_URL: z.string().regex(/^mongodb(\+srv)?:\/\/./, 'must start with mongodb:// or mongodb+srv://').optional(),
  // Used when MONGODB_URL names no database; MongoDB refuses these characters in database names.
  MONGODB_DB: z.string().regex(/^[^/\\. "$*<>:|?]{1,63}$/, 'must be 1 to 63 characters without / \\ . space " $ * < > : | ?').optional(),
  /** How long a SQLite write waits for another process's lock before failing (and being retried). */
  SQLITE_BUSY_TIMEOUT_MS: env.positiveInt(5_000),
  /** Processes run on several hosts: MongoDB (and, where evidence is kept, an S3 bucket) are required. */
  REQUIRE_SHARED_STORAGE: env.bool(false),
  // MongoDB migrations not yet recorded at start: wait for `cli migrate` (several hosts), or run them first (one machine).
  MIGRATIONS: z.enum(['wait', 'run'], { error: 'must be wait or run' }).default('wait'),
});
export type CommonConfig = z.infer<typeof commonConfig>;
