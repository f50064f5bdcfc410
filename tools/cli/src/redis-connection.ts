import { createRedis, waitForRedis, type CommonConfig, type Redis } from '@rm/runtime';

/**
 * The CLI's Redis side, loaded by CliContext only for a command that touches queues: ioredis and
 * BullMQ are most of what a CLI run would otherwise load.
 */
export async function connectRedis(config: CommonConfig, timeoutMs: number): Promise<Redis> {
  // The CLI exits right after: a dead socket need not be waited for (createRedis).
  const connection = createRedis(config, { disconnectTimeoutMs: 100 });
  try {
    await waitForRedis(connection, timeoutMs);
  } catch (err) {
    connection.disconnect();
    throw err;
  }
  return connection;
}

export { openQueue } from '@rm/runtime';
