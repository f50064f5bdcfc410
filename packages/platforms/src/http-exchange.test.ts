import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exchange, HttpTimeoutError } from './http-exchange.js';

// A real server on 127.0.0.1 per test; `handle` decides what each request meets.
let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handle: http.RequestListener): Promise<string> {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const GET = { method: 'GET', headers: {}, timeoutMs: 2_000 };

describe('exchange', () => {
  it('sends the body with its length and reads status, headers and text', async () => {
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(201, { 'retry-after': '3' }).end(`${req.method} ${req.headers['content-length']} ${body}`));
    });
    const reply = await exchange(`${url}/x`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'héllo', timeoutMs: 2_000 });
    expect(reply.status).toBe(201);
    expect(reply.header('Retry-After')).toBe('3');
    expect(reply.header('x-missing')).toBeNull();
    expect(reply.text).toBe('POST 6 héllo');
  });

  it('times out when the body never ends, not only when the headers are late', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    await expect(exchange(url, { ...GET, timeoutMs: 300 })).rejects.toBeInstanceOf(HttpTimeoutError);
  });

  it('fails when the connection closes mid-answer', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('short', () => res.socket?.destroy());
    });
    await expect(exchange(url, GET)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('names a refused connection by its code', async () => {
    const url = await serve((_req, res) => res.end());
    const closed = url;
    server!.close();
    server = undefined;
    await expect(exchange(closed, GET)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('sends again, once, on a fresh connection when a kept-alive one is reset before any answer', async () => {
    let requests = 0;
    const url = await serve((req, res) => {
      requests++;
      // The second request meets what a server that closed its idle connection looks like.
      if (requests === 2) req.socket.destroy();
      else res.end(String(requests));
    });
    expect((await exchange(url, GET)).text).toBe('1');
    expect((await exchange(url, GET)).text).toBe('3');
  });

  it('does not send again when a fresh connection is reset', async () => {
    const url = await serve((req) => req.socket.destroy());
    await expect(exchange(url, GET)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});
