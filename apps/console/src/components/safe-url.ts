/**
 * The address to link to when `raw` is an absolute http(s) URL, else null: `javascript:`, `data:`,
 * `vbscript:`, relative paths and anything unparsable are never made into links.
 */
export function webUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
