import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, and what it answered. */
export interface Received {
  method: string;
  /** Decoded path segments, e.g. ['chat', 'channels', 'reports', 'messages']. */
  path: string[];
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
  status: number;
  /** The body answered. */
  answer: any;
}

/** A failure to inject: the next `times` requests that `match` get it instead of the normal answer. */
export interface Fault {
  match: (req: Received) => boolean;
  times: number;
  /** Answer this status (default 500), after `delayMs` if given. */
  status?: number;
  headers?: Record<string, string>;
  /** Wait this long first; without `status`, then answer normally. */
  delayMs?: number;
}

export interface FakeUser {
  id: number;
  name: string;
  displayName: string;
  avatar: string | null;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for the outside platforms:
 * - the chat platform under `/chat` (the common bot REST shape: post, edit, open a DM channel),
 * - the game platform user directory under `/directory` (`GET /users/{id}`),
 * - a decision webhook receiver at `/hooks/decisions`.
 * It records every request and answers injected faults (status, `retry-after`, delays).
 */
export class FakePlatform {
  readonly received: Received[] = [];
  readonly users = new Map<string, FakeUser>();
  /** Chat messages by id, as currently shown (after edits). */
  readonly messages = new Map<string, { channel: string; content: string }>();
  private faults: Fault[] = [];
  private nextId = 1;

  // Long ids travel in the path (a 20 KB user id): a larger header limit than Node's 16 KiB.
  private readonly server: Server = createServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => void this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, raw, res));
  });
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url = '';

  static async start(): Promise<FakePlatform> {
    const fake = new FakePlatform();
    await new Promise<void>((ok) => fake.server.listen(0, '127.0.0.1', ok));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  /** Injects a fault; returns a function that removes it. */
  fail(fault: Fault): () => void {
    this.faults.push(fault);
    return () => {
      this.faults = this.faults.filter((f) => f !== fault);
    };
  }

  addUser(user: FakeUser): void {
    this.users.set(String(user.id), user);
  }

  /** Requests with this method whose path starts with these segments. */
  requests(method: string, ...prefix: string[]): Received[] {
    return this.received.filter((r) => r.method === method && prefix.every((p, i) => r.path[i] === p));
  }

  /**
   * The platforms become unreachable: the server stops listening and drops every connection, so
   * a call is refused at connect (a dead port), as when the platform is down. Its records stay.
   */
  async down(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  /** Back on the same port (the processes' URLs name it), with everything it recorded. */
  async up(): Promise<void> {
    const port = Number(new URL(this.url).port);
    await new Promise<void>((ok, fail) => {
      this.server.once('error', fail);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', fail);
        ok();
      });
    });
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }

  private async handle(method: string, url: string, headers: IncomingHttpHeaders, raw: string, res: ServerResponse): Promise<void> {
    res.on('error', () => undefined); // the client may have given up (timeout tests)
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {}
    const path = new URL(url, 'http://fake').pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const req: Received = { method, path, headers, raw, body, at: Date.now(), status: 0, answer: null };
    this.received.push(req);
    const fault = this.faults.find((f) => f.times > 0 && f.match(req));
    if (fault) {
      fault.times -= 1;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.status !== undefined || !fault.delayMs) return this.send(res, req, fault.status ?? 500, { message: 'injected failure' }, fault.headers);
    }
    const [area, ...rest] = path;
    if (area === 'chat') return this.chat(method, rest, req, res);
    if (area === 'directory' && method === 'GET' && rest[0] === 'users' && rest.length === 2) {
      const user = this.users.get(rest[1]!);
      return user ? this.send(res, req, 200, user) : this.send(res, req, 404, { message: 'no such user' });
    }
    if (area === 'hooks' && method === 'POST') return this.send(res, req, 204, null);
    return this.send(res, req, 404, { message: 'no route' });
  }

  private chat(method: string, path: string[], req: Received, res: ServerResponse): void {
    const [root, channel, messages, messageId] = path;
    if (method === 'POST' && root === 'users' && channel === '@me' && messages === 'channels') {
      return this.send(res, req, 200, { id: `dm-${req.body?.recipient_id}`, type: 1 });
    }
    if (root !== 'channels' || messages !== 'messages' || !channel) return this.send(res, req, 404, { message: 'no route' });
    if (method === 'POST' && messageId === undefined) {
      const id = `msg-${this.nextId++}`;
      this.messages.set(id, { channel, content: req.body?.content });
      return this.send(res, req, 200, { id, channel_id: channel, content: req.body?.content });
    }
    if (method === 'PATCH' && messageId !== undefined) {
      const message = this.messages.get(messageId);
      if (!message || message.channel !== channel) return this.send(res, req, 404, { message: 'Unknown Message' });
      message.content = req.body?.content;
      return this.send(res, req, 200, { id: messageId, channel_id: channel, content: message.content });
    }
    return this.send(res, req, 404, { message: 'no route' });
  }

  private send(res: ServerResponse, req: Received, status: number, body: unknown, headers: Record<string, string> = {}): void {
    req.status = status;
    req.answer = body;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === null ? undefined : JSON.stringify(body));
  }
}
