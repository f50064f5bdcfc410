import autocannon from 'autocannon';

export interface CannonResult {
  reqPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface CannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fresh body for every request (reporters must differ, or limits refuse them). */
  body?: () => string;
  /** A fresh path (with its query) for every request, e.g. a random player. */
  path?: () => string;
  connections: number;
  /** How long to send for, or else how many requests to send. */
  durationSec?: number;
  amount?: number;
}

/** One autocannon run; this process only sends, the server runs in its own process. */
export async function cannon(o: CannonOptions): Promise<CannonResult> {
  const { body, path } = o;
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    ...(o.amount !== undefined ? { amount: o.amount } : { duration: o.durationSec }),
    method: o.method ?? 'GET',
    headers: { ...(body && { 'content-type': 'application/json' }), ...o.headers },
    ...((body || path) && { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...(body && { body: body() }), ...(path && { path: path() }) }) }] }),
  });
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
