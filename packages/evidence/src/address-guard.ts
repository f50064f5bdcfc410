import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Cloud metadata endpoints. Most already fall in a refused range (169.254.169.254 is link-local,
 * fd00:ec2::254 unique-local, 100.100.100.200 shared address space); they are named here so that
 * a change of library or of range table cannot let one through.
 */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192']);

/**
 * True only for an address on the public internet. ipaddr.js classes every special-purpose range
 * (loopback, private, link-local, unique-local, multicast, unspecified, shared, reserved, the
 * IPv4-mapped, 6to4, Teredo and NAT64 forms that can carry any IPv4 address...) as something other
 * than `unicast`, so anything but `unicast` is refused. A mapped IPv6 address is judged as the
 * IPv4 address it carries as well, in case a table ever classes the mapped range as unicast.
 */
export function isPublicAddress(address: string): boolean {
  if (!isIP(address)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (METADATA.has(parsed.toNormalizedString()) || METADATA.has(address.toLowerCase())) return false;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const inner = (parsed as ipaddr.IPv6).toIPv4Address();
    if (!isPublicAddress(inner.toString())) return false;
  }
  return parsed.range() === 'unicast';
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
