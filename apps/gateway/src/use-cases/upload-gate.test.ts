import { describe, expect, it } from 'vitest';
import { AppError } from '@rm/contracts';
import { UploadGate } from './upload-gate.js';

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? `${err.status} ${err.message}` : String(err);
  }
  return 'admitted';
};

describe('UploadGate', () => {
  it('admits an address its uploads per minute, then 429 until the next minute; other addresses are counted apart', () => {
    let now = 120_000;
    const gate = new UploadGate({ inFlight: 100, perAddressPerMinute: 3 }, () => now);
    for (let i = 0; i < 3; i++) gate.enter('10.0.0.1')();
    expect(refused(() => gate.enter('10.0.0.1'))).toMatch(/^429 Too many uploads from this address: at most 3 a minute/);
    expect(refused(() => gate.enter('10.0.0.2'))).toBe('admitted');
    now += 60_000;
    expect(refused(() => gate.enter('10.0.0.1'))).toBe('admitted');
  });

  it('admits uploads in flight up to its bound; one that ended (once, however often it says so) frees its place', () => {
    const gate = new UploadGate({ inFlight: 2, perAddressPerMinute: 100 });
    const first = gate.enter('a');
    gate.enter('b');
    expect(refused(() => gate.enter('c'))).toMatch(/^429 Too many uploads in progress/);
    first();
    first();
    gate.enter('c');
    expect(refused(() => gate.enter('d'))).toMatch(/^429/);
  });
});
