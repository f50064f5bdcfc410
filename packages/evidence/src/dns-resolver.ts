import { Resolver } from 'node:dns/promises';

export interface DnsResolverOptions {
  /** How long one try of a query waits for an answer. */
  timeoutMs?: number;
  /** Tries per name server. */
  tries?: number;
  /** Name servers (`127.0.0.1:5353`); unset: the system's (/etc/resolv.conf). */
  servers?: string[];
}

// RFC 6761: these names are loopback whatever DNS says, so they are answered here and the guard
// refuses them as loopback (unless EVIDENCE_FETCH_ALLOW names them).
const LOCALHOST = /(^|\.)localhost\.?$/i;
// No record of this family (or no such name): the other family may have some.
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * A resolver for the guarded fetcher: A and AAAA records through c-ares (node:dns `Resolver`), not
 * getaddrinfo (`dns.lookup`), so a lookup has its own timeout and never holds one of libuv's
 * thread-pool slots, which the filesystem blob store needs. A Resolver per lookup, so aborting one
 * (the capture's time cap) cancels that lookup's queries and no other's. /etc/hosts is not read.
 */
export function dnsResolver(options: DnsResolverOptions = {}): (hostname: string, signal: AbortSignal) => Promise<string[]> {
  return async (hostname, signal) => {
    if (LOCALHOST.test(hostname)) return ['127.0.0.1', '::1'];
    const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
    if (options.servers) resolver.setServers(options.servers);
    const cancel = () => resolver.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const failed = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason as NodeJS.ErrnoException] : []));
      // A family that failed otherwise (a timeout, a refused query) leaves the name's addresses unknown.
      const unknown = failed.find((err) => !NO_RECORDS.has(err.code ?? ''));
      if (unknown) throw unknown;
      const found = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
      if (found.length === 0 && failed[0]) throw failed[0];
      return found;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  };
}
