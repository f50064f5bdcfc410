import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { commonConfig, ConfigError, env, loadConfig } from './config.js';
import { generateCredentials, hashSecret, parseAuthorization, secretMatches } from './credentials.js';
import { uuidv7 } from './ids.js';

/** Runs loadConfig expecting a ConfigError, and returns it. */
function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig + commonConfig', () => {
  it('reads a renamed variable under its old name while the new one is unset', () => {
    expect(loadConfig(commonConfig, { QUEUE_PREFIX: 'old' }).KEY_PREFIX).toBe('old');
    expect(loadConfig(commonConfig, { QUEUE_PREFIX: 'old', KEY_PREFIX: 'new' }).KEY_PREFIX).toBe('new');
  });

  it('applies every default when nothing is set', () => {
    expect(loadConfig(commonConfig, {})).toEqual({
      REDIS_URL: 'redis://127.0.0.1:6379',
      KEY_PREFIX: 'rm',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      SQLITE_BUSY_TIMEOUT_MS: 5000,
      REQUIRE_SHARED_STORAGE: false,
      MIGRATIONS: 'wait',
      REDIS_SENTINEL_NAME: 'mymaster',
    });
  });

  it('takes the values that are set, and only the declared variables', () => {
    const config = loadConfig(commonConfig, {
      REDIS_URL: 'rediss://cache.internal:6380/2',
      REDIS_CLUSTER_NODES: 'redis-a:7000, 10.0.0.2:7001,[::1]:7002',
      KEY_PREFIX: 'rm-test',
      DATA_DIR: '/var/lib/rm',
      LOG_LEVEL: 'debug',
      MIGRATIONS: 'run',
      UNRELATED: 'ignored',
    });
    expect(config).toEqual({
      REDIS_URL: 'rediss://cache.internal:6380/2',
      REDIS_CLUSTER_NODES: [
        { host: 'redis-a', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      KEY_PREFIX: 'rm-test',
      DATA_DIR: '/var/lib/rm',
      LOG_LEVEL: 'debug',
      SQLITE_BUSY_TIMEOUT_MS: 5000,
      REQUIRE_SHARED_STORAGE: false,
      MIGRATIONS: 'run',
      REDIS_SENTINEL_NAME: 'mymaster',
    });
  });

  it('names MIGRATIONS when it is neither wait nor run', () => {
    expect(configError(() => loadConfig(commonConfig, { MIGRATIONS: 'later' })).lines).toEqual([expect.stringMatching(/^MIGRATIONS: must be wait or run \(got "later"\)$/)]);
  });

  it('reads Sentinels as host:port pairs, and refuses them beside cluster nodes', () => {
    expect(loadConfig(commonConfig, { REDIS_SENTINELS: '10.0.0.1:26379,s2:26380', REDIS_SENTINEL_NAME: 'rm-primary' })).toMatchObject({
      REDIS_SENTINELS: [
        { host: '10.0.0.1', port: 26379 },
        { host: 's2', port: 26380 },
      ],
      REDIS_SENTINEL_NAME: 'rm-primary',
    });
    expect(configError(() => loadConfig(commonConfig, { REDIS_SENTINELS: 's1:26379', REDIS_CLUSTER_NODES: 'c1:7000' })).lines).toEqual([
      expect.stringMatching(/^REDIS_SENTINELS: cannot be set with REDIS_CLUSTER_NODES/),
    ]);
    expect(configError(() => loadConfig(commonConfig, { REDIS_SENTINELS: 's1' })).lines).toEqual([expect.stringMatching(/^REDIS_SENTINELS: must be comma-separated host:port pairs/)]);
  });

  it('with REQUIRE_SHARED_STORAGE, refuses a missing MONGODB_URL (and EVIDENCE_S3_BUCKET where declared), one line each', () => {
    const lines = (schema: Parameters<typeof loadConfig>[0], env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(schema, env);
        return [];
      } catch (err) {
        return (err as ConfigError).lines;
      }
    };
    expect(lines(commonConfig, { REQUIRE_SHARED_STORAGE: 'true' })).toEqual([expect.stringMatching(/^MONGODB_URL: is required when REQUIRE_SHARED_STORAGE is true/)]);
    expect(lines(commonConfig, { REQUIRE_SHARED_STORAGE: 'true', MONGODB_URL: 'mongodb://db/x' })).toEqual([]);
    const keeper = commonConfig.extend({ EVIDENCE_S3_BUCKET: z.string().optional() });
    expect(lines(keeper, { REQUIRE_SHARED_STORAGE: 'true', MONGODB_URL: 'mongodb://db/x' })).toEqual([expect.stringMatching(/^EVIDENCE_S3_BUCKET: is required/)]);
    expect(lines(keeper, { MONGODB_URL: '' })).toEqual([]);
  });

  it('treats an empty string as unset: the default applies', () => {
    expect(loadConfig(commonConfig, { REDIS_URL: '', KEY_PREFIX: '', DATA_DIR: '', LOG_LEVEL: '' })).toEqual(
      loadConfig(commonConfig, {}),
    );
    const schema = z.object({ TOKEN: env.optionalString(), WEBHOOK: env.url(), PORT: env.port(3000), ON: env.bool(true) });
    expect(loadConfig(schema, { TOKEN: '', WEBHOOK: '', PORT: '', ON: '' })).toEqual({ TOKEN: undefined, WEBHOOK: undefined, PORT: 3000, ON: true });
  });

  it('treats an empty string as unset: a required variable is reported missing', () => {
    const err = configError(() => loadConfig(z.object({ REQUIRED: z.string() }), { REQUIRED: '' }));
    expect(err.lines).toHaveLength(1);
    expect(err.lines[0]).toMatch(/^REQUIRED: /);
    expect(err.lines[0]).toContain('(got null)');
  });

  it('names EVERY bad variable in one ConfigError', () => {
    const schema = commonConfig.extend({
      PORT: env.port(3000),
      WORKERS: env.positiveInt(4),
      FEATURE: env.bool(false),
      CALLBACK_URL: env.url(),
      OK_VAR: env.string('fine'),
    });
    const bad = {
      REDIS_URL: 'http://127.0.0.1:6379',
      REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1',
      KEY_PREFIX: '{rm}',
      LOG_LEVEL: 'loud',
      PORT: '70000',
      WORKERS: '0',
      FEATURE: 'maybe',
      CALLBACK_URL: 'not a url',
    };
    const err = configError(() => loadConfig(schema, { ...bad, OK_VAR: 'good', DATA_DIR: '/data' }));

    expect(err.name).toBe('ConfigError');
    expect(err).toBeInstanceOf(Error);
    const named = err.lines.map((line) => line.slice(0, line.indexOf(':')));
    expect(new Set(named)).toEqual(new Set(Object.keys(bad)));
    // Each line says what was received, and the message repeats every line.
    for (const [name, value] of Object.entries(bad)) {
      const line = err.lines.find((l) => l.startsWith(`${name}:`))!;
      expect(line).toContain(`(got ${JSON.stringify(value)})`);
      expect(err.message).toContain(line);
    }
    expect(err.lines.find((l) => l.startsWith('REDIS_URL:'))).toContain('must start with redis:// or rediss://');
    expect(err.lines.find((l) => l.startsWith('PORT:'))).toContain('must be at most 65535');
    expect(err.lines.find((l) => l.startsWith('REDIS_CLUSTER_NODES:'))).toContain('must be comma-separated host:port pairs');
    expect(err.lines.find((l) => l.startsWith('KEY_PREFIX:'))).toContain('no braces');
    expect(err.lines.find((l) => l.startsWith('WORKERS:'))).toContain('must be at least 1');
    expect(err.lines.find((l) => l.startsWith('FEATURE:'))).toContain('must be true or false');
  });

  it('names a bad secret and its length, never its value (it goes to stderr, into the logs)', () => {
    const schema = z.object({ EVIDENCE_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters'), CHAT_TOKEN: z.string().min(20), DB_PASSWORD: z.string().min(20) });
    const err = configError(() => loadConfig(schema, { EVIDENCE_TOKEN_SECRET: 'short-secret-Xq1', CHAT_TOKEN: 'tok-Yw2', DB_PASSWORD: 'pw-Zr3' }));
    expect(err.lines).toEqual([
      'EVIDENCE_TOKEN_SECRET: must be at least 32 characters (got 16 characters, not shown)',
      expect.stringMatching(/^CHAT_TOKEN: .* \(got 7 characters, not shown\)$/),
      expect.stringMatching(/^DB_PASSWORD: .* \(got 6 characters, not shown\)$/),
    ]);
    for (const secret of ['short-secret-Xq1', 'tok-Yw2', 'pw-Zr3']) expect(err.message).not.toContain(secret);
  });

  it('reads process.env when no env object is given', () => {
    vi.stubEnv('RM_TEST_ONLY_VAR', 'from-process-env');
    try {
      expect(loadConfig(z.object({ RM_TEST_ONLY_VAR: env.string('default') }))).toEqual({ RM_TEST_ONLY_VAR: 'from-process-env' });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('env helpers', () => {
  const boolSchema = z.object({ FLAG: env.bool(false) });

  it.each([
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
    ['yes', true],
    ['no', false],
  ])('bool parses %j as %s', (raw, expected) => {
    expect(loadConfig(boolSchema, { FLAG: raw }).FLAG).toBe(expected);
  });

  it('bool falls back to its default when unset', () => {
    expect(loadConfig(boolSchema, {}).FLAG).toBe(false);
    expect(loadConfig(z.object({ FLAG: env.bool(true) }), {}).FLAG).toBe(true);
  });

  it.each(['maybe', 'TRUE', 'on', '2'])('bool rejects %j', (raw) => {
    const err = configError(() => loadConfig(boolSchema, { FLAG: raw }));
    expect(err.lines).toEqual([`FLAG: must be true or false (got ${JSON.stringify(raw)})`]);
  });

  it('port and positiveInt coerce numbers and reject non-numbers', () => {
    const schema = z.object({ PORT: env.port(3000), N: env.positiveInt(2) });
    expect(loadConfig(schema, { PORT: '8080', N: '16' })).toEqual({ PORT: 8080, N: 16 });
    expect(loadConfig(schema, {})).toEqual({ PORT: 3000, N: 2 });
    const err = configError(() => loadConfig(schema, { PORT: 'eighty', N: '1.5' }));
    expect(err.lines).toHaveLength(2);
    expect(err.lines.find((l) => l.startsWith('PORT:'))).toContain('must be a port number');
    expect(err.lines.find((l) => l.startsWith('N:'))).toContain('must be a whole number');
  });

  it('logLevel accepts pino levels only', () => {
    const schema = z.object({ LOG_LEVEL: env.logLevel() });
    expect(loadConfig(schema, { LOG_LEVEL: 'silent' }).LOG_LEVEL).toBe('silent');
    expect(() => loadConfig(schema, { LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
  });
});

describe('uuidv7', () => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const timestampOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

  afterEach(() => {
    vi.useRealTimers();
  });

  it('matches the UUID v7 layout: version 7, variant 10xx (8-b)', () => {
    for (let i = 0; i < 200; i++) expect(uuidv7()).toMatch(V7);
  });

  it('encodes the millisecond timestamp in the first 48 bits', () => {
    for (const now of [0, 1, 1_700_000_000_123, 2 ** 48 - 1]) {
      const id = uuidv7(now);
      expect(id).toMatch(V7);
      expect(timestampOf(id)).toBe(now);
    }
    expect(uuidv7(0).startsWith('00000000-0000-7')).toBe(true);
  });

  it('uses the current time when none is given', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_750_000_000_456);
    expect(timestampOf(uuidv7())).toBe(1_750_000_000_456);
  });

  it('sorts by time across calls with increasing now', () => {
    const start = 1_700_000_000_000;
    const ids = Array.from({ length: 500 }, (_, i) => uuidv7(start + i));
    expect([...ids].sort()).toEqual(ids);
  });

  it('is unique even within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => uuidv7(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('credentials', () => {
  it('generateCredentials: a key without ":" and a fresh secret each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { key, secret } = generateCredentials();
      expect(key).not.toContain(':');
      expect(key).toMatch(/^rk_[0-9a-f]{24}$/);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
      expect(seen.has(key) || seen.has(secret)).toBe(false);
      seen.add(key).add(secret);
    }
  });

  it('generated credentials survive the Authorization header round trip', () => {
    const { key, secret } = generateCredentials();
    expect(parseAuthorization(`${key}:${secret}`)).toEqual({ key, secret });
  });

  it('hashSecret is the hex SHA-256 of the secret', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const secret = 'pässwörd-✓';
    expect(hashSecret(secret)).toBe(createHash('sha256').update(secret, 'utf8').digest('hex'));
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('secretMatches: true for the right secret, false for a wrong one', () => {
    const { secret } = generateCredentials();
    const stored = hashSecret(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(`${secret}x`, stored)).toBe(false);
    expect(secretMatches('', stored)).toBe(false);
    expect(secretMatches(generateCredentials().secret, stored)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['not hex', 'not-a-hash'],
    ['too short', hashSecret('s3cret').slice(0, 62)],
    ['the secret itself', 's3cret'],
  ])('secretMatches: false (no throw) for a malformed stored hash: %s', (_label, stored) => {
    expect(secretMatches('s3cret', stored)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no colon', 'rk_abcsecret'],
    ['empty key', ':secret'],
    ['empty secret', 'rk_abc:'],
    ['only a colon', ':'],
  ])('parseAuthorization: null when %s', (_label, header) => {
    expect(parseAuthorization(header)).toBeNull();
  });

  it('parseAuthorization: splits at the first colon, so the secret may contain colons', () => {
    expect(parseAuthorization('rk_abc:se:cr:et')).toEqual({ key: 'rk_abc', secret: 'se:cr:et' });
    expect(parseAuthorization('rk_abc::')).toEqual({ key: 'rk_abc', secret: ':' });
  });

  it('parseAuthorization: trims whitespace around key and secret', () => {
    expect(parseAuthorization(' rk_abc : s3cret ')).toEqual({ key: 'rk_abc', secret: 's3cret' });
  });
});
