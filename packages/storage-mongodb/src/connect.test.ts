import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { clientOptions, diagnose } from './connect.js';

describe('clientOptions', () => {
  it('reads the primary whatever readPreference MONGODB_URL asks (no connection is made)', () => {
    const client = new MongoClient('mongodb://db:27017/?replicaSet=rs0&readPreference=secondaryPreferred', clientOptions());
    expect(client.readPreference.mode).toBe('primary');
    expect(client.options.writeConcern?.w).toBe('majority');
  });
});

// What connectMongo says when no server can be selected, from what the servers answered; runs
// without a server (the refusals themselves are tested against real servers in mongodb-only.contract.ts).
describe('diagnose', () => {
  it('names an uninitiated replica-set member', () => {
    expect(diagnose([{ address: 'db:27017', hello: { isreplicaset: true } }], undefined)).toMatch(/not initiated: run rs.initiate\(\) once/);
  });

  it('names the replica set a server belongs to when MONGODB_URL names another', () => {
    expect(diagnose([{ address: 'db:27017', hello: { setName: 'rs0' } }], 'rs1')).toBe(
      'MONGODB_URL names replicaSet=rs1, but db:27017 belongs to replica set rs0: fix the replicaSet option',
    );
  });

  it('names a standalone server, members without a primary, and servers that did not answer', () => {
    expect(diagnose([{ address: 'db:27017', hello: {} }], 'rs0')).toMatch(/standalone mongod/);
    expect(diagnose([{ address: 'db:27017', hello: { setName: 'rs0' } }], 'rs0')).toMatch(/no primary/);
    expect(diagnose([{ address: 'db:27017', error: 'connect ECONNREFUSED' }], undefined)).toMatch(/no MongoDB server of MONGODB_URL answered within \d+ ms: db:27017 answered connect ECONNREFUSED/);
    expect(diagnose([], undefined)).toMatch(/no MongoDB server of MONGODB_URL answered/);
  });
});
