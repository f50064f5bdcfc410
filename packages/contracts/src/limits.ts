/** Bounds fixed by the spec (section 8) and the ones we chose where it is silent (docs/decisions.md). */
export const LIMITS = {
  answers: { min: 1, max: 5 },
  answerText: { min: 1, max: 500 },
  evidence: { min: 1, max: 5 },
  /**
   * Ids of our own where the spec is silent and we bound them (moderator ids, case and report ids).
   * A player's id (submit's and check's userId, reporter ids, `{id}` of the reports list,
   * `{userId}` of the ban API) has one bound everywhere: no length of ours, any string submit
   * accepts (non-empty where it is looked up), within the body or the request line (`pathParamLength`).
   */
  idLength: 128,
  /**
   * The longest path parameter the router takes. The request line counts towards Node's 16 KiB
   * header limit, so no longer parameter can arrive: Node's limit is the real bound.
   */
  pathParamLength: 16 * 1024,
  dismissReason: { min: 1, max: 1000 },
  list: { defaultLimit: 25, maxLimit: 100 },
  /** Request body ceiling in bytes (a full submit is well under 8 KiB). */
  bodyBytes: 64 * 1024,
} as const;
