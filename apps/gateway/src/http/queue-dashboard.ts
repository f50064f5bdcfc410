import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyCache } from './api-key-cache.js';
import { authenticate } from './auth.js';

export const DASHBOARD_PATH = '/admin/queues';

/** `Basic base64(key:secret)` (what a browser sends after its login prompt) or plain `key:secret`. */
function credentialsOf(header: string | undefined): string | undefined {
  if (!header?.startsWith('Basic ')) return header;
  return Buffer.from(header.slice(6), 'base64').toString('utf8');
}

/**
 * Bull Board for operators under /admin/queues, only for admin API keys: a browser logs in with
 * the key as user name and the secret as password.
 */
export async function installQueueDashboard(app: FastifyInstance, queues: Queue[], keys: ApiKeyCache): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter });
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const refuse = (message: string) =>
        reply.status(401).header('www-authenticate', 'Basic realm="queue dashboard"').send({ success: false, message });
      try {
        const key = await authenticate(keys, credentialsOf(request.headers.authorization));
        if (!key.admin) return refuse('The queue dashboard needs an admin API key');
      } catch {
        return refuse('Log in with an admin API key: the key as user name, the secret as password');
      }
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: DASHBOARD_PATH });
  });
}
