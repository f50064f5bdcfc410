import { join } from 'node:path';
import type { BlobStore } from './blob-store.js';
import type { EvidenceConfig } from './evidence-config.js';
import { createFilesystemBlobStore } from './filesystem-blob-store.js';
import { createS3BlobStore } from './s3-blob-store.js';

/** The blob store the settings name: the S3 bucket when EVIDENCE_S3_BUCKET is set, else DATA_DIR/evidence. */
export function openBlobStore(config: EvidenceConfig): BlobStore {
  if (config.EVIDENCE_S3_BUCKET === undefined) return createFilesystemBlobStore(join(config.DATA_DIR, 'evidence'));
  const { EVIDENCE_S3_ACCESS_KEY_ID: accessKeyId, EVIDENCE_S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  return createS3BlobStore({
    bucket: config.EVIDENCE_S3_BUCKET,
    keyPrefix: config.EVIDENCE_S3_PREFIX,
    region: config.EVIDENCE_S3_REGION,
    forcePathStyle: config.EVIDENCE_S3_FORCE_PATH_STYLE,
    ...(config.EVIDENCE_S3_ENDPOINT !== undefined && { endpoint: config.EVIDENCE_S3_ENDPOINT }),
    ...(accessKeyId !== undefined && secretAccessKey !== undefined && { credentials: { accessKeyId, secretAccessKey } }),
  });
}
