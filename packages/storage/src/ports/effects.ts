/**
 * One follow-up owed by a committed change (decision, lift, expiry), written in the same
 * transaction as the change (the outbox) and carried out by the relay until marked done.
 */
export interface NewEffect {
  /** Deterministic (source id + kind), so recording it again changes nothing. */
  id: string;
  kind: string;
  payload: unknown;
  /**
   * An effect that waits: not carried out before this time (ms since the epoch), recorded as its
   * createdAt (never earlier than the change's own time, so it keeps its place after the others). A deadline or an expiry waits until shortly before it is due, so that the change
   * making it moot (a decision after the claim, a lift) usually comes first.
   */
  notBefore?: number | undefined;
}

export interface EffectRecord extends NewEffect {
  /** The decision id, or the id of the sanction change, that owes it. */
  sourceId: string;
  /** When it was recorded, or the time a waiting effect waits for (notBefore): the relay carries out none before it. */
  createdAt: number;
  doneAt: number | null;
}

/** The outbox: follow-ups a committed change owes, carried out by the relay (DESIGN 14). */
export interface EffectStore {
  /** Effects not done yet of one source (a decision or a sanction change), in recording order. */
  pendingEffectsOf(sourceId: string): Promise<EffectRecord[]>;
  /** Effects not done yet recorded at or before `createdBefore`, oldest first. */
  pendingEffects(createdBefore: number, limit: number): Promise<EffectRecord[]>;
  /** Marks effects done, in one write; idempotent. */
  completeEffects(ids: string[], at: number): Promise<void>;
  /** Deletes up to `limit` effects marked done before `doneBefore` (never a pending one); answers how many. */
  pruneEffects(doneBefore: number, limit: number): Promise<number>;
}
