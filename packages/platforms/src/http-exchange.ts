import http from 'node:http';
import https from 'node:https';

/** One request and its whole answer, read as text. */
export interface HttpExchange {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole exchange, the answer's body included, ends within this long. */
  timeoutMs: number;
}

export interface HttpReply {
  status: number;
  header(name: string): string | null;
  text: string;
}

/** Thrown when the exchange did not end within its timeoutMs. */
export class HttpTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'HttpTimeoutError';
  }
}

// Connections to a platform are reused, as fetch would.
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * node:http rather than fetch: a directory lookup is on the submit and check paths, and fetch's
 * web streams and headers make each call about 3x slower and leave ~10 KB of garbage that
 * survives into V8's old generation (the gateway's RSS grew 60 MB over 3,000 unknown users).
 * Network failures reject with the socket's error (its `code`, e.g. ECONNREFUSED).
 */
export async function exchange(url: string, options: HttpExchange): Promise<HttpReply> {
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error(`unsupported protocol ${target.protocol}`);
  try {
    return await attempt(target, options);
  } catch (error) {
    // A kept-alive connection the server closed while idle fails at once, before the request was
    // read: that one is sent again on a fresh connection (what Node's docs advise).
    if (!(error instanceof StaleConnectionError)) throw error;
    return attempt(target, options);
  }
}

class StaleConnectionError extends Error {}

function attempt(target: URL, options: HttpExchange): Promise<HttpReply> {
  const protocol = target.protocol as keyof typeof agents;
  const client = protocol === 'https:' ? https : http;
  const headers = options.body === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) };
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null, reply?: HttpReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(reply!);
    };
    let answered = false;
    const request = client.request(target, { method: options.method, headers, agent: agents[protocol] }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => settle(error));
      response.on('close', () => {
        if (!response.complete) return settle(Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' }));
        const headersOf = response.headers;
        settle(null, {
          status: response.statusCode ?? 0,
          header: (name) => {
            const value = headersOf[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          },
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    const timer = setTimeout(() => {
      const error = new HttpTimeoutError(options.timeoutMs);
      settle(error);
      request.destroy(error);
    }, options.timeoutMs);
    request.on('error', (error: Error & { code?: string }) => {
      const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && !answered;
      settle(stale ? new StaleConnectionError(error.message) : error);
    });
    request.end(options.body);
  });
}
