import { parseIsoDuration } from '@rm/contracts';

/** Milliseconds of a duration the policy schema already validated (ISO 8601, see parseIsoDuration). */
export function durationMs(text: string): number {
  const ms = parseIsoDuration(text);
  if (ms === null) throw new Error(`not an ISO 8601 duration: ${text}`);
  return ms;
}
