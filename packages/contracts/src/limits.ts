/** Bounds fixed by the spec (section 8) and the ones we chose where it is silent (docs/decisions.md). */
export const LIMITS = {
  answers: { min: 1, max: 5 },
  answerText: { min: 1, max: 500 },
  evidence: { min: 1, max: 5 },
  /**
   * Ids of our own in our extensions (case ids, sanction ids, ids a sign-in makes). The spec's own
   * ids (a player's, a moderator's, a report's in a path) have no bound of ours: any string, within
   * the body or the request line (`pathParamLength`), non-empty in a path.
   */
  idLength: 128,
  /**
   * The longest path parameter the router takes. The request line counts towards Node's 16 KiB
   * header limit, so no longer parameter can arrive: Node's limit is the real bound.
   */
  pathParamLength: 16 * 1024,
  list: { defaultLimit: 25, maxLimit: 100 },
  /** Request body ceiling in bytes (a full submit is well under 8 KiB). */
  bodyBytes: 64 * 1024,
} as const;
