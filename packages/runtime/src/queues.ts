import { tracingEnabled, traceparent } from './tracing.js';
import { Queue, type QueueOptions } from 'bullmq';
import { QUEUES, queuePrefix, type QueueKey } from '@rm/contracts';
import type { Redis } from './redis.js';

/** A queue of the catalog under its hash-tagged prefix, the one way every process opens one. */
export function openQueue(key: QueueKey, connection: Redis, keyPrefix: string, options: Omit<QueueOptions, 'connection' | 'prefix'> = {}): Queue {
  const queue = new Queue(QUEUES[key].name, { ...options, connection, prefix: queuePrefix(keyPrefix, key) });
  return tracingEnabled ? carryTrace(queue) : queue;
}

/**
 * Every job added while a span is active carries its W3C `traceparent` in its data (`trace`), so
 * the consumer's span continues the producer's trace across the queue hop. Job payloads are parsed
 * with zod, which drops the field: only the consumer's tracing reads it, from the raw job data.
 */
function carryTrace(queue: Queue): Queue {
  const withTrace = (data: unknown) => {
    const trace = traceparent();
    return trace && data && typeof data === 'object' && !Array.isArray(data) && !('trace' in data) ? { ...data, trace } : data;
  };
  const add = queue.add.bind(queue);
  const addBulk = queue.addBulk.bind(queue);
  queue.add = ((name: string, data: unknown, opts?: unknown) => add(name, withTrace(data), opts as never)) as typeof queue.add;
  queue.addBulk = ((jobs: { name: string; data: unknown; opts?: unknown }[]) => addBulk(jobs.map((j) => ({ ...j, data: withTrace(j.data) })) as never)) as typeof queue.addBulk;
  return queue;
}
