import { describe, expect, it } from 'vitest';
import { StatsQuery } from './stats.js';

describe('StatsQuery', () => {
  it('accepts a window up to P90D, P7D by default', () => {
    expect(StatsQuery.parse({})).toEqual({ window: 'P7D' });
    expect(StatsQuery.parse({ window: 'P90D' })).toEqual({ window: 'P90D' });
    expect(StatsQuery.parse({ window: 'PT2160H' })).toEqual({ window: 'PT2160H' });
  });

  it.each(['P91D', 'P13W', 'PT2160H1S'])('refuses %s, naming window and its bound', (window) => {
    const result = StatsQuery.safeParse({ window });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['window'], message: 'window must be at most P90D (90 days)' })]);
  });
});
