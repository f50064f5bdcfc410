import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openMongoStore } from './mongodb.adapter.js';
import type { NewReport } from '@rm/storage';
import type { Store } from '@rm/storage';
import { describeSharedStoreContract, describeStoreContract } from '@rm/storage/contract';
import { describeMongoProduction } from './mongodb-only.contract.js';
import { describeQueryPlans, QueryLog } from './query-plans.contract.js';
import { findTestServer, type TestServer } from './test-server.js';

const found = await findTestServer();

if ('skipped' in found) {
  process.stderr.write(`${found.skipped}\n`);
  describe.skip('Store contract: mongodb', () => {
    it('needs a MongoDB server', () => expect.unreachable());
  });
} else {
  describeMongoStore(found.server);
}

function describeMongoStore(server: TestServer): void {
  const admin = new MongoClient(server.url);
  const databases: string[] = [];
  // Every query the stores send, for the query-plan suite (last below).
  const log = new QueryLog();
  // The attempts of every transaction the stores run (a flood must not retry them).
  const attempts: number[] = [];
  const watch = { onCommand: log.record, onTransaction: (n: number) => attempts.push(n) };

  /** A store on a database of its own, dropped after the test; it runs the migrations (as on one machine). */
  const freshStore = async (): Promise<Store> => {
    const name = `rm_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    databases.push(name);
    return openMongoStore(server.url, name, { ...watch, migrations: 'run' });
  };
  /** A second store on the database the last freshStore() opened: another process, in effect. */
  const sameDatabase = (): Promise<Store> => openMongoStore(server.url, databases.at(-1)!, { ...watch, migrations: 'run' });

  afterEach(async () => {
    for (const name of databases.splice(0)) await admin.db(name).dropDatabase();
  });
  // Stopping a container can take longer than the default hook timeout.
  afterAll(async () => {
    await admin.close();
    await server.stop();
  }, 120_000);

  describeStoreContract('mongodb', freshStore);
  describeMongoProduction({ server, admin, freshStore, sameDatabase, lastDatabase: () => databases.at(-1)!, attempts });
  describeSharedStoreContract('mongodb', async () => [await freshStore(), await sameDatabase()]);

  describe('MongoDB store: several clients on one database', () => {
    const report = (id: string, receivedAt: number): NewReport => ({
      id,
      userId: 'new-user',
      reporterId: `reporter-${id}`,
      reporterPlatform: 'gameplatform',
      reportType: null,
      answers: [],
      evidence: [],
      receivedAt,
      user: { name: 'new-user', displayName: 'New User', avatar: null },
    });

    it('opening the store again on an existing database keeps its data and indexes', async () => {
      const a = await freshStore();
      const [saved] = await a.saveReports([report('r1', 1_000)]);
      await a.close();
      const b = await sameDatabase();
      try {
        expect(await b.getReport('r1')).toMatchObject({ id: 'r1', caseId: saved!.caseId });
        const [next] = await b.saveReports([report('r2', 2_000)]);
        expect(next).toMatchObject({ created: true, openedCase: false, caseId: saved!.caseId });
      } finally {
        await b.close();
      }
    });
  });

  // Last: it checks every query the tests above sent.
  describeQueryPlans({ admin, log, freshStore, sameDatabase, lastDatabase: () => databases.at(-1)! });
}
