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

  it('drops the oldest entry once full', () => {
    const cache = new ExpiringCache<number>(1_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, 2, 3]);
  });

  it('drops expired entries, read or not', () => {
    const cache = new ExpiringCache<number>(1_000, 100);
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, i, 0);
    cache.set('late', 1, 2_000);
    expect(cache.size.entries).toBe(1);
    cache.set('x', 1, 2_500);
    expect(cache.get('late', 3_000)).toBeUndefined();
    expect(cache.size.entries).toBe(1);
  });

  it('stays within its byte bound, and keeps nothing larger than it', () => {
    const cache = new ExpiringCache<string>(60_000, { maxEntries: 1_000_000, maxBytes: 100_000 });
    for (let i = 0; i < 1_000; i++) cache.set(`key-${i}-${'x'.repeat(1_000)}`, 'v', 0);
    expect(cache.size.bytes).toBeLessThanOrEqual(100_000);
    expect(cache.size.entries).toBeGreaterThan(10);
    cache.set('huge', 'y'.repeat(100_000), 0);
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(100_000);
  });

  it('a set of a kept key replaces it and counts its bytes once', () => {
    const cache = new ExpiringCache<string>(1_000, { maxEntries: 10, maxBytes: 10_000 });
    cache.set('a', 'one', 0);
    const { bytes } = cache.size;
    cache.set('a', 'one', 500);
    expect(cache.size).toEqual({ entries: 1, bytes });
    expect(cache.get('a', 1_400)).toBe('one');
  });

  it('delete and clear give their bytes back', () => {
    const cache = new ExpiringCache<string>(1_000, { maxEntries: 10, maxBytes: 10_000 });
    cache.set('a', 'one', 0);
    const { bytes } = cache.size;
    cache.set('b', 'two', 0);
    cache.delete('b');
    cache.delete('missing');
    expect(cache.size).toEqual({ entries: 1, bytes });
    expect(cache.get('b', 1)).toBeUndefined();
    cache.clear();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    expect(cache.get('a', 1)).toBeUndefined();
  });
});
