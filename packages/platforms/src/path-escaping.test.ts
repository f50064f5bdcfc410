import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpDirectory } from './directory-http.adapter.js';
import { UnaddressableIdError, urlOf } from './http.js';

// Ids reach the platforms' URLs as path segments: a real HTTP server records the raw paths asked.
let server: Server;
let base = '';
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if ((req.url ?? '').length > 10_000) return void res.writeHead(414).end();
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such user"}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/directory`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

describe('ids in platform URLs', () => {
  it('each id is one escaped path segment under /users/, whatever it holds', async () => {
    const directory = httpDirectory({ baseUrl: base, timeoutMs: 2_000 });
    const ids = ['a/../../admin', '?x=1#f', '%2e%2e', '..%2F', 'x y', '../..', '.hidden'];
    for (const id of ids) expect(await directory.getUser(id)).toBeNull();
    expect(asked).toEqual(ids.map((id) => `/directory/users/${encodeURIComponent(id)}`));
    expect(asked.every((path) => path.startsWith('/directory/users/') && path.split('/').length === 4)).toBe(true);
  });

  it('`.`, `..` and an empty id address no other path: the directory is not asked at all', async () => {
    asked.length = 0;
    const directory = httpDirectory({ baseUrl: base, timeoutMs: 2_000 });
    for (const id of ['..', '.', '']) expect(await directory.getUser(id)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('an id too long for the URLs of the directory (414) is an unknown user, not a directory failure', async () => {
    const directory = httpDirectory({ baseUrl: base, timeoutMs: 2_000 });
    expect(await directory.getUser('9'.repeat(20_000))).toBeNull();
  });

  it('urlOf refuses the segments no escaping can carry', () => {
    for (const id of ['..', '.', '']) expect(() => urlOf('https://chat.example/api', 'channels', id, 'messages')).toThrow(UnaddressableIdError);
    expect(urlOf('https://chat.example/api', 'channels', '...', 'messages')).toBe('https://chat.example/api/channels/.../messages');
  });
});
