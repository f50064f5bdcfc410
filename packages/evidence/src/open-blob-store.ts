import { join } from 'node:path';
import type { BlobStore } from './blob-store.js';
import type { EvidenceConfig } from './evidence-config.js';
import { createFilesystemBlobStore } from './filesystem-blob-store.js';

/**
 * The blob store the settings name: the S3 bucket when EVIDENCE_S3_BUCKET is set, else
 * DATA_DIR/evidence. The AWS SDK is loaded only when S3 is used: in every process it is megabytes
 * of code and heap that a filesystem store never needs (the gateway's memory under floods).
 */
export async function openBlobStore(config: EvidenceConfig): Promise<BlobStore> {
  if (config.EVIDENCE_S3_BUCKET === undefined) return createFilesystemBlobStore(join(config.DATA_DIR, 'evidence'));
  const { EVIDENCE_S3_ACCESS_KEY_ID: accessKeyId, EVIDENCE_S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  const { createS3BlobStore } = await import('./s3-blob-store.js');
  return createS3BlobStore({
    bucket: config.EVIDENCE_S3_BUCKET,
    keyPrefix: config.EVIDENCE_S3_PREFIX,
    region: config.EVIDENCE_S3_REGION,
    forcePathStyle: config.EVIDENCE_S3_FORCE_PATH_STYLE,
    ...(config.EVIDENCE_S3_ENDPOINT !== undefined && { endpoint: config.EVIDENCE_S3_ENDPOINT }),
    ...(accessKeyId !== undefined && secretAccessKey !== undefined && { credentials: { accessKeyId, secretAccessKey } }),
  });
}
