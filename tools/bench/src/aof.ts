import { Redis } from 'ioredis';

/**
 * The bench's hold on Redis's AOF rewrites. A measured run appends tens to hundreds of MB (the
 * decision cycles about 250 MB), and the automatic rewrite (a fork and seconds of writing; 12 in
 * one bench) fell into whichever run came next, up to 30 % off that run alone. With the automatic
 * threshold out of reach, `rewrite()` compacts the AOF between measured runs instead.
 */
export async function holdAofRewrites(redisUrl: string): Promise<{ admin: Redis; rewrite: () => Promise<void> }> {
  const admin = new Redis(redisUrl);
  await admin.config('SET', 'auto-aof-rewrite-min-size', '4gb');
  return {
    admin,
    async rewrite() {
      await admin.bgrewriteaof().catch(() => undefined); // refused only while one is already running
      while (/aof_rewrite_(in_progress|scheduled):1/.test(await admin.info('persistence'))) await new Promise((r) => setTimeout(r, 50));
    },
  };
}
