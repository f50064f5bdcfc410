import { Agent, request } from 'node:http';
import { Samples } from './stats.js';

export interface Operation {
  name: string;
  /** Share of requests, in percent. */
  weight: number;
  build(): { method: string; path: string; body?: string };
}

export interface DriveOptions {
  baseUrl: URL;
  auth: string;
  connections: number;
  /** Stop after this many seconds... */
  durationSec: number;
  /** ...or this many requests, whichever comes first. */
  maxRequests: number;
  onProgress?: (done: number, elapsedSec: number) => void;
}

export interface DriveResult {
  seconds: number;
  operations: Record<string, Samples>;
  errors: Record<string, number>;
}

function pick(ops: Operation[]): Operation {
  let r = Math.random() * 100;
  for (const op of ops) {
    r -= op.weight;
    if (r < 0) return op;
  }
  return ops[ops.length - 1]!;
}

/**
 * Sends requests over `connections` keep-alive sockets, each connection one request at a time,
 * bounded in time and in count. Records latency and status per operation.
 */
export async function drive(ops: Operation[], o: DriveOptions): Promise<DriveResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
  const operations = Object.fromEntries(ops.map((op) => [op.name, new Samples()]));
  const errors: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  const deadline = Date.now() + o.durationSec * 1000;
  let issued = 0;
  let done = 0;
  const ticker = setInterval(() => o.onProgress?.(done, elapsed()), 250);

  const one = (op: Operation) =>
    new Promise<void>((resolve) => {
      const { method, path, body } = op.build();
      const t0 = process.hrtime.bigint();
      const req = request(
        { agent, host: o.baseUrl.hostname, port: o.baseUrl.port, method, path, headers: { authorization: o.auth, ...(body && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            operations[op.name]!.add(Number(process.hrtime.bigint() - t0) / 1e6, res.statusCode ?? 0);
            resolve();
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', (err) => {
        const code = (err as NodeJS.ErrnoException).code ?? err.message;
        errors[code] = (errors[code] ?? 0) + 1;
        resolve();
      });
      if (body) req.end(body);
      else req.end();
    });

  const connection = async () => {
    while (Date.now() < deadline && issued < o.maxRequests) {
      issued++;
      await one(pick(ops));
      done++;
    }
  };
  await Promise.all(Array.from({ length: o.connections }, connection));
  clearInterval(ticker);
  agent.destroy();
  return { seconds: elapsed(), operations, errors };
}
