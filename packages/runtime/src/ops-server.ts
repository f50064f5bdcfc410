import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

export interface OpsServerOptions {
  port: number;
  host: string;
  metrics: Metrics;
  /** Whether the process can do its work now (Redis and the store answer), and what to warn of. */
  ready: () => Promise<{ ok: boolean; warnings: string[] }>;
  logger: Logger;
}

/**
 * A worker's small HTTP port for operators: /health (the process lives), /ready (its
 * dependencies answer) and /metrics (Prometheus). Plain node:http: workers carry no web framework.
 */
export async function startOpsServer(o: OpsServerOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') return send(404, JSON.stringify({ success: false, message: 'Not found' }));
    if (path === '/health') return send(200, JSON.stringify({ status: 'ok', service: o.metrics.service }));
    if (path === '/ready') {
      o.ready().then(
        ({ ok, warnings }) => send(ok ? 200 : 500, JSON.stringify({ status: ok ? 'ready' : 'not ready', service: o.metrics.service, warnings })),
        () => send(500, JSON.stringify({ status: 'not ready', service: o.metrics.service })),
      );
      return;
    }
    if (path === '/metrics') {
      o.metrics.scrape().then(
        (text) => send(200, text, o.metrics.contentType),
        (err: Error) => {
          // As on the API: a reference id in the answer and in the log line, the cause only in the log.
          const ref = randomUUID();
          o.logger.error({ err, ref }, 'metrics scrape failed');
          send(500, JSON.stringify({ success: false, message: `Metrics are unavailable (reference ${ref})` }));
        },
      );
      return;
    }
    send(404, JSON.stringify({ success: false, message: 'Not found' }));
  });
  await new Promise<void>((resolve) => server.listen(o.port, o.host, resolve));
  o.logger.info({ port: o.port }, 'ops endpoints on /health, /ready, /metrics');
  return server;
}
