import { EVIDENCE_CONTENT_TYPES } from '@rm/contracts';

/** What a capture may keep: images, video, audio, plain text and JSON (docs/evidence.md). */
export const ALLOWED_CONTENT_TYPES = EVIDENCE_CONTENT_TYPES;
export type AllowedContentType = (typeof ALLOWED_CONTENT_TYPES)[number];

/** `image/PNG; charset=x` -> `image/png`; null when absent. */
export function essenceOf(header: string | null | undefined): string | null {
  const essence = header?.split(';')[0]?.trim().toLowerCase();
  return essence ? essence : null;
}

export function isAllowedContentType(type: string | null): type is AllowedContentType {
  return type !== null && (ALLOWED_CONTENT_TYPES as readonly string[]).includes(type);
}

const startsWith = (bytes: Uint8Array, sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** Magic numbers of the binary types we keep; each returns true when the bytes can be that type. */
const MAGIC: Record<Exclude<AllowedContentType, 'text/plain' | 'application/json'>, (b: Uint8Array) => boolean> = {
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a',
  'image/webp': (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
  'video/mp4': (b) => ascii(b, 4, 8) === 'ftyp',
  'video/webm': (b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]),
  'audio/webm': (b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]),
  'audio/mpeg': (b) => ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0),
  'audio/ogg': (b) => ascii(b, 0, 4) === 'OggS',
  'audio/wav': (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE',
};

/**
 * Whether the kept bytes are what their declared type says: binary types by their magic number,
 * text and JSON by being valid UTF-8 (JSON also by parsing). A browser is never asked to sniff
 * (the copy is served with nosniff), so a declared image that is really HTML is refused here.
 */
export function bytesMatchType(type: AllowedContentType, bytes: Uint8Array): boolean {
  if (type === 'text/plain' || type === 'application/json') {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return false;
    }
    if (type === 'text/plain') return true;
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }
  return MAGIC[type](bytes);
}

/** Images, audio and video are shown inline by the console; anything else is served as an attachment. */
export const isInlineType = (type: string) => /^(image|audio|video)\//.test(type);
