import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Cloud metadata endpoints. Most already fall in a refused range (169.254.169.254 is link-local,
 * fd00:ec2::254 unique-local, 100.100.100.200 shared address space); they are named here so that
 * a change of library or of range table cannot let one through.
 */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192']);

/** Global unicast: the one IPv6 block the internet's hosts are in. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** A CIDR prefix, as ipaddr.js parses it. */
export type Prefix = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * True only for an address on the public internet. ipaddr.js classes the special-purpose ranges
 * (loopback, private, link-local, multicast, shared, reserved, 6to4, Teredo...) as something other
 * than `unicast`, so anything but `unicast` is refused. Its table leaves some IPv6 forms unclassed
 * (the IPv4-compatible `::/96`, `::7f00:1` being 127.0.0.1), so IPv6 must also be global unicast:
 * anything outside 2000::/3, mapped and NAT64 forms included, is refused whatever the table says.
 * `refused` adds prefixes of the operator's own (EVIDENCE_REFUSED_PREFIXES).
 */
export function isPublicAddress(address: string, refused: readonly Prefix[] = []): boolean {
  if (!isIP(address)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (METADATA.has(parsed.toNormalizedString()) || METADATA.has(address.toLowerCase())) return false;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST)) return false;
  if (refused.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return false;
  return parsed.range() === 'unicast';
}

/** `10.0.0.0/8, 2001:db8::/32`: comma-separated CIDR prefixes (EVIDENCE_REFUSED_PREFIXES). */
export function parsePrefixes(value: string | undefined): Prefix[] {
  const prefixes: Prefix[] = [];
  for (const raw of (value ?? '').split(',')) {
    const text = raw.trim();
    if (text === '') continue;
    const bad = new Error(`not a CIDR prefix: ${JSON.stringify(text)}`);
    const [address = '', bits = ''] = text.split('/');
    // isIP first: ipaddr.js would also take forms like `10.1` or `0x0a.0.0.1`.
    if (!isIP(address) || !/^\d{1,3}$/.test(bits)) throw bad;
    try {
      prefixes.push(ipaddr.parseCIDR(text));
    } catch {
      throw bad;
    }
  }
  return prefixes;
}

/**
 * The test-only allow-list (EVIDENCE_FETCH_ALLOW): `host:port` pairs exactly as a URL names them
 * (`127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`). Matched on the URL's host before any
 * lookup, so admitting `127.0.0.1:8080` does not admit a name that resolves to it.
 */
export function parseAllowList(value: string | undefined): Set<string> {
  const pairs = new Set<string>();
  for (const raw of (value ?? '').split(',')) {
    const pair = raw.trim().toLowerCase();
    if (pair === '') continue;
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(pair)) throw new Error(`not a host:port pair: ${JSON.stringify(raw.trim())}`);
    pairs.add(pair);
  }
  return pairs;
}

/** The `host:port` of a URL as the allow-list names it (the scheme's default port written out). */
export function hostPortOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.toLowerCase()}:${port}`;
}
