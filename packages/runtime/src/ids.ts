import { randomBytes } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation
 * time, which keeps the report index append-mostly.
 */
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** Random bytes are drawn 4 KiB at a time: one system call per 256 ids instead of one per id. */
function random16(): Buffer {
  if (offset + 16 > pool.length) {
    pool = randomBytes(16 * POOL_IDS);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + 16));
  offset += 16;
  return bytes;
}

export function uuidv7(now: number = Date.now()): string {
  const bytes = random16();
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
