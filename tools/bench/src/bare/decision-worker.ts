// Ceiling of the decision cycles, its worker half: takes each decision job (as many at once as our
// moderation worker, MODERATION_CONCURRENCY's default) and publishes an answer of the claim's
// shape to the gateway that waits for it. Nothing is read or stored.
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { BARE_DECISIONS } from './bare-queue.js';

const url = process.env['REDIS_URL']!;
const publisher = new Redis(url);
new Worker(
  BARE_DECISIONS.name,
  async (job) => {
    const data = job.data as { reportId: string; moderatorId: string; replyTo: string };
    const answer = { success: true, data: { message: `Report ${job.name} by ${data.moderatorId}`, reportId: data.reportId, moderator: { id: data.moderatorId, username: data.moderatorId } } };
    await publisher.publish(data.replyTo, JSON.stringify({ id: job.id, answer }));
  },
  { connection: new Redis(url, { maxRetriesPerRequest: null }), prefix: BARE_DECISIONS.prefix, concurrency: 50 },
);
