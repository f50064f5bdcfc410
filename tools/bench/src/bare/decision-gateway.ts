// Ceiling of the decision cycles, its gateway half: Fastify + the claim body's zod schema + one
// BullMQ job per decision, answered when the worker (decision-worker.ts) publishes the reply on
// this process's channel, as our gateway waits for a decision. No auth, no store, no effects.
import { Queue } from 'bullmq';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { ClaimBody } from '@rm/contracts';
import { BARE_DECISIONS } from './bare-queue.js';

const url = process.env['REDIS_URL']!;
const queue = new Queue(BARE_DECISIONS.name, { connection: new Redis(url, { maxRetriesPerRequest: null }), prefix: BARE_DECISIONS.prefix });
const channel = `${BARE_DECISIONS.replies}:${process.pid}`;
const waiting = new Map<string, (answer: unknown) => void>();
const inbox = new Redis(url);
await inbox.subscribe(channel);
inbox.on('message', (_channel: string, message: string) => {
  const { id, answer } = JSON.parse(message) as { id: string; answer: unknown };
  waiting.get(id)?.(answer);
  waiting.delete(id);
});

const app = Fastify().withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
app.get('/', async () => ({ ready: true }));
app.post('/v1/reports/:id/:step', { schema: { body: ClaimBody } }, async (request) => {
  const params = request.params as { id: string; step: string };
  const id = randomUUID();
  const answer = new Promise((resolve) => waiting.set(id, resolve));
  await queue.add(params.step, { reportId: params.id, moderatorId: request.body.moderator.id, replyTo: channel }, { jobId: id, removeOnComplete: true });
  return answer;
});
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
