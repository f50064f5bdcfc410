import { describe, expect, it } from 'vitest';
import { hostPortOf, isPublicAddress, parseAllowList } from './address-guard.js';

describe('isPublicAddress', () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('admits the public address %s', (a) => {
    expect(isPublicAddress(a)).toBe(true);
  });
  it.each(['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:8.8.8.8', 'localhost', ''])(
    'refuses %s',
    (a) => {
      expect(isPublicAddress(a)).toBe(false);
    },
  );
});

describe('parseAllowList', () => {
  it('reads host:port pairs and refuses anything else', () => {
    expect([...parseAllowList(' 127.0.0.1:8080,[::1]:9,Local.Test:80 ')]).toEqual(['127.0.0.1:8080', '[::1]:9', 'local.test:80']);
    expect(parseAllowList(undefined).size).toBe(0);
    expect(() => parseAllowList('127.0.0.1')).toThrow(/host:port/);
  });
  it('names a URL the way the list does, default ports written out', () => {
    expect(hostPortOf(new URL('http://Example.test/x'))).toBe('example.test:80');
    expect(hostPortOf(new URL('https://[::1]/x'))).toBe('[::1]:443');
  });
});
