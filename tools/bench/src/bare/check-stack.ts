// Ceiling of check (issue 55): the bare check stack. Fastify + the same strict zod schema as our
// check + one EVALSHA per request of a script of the check's shape (GET of the reporter's day
// count, EXISTS of the user's ban flag, SISMEMBER of the open case's reporters), on the very keys
// our guard reads (same prefix and layout), so both face the same Redis. Nothing else: no auth, no
// rate count, no batching of the requests of a turn, no directory lookup (the user is built from
// the id, as our gateway answers it from memory).
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { CheckBody } from '@rm/contracts';

/** KEYS: the reporter's count today, the user's ban flag, the reporters of the user's open case. ARGV: maximum per day, reporter. */
const CHECK = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return 'daily' end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'banned' end
if redis.call('SISMEMBER', KEYS[3], ARGV[2]) == 1 then return 'duplicate' end
return 'ok'
`;

const prefix = process.env['KEY_PREFIX'] ?? 'bare';
const maxPerDay = Number(process.env['MAX_REPORTS_PER_DAY'] ?? 5);
const redis = new Redis(process.env['REDIS_URL']!, { maxRetriesPerRequest: null });
const sha = (await redis.script('LOAD', CHECK)) as string;
const app = Fastify().withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
app.get('/', async () => ({ ready: true }));
app.post('/', { schema: { body: CheckBody } }, async (request) => {
  const { userId, reporterId } = request.body;
  // The check's reporter is a game-platform player (CHECK_REPORTER_PLATFORM in the gateway).
  const reporter = `gameplatform:${reporterId}`;
  const day = Math.floor(Date.now() / 86_400_000);
  const user = `${prefix}:u:{${userId}}`;
  const verdict = (await redis.evalsha(sha, 3, `${prefix}:daily:{r:${reporter}}:${day}`, `${user}:banned`, `${user}:reporters`, maxPerDay, reporter)) as string;
  return {
    success: true,
    canReport: verdict === 'ok',
    user: { id: Number(userId), name: `player${userId}`, displayName: `Player ${userId}` },
    reporterId,
    reason: verdict === 'ok' ? 'User can be reported' : `Refused: ${verdict}`,
  };
});
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
