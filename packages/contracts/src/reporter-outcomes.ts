import { z } from 'zod';
import { PLATFORMS } from './http.js';
import { LIMITS } from './limits.js';
import { playerId } from './player-id.js';
import { positiveIntFromQuery, seqCursor } from './query-params.js';

/**
 * GET /v1/reporters/{platform}/{reporterId}/outcomes (docs/reporter-outcomes.md): what a reporter
 * may learn of their reports, never the penalty. Paged by a cursor on the store's seq, with the
 * list endpoints' limit (LIMITS.list).
 */
export const ReporterOutcomesParams = z.strictObject({
  platform: z.enum(PLATFORMS, { error: `platform must be one of ${PLATFORMS.join(', ')}` }),
  reporterId: playerId('reporterId'),
});
export type ReporterOutcomesParams = z.infer<typeof ReporterOutcomesParams>;

export const ReporterOutcomesQuery = z.strictObject({
  after: seqCursor().optional(),
  limit: positiveIntFromQuery('limit', LIMITS.list.maxLimit).optional().default(LIMITS.list.defaultLimit),
});
export type ReporterOutcomesQuery = z.infer<typeof ReporterOutcomesQuery>;

/** One report's outcome; a report appears once, at its latest change. */
export const ReporterOutcomeView = z.strictObject({
  /** The cursor of this entry: pass the last one seen as `after`. */
  seq: z.number().int(),
  reportId: z.string(),
  /** True when the case was approved (action was taken against the reported player); false otherwise. */
  actioned: z.boolean(),
  /** True when the decision was undone and the report is under review again (actioned is then false). */
  reopened: z.boolean(),
  /** When the decision (or its undo) was applied, ms since the epoch. */
  decidedAt: z.number().int(),
});
export type ReporterOutcomeView = z.infer<typeof ReporterOutcomeView>;

export const ReporterOutcomesResponse = z.strictObject({
  success: z.literal(true),
  outcomes: z.array(ReporterOutcomeView),
  /** Pass as `after` to read on; the same cursor when the page is empty (nothing newer yet). */
  next: z.string(),
});
export type ReporterOutcomesResponse = z.infer<typeof ReporterOutcomesResponse>;
