import { describe, expect, it } from 'vitest';
import { hostPortOf, isPublicAddress, parseAllowList, parsePrefixes } from './address-guard.js';

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

describe('isPublicAddress: IPv6 is global unicast (2000::/3) or refused', () => {
  it.each([
    ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
    ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['::808:808', 'IPv4-compatible, even of a public IPv4 address'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['100::1', 'discard-only'],
    ['4000::1', 'outside 2000::/3'],
    ['2002:a00:1::', '6to4 of 10.0.0.1, within 2000::/3'],
    ['2001::1', 'Teredo, within 2000::/3'],
    ['2001:db8::1', 'documentation, within 2000::/3'],
  ])('refuses %s (%s)', (a) => {
    expect(isPublicAddress(a)).toBe(false);
  });

  it('refuses the prefixes it is given, of either family, and nothing else', () => {
    const refused = parsePrefixes('203.0.113.0/24, 2606:4700::/32');
    expect(isPublicAddress('93.184.216.34', parsePrefixes('93.184.216.0/24'))).toBe(false);
    expect(isPublicAddress('2606:4700:4700::1111', refused)).toBe(false);
    expect(isPublicAddress('8.8.8.8', refused)).toBe(true);
    expect(isPublicAddress('2a00:1450:4001:80b::200e', refused)).toBe(true);
  });
});

describe('parsePrefixes', () => {
  it('reads comma-separated CIDR prefixes and refuses anything else', () => {
    expect(parsePrefixes(' 10.0.0.0/8 ,, 2001:db8::/32 ').map(([range, bits]) => `${range.toString()}/${bits}`)).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    expect(parsePrefixes(undefined)).toEqual([]);
    for (const bad of ['10.0.0.0', '10.0.0.0/33', '10.1/8', 'example.test/8', '::/129', '10.0.0.0/8/1']) expect(() => parsePrefixes(bad), bad).toThrow(/CIDR/);
  });
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
