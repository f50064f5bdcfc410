import { z } from 'zod';

/**
 * Data subject requests and legal holds (docs/privacy.md, /v1/privacy). A subject is a player
 * (`userId`) or a reporter (`platform` and `reporterId`); which one is checked by the use case, so
 * naming both or neither is a 400 naming the field.
 */
const id = (field: string) => z.string({ error: `${field} must be a string` }).min(1, `${field} must be 1 to 256 characters`).max(256, `${field} must be 1 to 256 characters`);

export const PrivacySubjectBody = z.strictObject({
  userId: id('userId').optional(),
  platform: id('platform').optional(),
  reporterId: id('reporterId').optional(),
});

export const PrivacyErasureBody = PrivacySubjectBody.extend({ dryRun: z.boolean({ error: 'dryRun must be a boolean' }).optional() });

export const PrivacySubject = z.union([
  z.strictObject({ kind: z.literal('player'), userId: z.string() }),
  z.strictObject({ kind: z.literal('reporter'), platform: z.string(), reporterId: z.string() }),
]);

export const PrivacyExportResponse = z.strictObject({
  success: z.literal(true),
  requestId: z.string(),
  subject: PrivacySubject,
  generatedAt: z.string(),
  parts: z.array(z.strictObject({ part: z.string(), what: z.string(), why: z.string(), retention: z.string(), items: z.array(z.unknown()) })),
});

export const PrivacyErasureResponse = z.strictObject({
  success: z.literal(true),
  requestId: z.string(),
  subject: PrivacySubject,
  dryRun: z.boolean(),
  erased: z.strictObject({
    reports: z.number().int(),
    evidenceItems: z.number().int(),
    evidenceFiles: z.number().int(),
    appeals: z.number().int(),
    sanctions: z.number().int(),
    directoryRecord: z.boolean(),
    reporterCredibility: z.boolean(),
    reporterOutcomes: z.number().int(),
    chatMessages: z.number().int(),
    redisKeys: z.number().int(),
    queueJobs: z.number().int(),
  }),
  kept: z.array(z.strictObject({ kind: z.string(), id: z.string(), reason: z.enum(['legal_hold', 'active_sanction']), holdId: z.string().optional(), why: z.string() })),
});

export const HoldBody = z.strictObject({
  target: z.strictObject({ type: z.enum(['case', 'player', 'sanction'], { error: 'target.type must be one of case, player, sanction' }), id: id('target.id') }),
  reason: z.string({ error: 'reason must be a string' }).min(1, 'reason must be 1 to 1000 characters').max(1000, 'reason must be 1 to 1000 characters'),
  /** When the hold ends on its own: an RFC 3339 time; absent, until released. */
  until: z.iso.datetime({ offset: true, error: 'until must be an RFC 3339 date-time' }).optional(),
});

export const ReleaseHoldBody = z.strictObject({ reason: z.string().max(1000, 'reason must be at most 1000 characters').optional() });
export const HoldIdParams = z.strictObject({ holdId: id('holdId') });

export const HoldView = z.strictObject({
  id: z.string(),
  target: z.strictObject({ type: z.enum(['case', 'player', 'sanction']), id: z.string() }),
  reason: z.string(),
  until: z.string().nullable(),
  placedBy: z.string(),
  placedAt: z.string(),
  releasedAt: z.string().nullable(),
  releasedBy: z.string().nullable(),
  releaseReason: z.string().nullable(),
});
export const HoldResponse = z.strictObject({ success: z.literal(true), hold: HoldView });
