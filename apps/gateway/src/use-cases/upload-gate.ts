import { AppError } from '@rm/contracts';

export interface UploadGateLimits {
  /** EVIDENCE_UPLOADS_IN_FLIGHT: uploads this gateway receives at once. */
  inFlight: number;
  /** EVIDENCE_UPLOADS_PER_MINUTE: upload PUTs one address may start per minute on this gateway. */
  perAddressPerMinute: number;
}

const MINUTE_MS = 60_000;

/**
 * The upload route is outside the API-key hook (the signed URL is the credential), so no key's
 * rate limit applies: this bounds what one gateway takes in at once and from one address. Counted
 * in memory per gateway, which is what it protects (its disk and sockets), and free of Redis.
 */
export class UploadGate {
  private running = 0;
  private window = 0;
  private started = new Map<string, number>();

  constructor(
    private readonly limits: UploadGateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Admits one upload from `address`, or throws 429; call the returned function when it ends. */
  enter(address: string): () => void {
    const window = Math.floor(this.now() / MINUTE_MS);
    if (window !== this.window) {
      this.window = window;
      this.started.clear();
    }
    const count = this.started.get(address) ?? 0;
    if (count >= this.limits.perAddressPerMinute) throw new AppError('RATE_LIMITED', `Too many uploads from this address: at most ${this.limits.perAddressPerMinute} a minute`);
    if (this.running >= this.limits.inFlight) throw new AppError('RATE_LIMITED', 'Too many uploads in progress here: try again shortly');
    this.started.set(address, count + 1);
    this.running++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running--;
    };
  }
}
