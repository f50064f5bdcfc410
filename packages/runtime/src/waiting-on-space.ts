/** The least time between two wake-ups: what a success while the disk is still full can cost. */
export const SPACE_WAKE_INTERVAL_MS = 5_000;
/**
 * The most job ids one process keeps (a few MB at most): beyond it, the rest wait out their backoff.
 * A paced load makes a job of each report, and a disk full for three minutes held 16,000.
 */
const MAX_WAITING = 100_000;
/** Jobs asked to run at once: thousands wait after a long spell, each a round trip or two. */
const AT_ONCE = 100;

/**
 * The jobs a full disk sent to wait out their backoff, run again as soon as a job of the same
 * worker succeeds: the store takes writes again. Without it, recovery after a long full spell
 * waited for each job's next attempt (the intake's backoff reaches a minute, INTAKE_RETRY_MAX_MS),
 * since nothing tells a waiting job that space came back. A success that wrote nothing while the
 * disk is still full wakes them for nothing; at most once per SPACE_WAKE_INTERVAL_MS, so that costs
 * one refused attempt per waiting job every five seconds at worst. Only this process's refused
 * jobs: another process wakes its own, and a restarted one leaves them to their backoff.
 */
export class WaitingOnSpace {
  private readonly ids = new Set<string>();
  private lastWakeAt = -Infinity;

  constructor(
    /** Runs a waiting job now (BullMQ's promote); may reject, e.g. when it already left the delayed set. */
    private readonly runNow: (jobId: string) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A job refused for a full disk, now waiting for its next attempt. */
  refused(jobId: string): void {
    if (this.ids.size < MAX_WAITING) this.ids.add(jobId);
  }

  /** A job succeeded: the waiting ones are run now, a hundred at a time; resolves once all were asked. */
  async succeeded(): Promise<void> {
    if (this.ids.size === 0 || this.now() - this.lastWakeAt < SPACE_WAKE_INTERVAL_MS) return;
    this.lastWakeAt = this.now();
    const waking = [...this.ids];
    this.ids.clear();
    for (let i = 0; i < waking.length; i += AT_ONCE) {
      await Promise.all(waking.slice(i, i + AT_ONCE).map((id) => this.runNow(id).catch(() => undefined)));
    }
  }
}
