import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsResolver } from './dns-resolver.js';

// A DNS server on loopback, the only server the resolvers here are given: `a-and-aaaa.test` has
// an A and an AAAA record, `v4-only.test` an A record, `silent.test` is never answered, anything
// else is NXDOMAIN. No query leaves the machine.
let server: dgram.Socket;
let servers: string[];
const asked: string[] = [];

const TYPE_A = 1;
const TYPE_AAAA = 28;
const RECORDS: Record<string, Partial<Record<number, Buffer>>> = {
  'a-and-aaaa.test': { [TYPE_A]: Buffer.from([93, 184, 216, 34]), [TYPE_AAAA]: Buffer.from('26064700470000000000000000001111', 'hex') },
  'v4-only.test': { [TYPE_A]: Buffer.from([93, 184, 216, 35]) },
};

function answer(query: Buffer): Buffer | null {
  const labels: string[] = [];
  let at = 12;
  while (query[at]! > 0) {
    labels.push(query.toString('latin1', at + 1, at + 1 + query[at]!));
    at += 1 + query[at]!;
  }
  const name = labels.join('.').toLowerCase();
  const type = query.readUInt16BE(at + 1);
  const question = query.subarray(12, at + 5);
  asked.push(`${name}/${type}`);
  if (name === 'silent.test') return null;
  const data = RECORDS[name]?.[type];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // A response, recursion available, NXDOMAIN (3) for a name we do not know.
  header.writeUInt16BE(RECORDS[name] ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(data ? 1 : 0, 6);
  if (!data) return Buffer.concat([header, question]);
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  record.writeUInt16BE(type, 2);
  record.writeUInt16BE(1, 4); // class IN
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(data.length, 10);
  return Buffer.concat([header, question, record, data]);
}

beforeAll(async () => {
  server = dgram.createSocket('udp4');
  server.on('message', (query, from) => {
    const reply = answer(query);
    if (reply) server.send(reply, from.port, from.address);
  });
  await new Promise<void>((done) => server.bind(0, '127.0.0.1', done));
  servers = [`127.0.0.1:${server.address().port}`];
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const never = new AbortController().signal;

describe('dnsResolver', () => {
  it('answers every A and AAAA address of a name', async () => {
    const resolve = dnsResolver({ servers });
    expect(await resolve('a-and-aaaa.test', never)).toEqual(['93.184.216.34', '2606:4700:4700::1111']);
    expect(await resolve('v4-only.test', never)).toEqual(['93.184.216.35']);
  });

  it('fails a name that does not exist', async () => {
    await expect(dnsResolver({ servers })('nowhere.test', never)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('gives up a server that never answers after its own timeout', async () => {
    const started = Date.now();
    await expect(dnsResolver({ servers, timeoutMs: 100, tries: 1 })('silent.test', never)).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('stops waiting when the capture is aborted', async () => {
    const capture = new AbortController();
    setTimeout(() => capture.abort(), 100);
    const started = Date.now();
    await expect(dnsResolver({ servers, timeoutMs: 5_000, tries: 1 })('silent.test', capture.signal)).rejects.toMatchObject({ code: 'ECANCELLED' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('answers localhost names with loopback without asking DNS', async () => {
    asked.length = 0;
    const resolve = dnsResolver({ servers });
    expect(await resolve('localhost', never)).toEqual(['127.0.0.1', '::1']);
    expect(await resolve('admin.LOCALHOST', never)).toEqual(['127.0.0.1', '::1']);
    expect(asked).toEqual([]);
  });
});
