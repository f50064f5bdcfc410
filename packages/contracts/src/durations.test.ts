import { describe, expect, it } from 'vitest';
import { parseIsoDuration } from './durations.js';

describe('parseIsoDuration', () => {
  it.each([
    ['PT30M', 30 * 60_000],
    ['PT1H', 3_600_000],
    ['P7D', 7 * 86_400_000],
    ['P2W', 14 * 86_400_000],
    ['P1DT2H3M4S', 86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_000],
    ['PT2.5S', 2_500],
    ['PT0,5S', 500],
  ])('%s is %d ms', (text, ms) => expect(parseIsoDuration(text)).toBe(ms));

  it.each(['', 'P', 'PT', 'P1DT', '7D', 'P1Y', 'P1M', 'PT1.5H', 'P1W2D', '-P1D', ' PT1H', 'pt1h'])('refuses %j', (text) => {
    expect(parseIsoDuration(text)).toBeNull();
  });
});
