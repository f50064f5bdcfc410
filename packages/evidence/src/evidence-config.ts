import { z } from 'zod';
import { env } from '@rm/runtime';
import { parsePrefixes } from './address-guard.js';

/**
 * Settings of the evidence store and the guarded fetcher, shared by the gateway, the evidence
 * worker and the CLI (docs/configuration.md; docs/evidence.md).
 */
export const evidenceConfigShape = {
  /** Set: kept copies and uploads live in this S3 bucket; unset: under DATA_DIR/evidence. */
  EVIDENCE_S3_BUCKET: env.optionalString(),
  /** An S3-compatible endpoint (MinIO, Ceph...); unset: AWS. */
  EVIDENCE_S3_ENDPOINT: env.url(),
  EVIDENCE_S3_REGION: env.string('us-east-1'),
  /** Path-style addressing (endpoint/bucket/key), which most S3-compatible servers need. */
  EVIDENCE_S3_FORCE_PATH_STYLE: env.bool(true),
  /** Every key starts with it, so a bucket can be shared. */
  EVIDENCE_S3_PREFIX: z.string().regex(/^[A-Za-z0-9/_.-]*$/, 'letters, digits and / _ . - only').default('evidence/'),
  /** Both set: these credentials; unset: the SDK's default chain (AWS_ACCESS_KEY_ID..., profile, role). */
  EVIDENCE_S3_ACCESS_KEY_ID: env.optionalString(),
  EVIDENCE_S3_SECRET_ACCESS_KEY: env.optionalString(),
  /** The largest kept copy or upload, in bytes (10 MB). */
  EVIDENCE_MAX_BYTES: env.positiveInt(10 * 1024 * 1024),
  /** A capture's whole time, every redirect and the body included. */
  EVIDENCE_FETCH_TIMEOUT_MS: env.positiveInt(15_000),
  /**
   * TESTS ONLY, never in production: `host:port` pairs fetched although they are not public
   * addresses (a local test server). Empty by default.
   */
  EVIDENCE_FETCH_ALLOW: z.string().optional(),
  /**
   * Comma-separated CIDR prefixes never fetched, on top of the built-in non-public ranges (your
   * own public ranges, say). Checked at start: a bad one stops the process naming this variable.
   */
  EVIDENCE_REFUSED_PREFIXES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parsePrefixes(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * Signs upload tokens and cited upload URLs. Unset: a random key generated once and kept in
   * DATA_DIR/evidence-token.key (enough for one host; set it when processes do not share DATA_DIR).
   */
  EVIDENCE_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** How long an upload URL may be used, in seconds. */
  EVIDENCE_UPLOAD_TTL_S: env.positiveInt(900),
  // How long kept evidence lives is the policy's `evidence.retention` (TRIAGE_POLICY), not a variable.
};
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is needed
const evidenceConfig = z.object(evidenceConfigShape);
export type EvidenceConfig = z.infer<typeof evidenceConfig> & { DATA_DIR: string };
