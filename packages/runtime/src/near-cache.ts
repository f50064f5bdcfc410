import type { Redis as Standalone } from 'ioredis';
import { ExpiringCache } from './expiring-cache.js';
import { createRedis, type RedisTarget } from './redis.js';

/** The channel Redis sends a RESP2 redirect target's invalidations on. */
const INVALIDATIONS = '__redis__:invalidate';

export interface NearCacheOptions {
  /** Most bytes of keys and values kept (UTF-16 estimate). */
  maxBytes: number;
  /** A kept value is read from Redis again after this long even if no invalidation came (a safety net). */
  ttlMs: number;
  /** How often both connections are pinged while the cache answers. */
  heartbeatMs: number;
  /** Errors while (re)starting the tracking, for the log; the cache then answers nothing from memory. */
  onError: (err: unknown) => void;
}

/**
 * A NearCache on two connections of its own; none on a Redis Cluster, whose nodes would each
 * have to be tracked for the keys they hold.
 */
export function openNearCache(target: RedisTarget, options: NearCacheOptions & { onConnectionError: (err: Error) => void }): NearCache | undefined {
  if (target.REDIS_CLUSTER_NODES) return undefined;
  const onError = options.onConnectionError;
  const reads = createRedis(target, { failFast: true, autoPipelining: true, onError }) as Standalone;
  const invalidations = createRedis(target, { failFast: true, invalidations: true, onError }) as Standalone;
  return new NearCache(reads, invalidations, options);
}

/**
 * String values of Redis keys kept in this process and dropped when Redis says they changed
 * (Redis's client-side caching, tracking in its default mode). `reads` is a connection used for
 * nothing but these keys: Redis remembers each key it read and, when that key is written, expires
 * or is evicted, tells `invalidations` (a RESP2 connection subscribed to the invalidation channel).
 *
 * Nothing is answered from memory unless the tracking is confirmed on the connections as they are
 * now. Either connection closing, or not answering a ping within three heartbeats, forgets
 * everything until the tracking is set up again on the new connections. A read whose answer might
 * be older than an invalidation that arrived while it was in flight is passed on but not kept.
 */
export class NearCache {
  private readonly kept: ExpiringCache<string>;
  /** Tracking confirmed on the current connections. */
  private live = false;
  /** Bumped by every invalidation and every loss: a read that saw it change keeps nothing. */
  private changes = 0;
  /** Bumped by every loss: a setup that saw it change does not go live. */
  private sessions = 0;
  /** The id of `invalidations` once subscribed; null from its close until it is subscribed again. */
  private subscriberId: number | null = null;
  private subscriberCloses = 0;
  private setup: Promise<void> = Promise.resolve();
  private lastPong = Date.now();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly reads: Standalone,
    private readonly invalidations: Standalone,
    private readonly options: NearCacheOptions,
  ) {
    this.kept = new ExpiringCache(options.ttlMs, { maxEntries: Number.MAX_SAFE_INTEGER, maxBytes: options.maxBytes });
    invalidations.on('messageBuffer', (channel: Buffer, keys: Buffer[] | null) => this.invalidate(channel, keys));
    invalidations.on('close', () => {
      this.subscriberCloses++;
      this.subscriberId = null;
      this.lose();
    });
    reads.on('close', () => this.lose());
    invalidations.on('ready', () => this.start());
    reads.on('ready', () => this.start());
    if (invalidations.status === 'ready' && reads.status === 'ready') this.start();
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs).unref();
  }

  /** Whether answers are kept in memory now (tests, metrics). */
  get active(): boolean {
    return this.live;
  }

  /** How many values are kept, and their estimated bytes. */
  get size(): { entries: number; bytes: number } {
    return this.kept.size;
  }

  /** The key's value: from memory when kept, else read from Redis (and kept, when that is safe). */
  async get(key: string): Promise<string | null> {
    if (this.live) {
      const hit = this.kept.get(key);
      if (hit !== undefined) return hit;
    }
    const live = this.live;
    const changes = this.changes;
    const value = await this.reads.get(key);
    // A loss bumps `changes` too, so an unchanged count also means the tracking held throughout.
    if (live && changes === this.changes && value !== null) this.kept.set(key, value);
    return value;
  }

  /** Stops answering from memory and closes both connections (they are the cache's own). */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.lose();
    await Promise.all([this.reads.quit(), this.invalidations.quit()]);
  }

  /** Sets the tracking up on the current connections, one setup at a time. */
  private start(): void {
    this.setup = this.setup.then(() => this.track()).catch((err) => this.options.onError(err));
  }

  private async track(): Promise<void> {
    if (this.invalidations.status !== 'ready' || this.reads.status !== 'ready') return;
    const session = this.sessions;
    if (this.subscriberId === null) {
      const closes = this.subscriberCloses;
      const id = Number(await this.invalidations.client('ID'));
      await this.invalidations.subscribe(INVALIDATIONS);
      // Kept even when `reads` was lost meanwhile: subscribed, this connection cannot ask its id again.
      if (closes !== this.subscriberCloses) return;
      this.subscriberId = id;
    }
    if (session !== this.sessions) return;
    // Turned off first: a reconnected `reads` has none, a reconnected `invalidations` a new id.
    await this.reads.client('TRACKING', 'OFF');
    await this.reads.client('TRACKING', 'ON', 'REDIRECT', String(this.subscriberId));
    if (session !== this.sessions) return;
    this.lastPong = Date.now();
    this.live = true;
  }

  private invalidate(channel: Buffer, keys: Buffer[] | null): void {
    if (channel.toString() !== INVALIDATIONS) return;
    this.changes++;
    // No keys: the database was flushed.
    if (keys === null) this.kept.clear();
    else for (const key of keys) this.kept.delete(key.toString());
  }

  private lose(): void {
    this.live = false;
    this.changes++;
    this.sessions++;
    this.kept.clear();
  }

  /**
   * A connection that died without closing (a half-open socket) would leave kept values no
   * invalidation can reach: unanswered pings for three heartbeats drop them, and reconnect both.
   */
  private beat(): void {
    if (!this.live) return;
    if (Date.now() - this.lastPong > 3 * this.options.heartbeatMs) {
      this.lose();
      this.invalidations.disconnect(true);
      this.reads.disconnect(true);
      return;
    }
    Promise.all([this.invalidations.ping(), this.reads.ping()]).then(
      () => (this.lastPong = Date.now()),
      () => undefined,
    );
  }
}
