import { z } from 'zod';

const MS = { W: 604_800_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1_000 } as const;
// PnW, or PnDTnHnMnS with any part left out (at least one present); seconds may carry a fraction.
// Years and months are refused: their length depends on the calendar.
const PATTERN = /^P(?:(\d+)W|(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?)?)$/;

/**
 * Milliseconds of an ISO 8601 duration (`PT30M`, `PT1H`, `P7D`, `P1W`, `PT2.5S`), or null when the
 * text is not one we accept (calendar units Y and month M are refused, as is a bare `P` or `PT`).
 */
export function parseIsoDuration(text: string): number | null {
  const m = PATTERN.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [, w, d, h, min, s] = m;
  if (w === undefined && d === undefined && h === undefined && min === undefined && s === undefined) return null;
  const n = (v: string | undefined) => (v === undefined ? 0 : Number(v.replace(',', '.')));
  return Math.round(n(w) * MS.W + n(d) * MS.D + n(h) * MS.H + n(min) * MS.M + n(s) * MS.S);
}

/** A positive ISO 8601 duration as text, parsed to milliseconds. `what` names it in the message. */
export const isoDuration = (what: string) =>
  z
    .string({ error: `${what} must be an ISO 8601 duration such as PT30M or P7D` })
    .transform((text, ctx) => {
      const ms = parseIsoDuration(text);
      if (ms === null || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: `${what} must be a positive ISO 8601 duration such as PT30M or P7D (weeks, days, hours, minutes, seconds)` });
        return z.NEVER;
      }
      return ms;
    });
