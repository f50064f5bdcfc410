import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './expiring-cache.js';

describe('ExpiringCache', () => {
  it('answers a value until ttlMs after it was looked up, then nothing', () => {
    const cache = new ExpiringCache<string>(1_000, 10);
    cache.set('a', 'one', 5_000);
    expect(cache.get('a', 5_999)).toBe('one');
    expect(cache.get('a', 6_000)).toBeUndefined();
    expect(cache.get('b', 5_000)).toBeUndefined();
  });

  it('keeps null as a value, distinct from a miss', () => {
    const cache = new ExpiringCache<string | null>(1_000, 10);
    cache.set('gone', null, 0);
    expect(cache.get('gone', 1)).toBeNull();
  });

  it('starts afresh once full', () => {
    const cache = new ExpiringCache<number>(1_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, undefined, 3]);
  });
});
