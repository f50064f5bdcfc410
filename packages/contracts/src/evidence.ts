import { z } from 'zod';

/** One evidence item to keep: item `index` of the report's evidence. */
export const CaptureItem = z.object({
  reportId: z.string(),
  caseId: z.string(),
  index: z.number().int().min(0),
  url: z.string(),
  type: z.enum(['url', 's3Upload']),
  requestId: z.string().optional(),
});
export type CaptureItem = z.infer<typeof CaptureItem>;

/** Items per capture job at most: an intake job's items are queued in jobs of this many. */
export const CAPTURE_ITEMS_PER_JOB = 20;

/**
 * Payload of a job on the evidence queue. `capture`: evidence items to keep (docs/evidence.md),
 * each a `url` to fetch or an `s3Upload` to check, queued by the intake worker once their reports
 * are stored: one job per intake job (per CAPTURE_ITEMS_PER_JOB items), so keeping evidence costs
 * intake one queued job per batch, not one per report. `sweep`: the daily evidence retention
 * sweep. `retention`: the daily retention sweep of personal data (docs/privacy.md#retention).
 */
export const EvidenceJob = z.discriminatedUnion('kind', [
  /** The items of one intake job (CAPTURE_ITEMS_PER_JOB at most), kept at once. */
  z.object({ kind: z.literal('capture'), items: z.array(CaptureItem).min(1).max(CAPTURE_ITEMS_PER_JOB) }),
  z.object({ kind: z.literal('sweep') }),
  z.object({ kind: z.literal('retention') }),
]);
export type EvidenceJob = z.infer<typeof EvidenceJob>;
export type CaptureJob = Extract<EvidenceJob, { kind: 'capture' }>;

/**
 * A capture job is named after its first item: an intake job redelivered queues the same items in
 * the same jobs, which adds nothing while the first jobs are kept.
 */
export const evidenceJobId = (job: EvidenceJob) =>
  job.kind === 'capture' ? `capture-${job.items[0]!.reportId}-${job.items[0]!.index}` : job.kind === 'sweep' ? 'evidence-sweep' : 'retention-sweep';

/** Cited upload URLs start with this (`evidence-upload:<signed token>`, from POST /v1/evidence/uploads). */
export const UPLOAD_URL_SCHEME = 'evidence-upload:';

/**
 * Whether an evidence item of a submit is to be kept: a url asked to be, and every upload made
 * through POST /v1/evidence/uploads (an s3Upload citing anything else stays text, as before).
 */
export const isKeptEvidence = (e: { url: string; type: string; createEvidence?: boolean | undefined }) =>
  (e.type === 'url' && e.createEvidence === true) || (e.type === 's3Upload' && e.url.startsWith(UPLOAD_URL_SCHEME));

/** What evidence may be kept, captured or uploaded: images, video, audio, plain text and JSON. */
export const EVIDENCE_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'text/plain',
  'application/json',
] as const;

/** Body of POST /v1/evidence/uploads; the size's upper bound is EVIDENCE_MAX_BYTES, checked by the route. */
export const UploadRequestBody = z.strictObject({
  contentType: z.enum(EVIDENCE_CONTENT_TYPES, { error: `contentType must be one of ${EVIDENCE_CONTENT_TYPES.join(', ')}` }),
  size: z.number({ error: 'size must be a whole number of bytes' }).int('size must be a whole number of bytes').min(1, 'size must be at least 1 byte'),
});

export const UploadResponse = z.strictObject({
  success: z.boolean(),
  /** Where to send the bytes: the gateway's PUT /v1/evidence/uploads/{token}, or a presigned S3 URL. */
  uploadUrl: z.string(),
  method: z.literal('PUT'),
  /** What to cite in a submit, with `type: s3Upload`. */
  evidenceUrl: z.string(),
  /** After this (epoch ms) the upload URL is refused. */
  expiresAt: z.number().int(),
});
export type UploadResponse = z.infer<typeof UploadResponse>;

export const UploadTokenParams = z.strictObject({ token: z.string().min(1).max(1024) });
export const UploadDoneResponse = z.strictObject({ success: z.boolean() });

/** The states the case view shows: an item asked to be kept and not settled yet is pending. */
export const EVIDENCE_STATES = ['pending', 'captured', 'failed', 'deleted'] as const;

export const EvidenceItemView = z.strictObject({
  index: z.number().int(),
  state: z.enum(EVIDENCE_STATES),
  /** Why the capture failed (refused_address, too_large, timed_out, http_status, type_not_allowed...). */
  failure: z.string().nullable(),
  detail: z.string().nullable(),
  sha256: z.string().nullable(),
  size: z.number().int().nullable(),
  contentType: z.string().nullable(),
  capturedAt: z.number().int().nullable(),
  /** Our own copy (GET, reports.view_reports) while it is kept; never the player-supplied URL. */
  copyUrl: z.string().nullable(),
});
export type EvidenceItemView = z.infer<typeof EvidenceItemView>;

export const EvidenceCopyParams = z.strictObject({
  reportId: z.string().min(1),
  index: z.coerce.number({ error: 'index must be a whole number' }).int('index must be a whole number').min(0, 'index must be at least 0'),
});
