// Ceiling (b): the bare queue stack. Fastify + the same strict zod schema as our submit +
// `await queue.add`, nothing else: no auth, no limits, no directory lookup.
import { Queue } from 'bullmq';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { SubmitReportBody } from '@rm/contracts';
import { BARE_QUEUE } from './bare-queue.js';

const redis = new Redis(process.env['REDIS_URL']!, { maxRetriesPerRequest: null });
const queue = new Queue(BARE_QUEUE.name, { connection: redis, prefix: BARE_QUEUE.prefix });
const app = Fastify().withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
app.post('/', { schema: { body: SubmitReportBody } }, async (request) => {
  const id = randomUUID();
  await queue.add('intake', request.body, { jobId: id, removeOnComplete: true });
  return { success: true, id };
});
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
