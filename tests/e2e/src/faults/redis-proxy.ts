import { connect, createServer, type Server, type Socket } from 'node:net';

type Fault = { pattern: string; kind: 'cut'; refuseMs: number } | { pattern: string; kind: 'delay'; ms: number };

/**
 * A TCP proxy on 127.0.0.1 in front of Redis that loses or holds back the answer to one command:
 * the command reaches Redis and runs, its client never hears back (cut), or hears back too late
 * (delay, past the client's command timeout). The fault is armed for the next chunk a client
 * sends that contains `pattern`, and applies to that connection's answers from then on.
 */
export class RedisProxy {
  private armed: (Fault & { done: () => void }) | undefined;
  private refuseUntil = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<RedisProxy> {
    const to = new URL(target);
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const proxy = new RedisProxy(server, `redis://127.0.0.1:${port}`);
    server.on('connection', (client: Socket) => proxy.pipe(client, to));
    return proxy;
  }

  /** Cuts the connection instead of answering the next command containing `pattern`; then refuses connections for `refuseMs`. */
  cutAnswerTo(pattern: string, refuseMs = 0): Promise<void> {
    return new Promise((done) => (this.armed = { pattern, kind: 'cut', refuseMs, done }));
  }

  /** Holds back that connection's answers for `ms` from the next command containing `pattern`. */
  delayAnswerTo(pattern: string, ms: number): Promise<void> {
    return new Promise((done) => (this.armed = { pattern, kind: 'delay', ms, done }));
  }

  private pipe(client: Socket, to: URL): void {
    if (Date.now() < this.refuseUntil) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(to.port || 6379), to.hostname);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
    }
    let fault: (Fault & { done: () => void; at: number }) | undefined;
    const held: Buffer[] = [];
    client.on('data', (chunk: Buffer) => {
      const armed = this.armed;
      if (armed && chunk.includes(armed.pattern)) {
        this.armed = undefined;
        fault = { ...armed, at: Date.now() };
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!fault) return void client.write(chunk);
      if (fault.kind === 'cut') {
        this.refuseUntil = Date.now() + fault.refuseMs;
        client.destroy();
        upstream.destroy();
        fault.done();
        return;
      }
      held.push(chunk);
      if (held.length > 1) return;
      const release = fault;
      setTimeout(() => {
        fault = undefined;
        for (const c of held.splice(0)) client.write(c);
        release.done();
      }, Math.max(0, release.at + release.ms - Date.now()));
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}
