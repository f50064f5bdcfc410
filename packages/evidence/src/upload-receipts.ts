import { randomUUID } from 'node:crypto';
import type { Redis } from '@rm/runtime';

/** Deletes the key only while it still holds this PUT's own mark (a later owner's is left alone). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RECEIVING = 'receiving:';

/**
 * Each upload URL is good for one PUT, across every gateway: the first PUT marks the upload in
 * Redis (a second one, in flight or after, finds the mark), and a PUT that stored its bytes
 * leaves their SHA-256 there, which the capture of the cited upload checks the bytes against.
 * A PUT that failed (a cut connection, a wrong size) removes its mark, so the client may try again.
 */
export class UploadReceipts {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(uploadId: string): string {
    return `${this.prefix}:upload:{${uploadId}}`;
  }

  /** Marks the upload as being received until `untilMs` (the URL's expiry); null when it is taken already. */
  async begin(uploadId: string, untilMs: number): Promise<string | null> {
    const mark = `${RECEIVING}${randomUUID()}`;
    const set = await this.redis.set(this.key(uploadId), mark, 'PXAT', Math.max(untilMs, Date.now() + 1), 'NX');
    return set === 'OK' ? mark : null;
  }

  /** The PUT stored its bytes: their hash is kept as long as the upload may be cited (`keepUntilMs`). */
  async stored(uploadId: string, sha256: string, keepUntilMs: number): Promise<void> {
    await this.redis.set(this.key(uploadId), sha256, 'PXAT', keepUntilMs);
  }

  /** The PUT failed: the URL may be used again while it is valid. */
  async abandon(uploadId: string, mark: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(uploadId), mark);
  }

  /** The SHA-256 the PUT stored, or null when none is known (an upload straight to S3, or a lost key). */
  async sha256Of(uploadId: string): Promise<string | null> {
    const value = await this.redis.get(this.key(uploadId));
    return value === null || value.startsWith(RECEIVING) ? null : value;
  }
}
