/** ISO 8601 durations of days, hours, minutes and seconds (`P1D`, `PT4H`, `PT1H30M`, `PT0.5S`, `P2W`). */
const PATTERN = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Milliseconds of an ISO 8601 duration; null when it is not one we accept (years and months vary in length). */
export function parseDuration(text: string): number | null {
  const m = PATTERN.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [, w, d, h, min, s] = m.map((v) => (v === undefined ? 0 : Number(v)));
  return ((((w! * 7 + d!) * 24 + h!) * 60 + min!) * 60 + s!) * 1000;
}

/** Milliseconds of a duration the policy schema already validated. */
export function durationMs(text: string): number {
  const ms = parseDuration(text);
  if (ms === null) throw new Error(`not an ISO 8601 duration: ${text}`);
  return ms;
}
