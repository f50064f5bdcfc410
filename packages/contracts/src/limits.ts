/** Bounds fixed by the spec (section 8) and the ones we chose where it is silent (docs/decisions.md). */
export const LIMITS = {
  answers: { min: 1, max: 5 },
  answerText: { min: 1, max: 500 },
  evidence: { min: 1, max: 5 },
  /**
   * Ids where the spec is silent and we bound them (check's userId and reporterId, moderator ids,
   * path ids). Submit's ids, questionId and evidence url are any string within `bodyBytes`.
   */
  idLength: 128,
  dismissReason: { min: 1, max: 1000 },
  list: { defaultLimit: 25, maxLimit: 100 },
  /** Request body ceiling in bytes (a full submit is well under 8 KiB). */
  bodyBytes: 64 * 1024,
} as const;
