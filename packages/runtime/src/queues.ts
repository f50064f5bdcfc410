import { Queue, type QueueOptions } from 'bullmq';
import { QUEUES, queuePrefix, type QueueKey } from '@rm/contracts';
import type { Redis } from './redis.js';

/** A queue of the catalog under its hash-tagged prefix, the one way every process opens one. */
export function openQueue(key: QueueKey, connection: Redis, keyPrefix: string, options: Omit<QueueOptions, 'connection' | 'prefix'> = {}): Queue {
  return new Queue(QUEUES[key].name, { ...options, connection, prefix: queuePrefix(keyPrefix, key) });
}
