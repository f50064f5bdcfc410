import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openMongoStore } from '../create-store.js';
import type { NewReport } from '../records.js';
import type { Store } from '../store.js';
import { describeStoreContract } from '../storage.contract.js';
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

  /** A store on a database of its own, dropped after the test. */
  const freshStore = async (): Promise<Store> => {
    const name = `rm_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    databases.push(name);
    return openMongoStore(server.url, name);
  };
  /** A second store on the database the last freshStore() opened: another process, in effect. */
  const sameDatabase = (): Promise<Store> => openMongoStore(server.url, databases.at(-1)!);

  afterEach(async () => {
    for (const name of databases.splice(0)) await admin.db(name).dropDatabase();
  });
  // Stopping a container can take longer than the default hook timeout.
  afterAll(async () => {
    await admin.close();
    await server.stop();
  }, 120_000);

  describeStoreContract('mongodb', freshStore);

  describe('MongoDB store: several clients on one database', () => {
    const report = (id: string, receivedAt: number): NewReport => ({
      id,
      userId: 'new-user',
      reporterId: `reporter-${id}`,
      reporterPlatform: 'discord',
      reportType: null,
      answers: [],
      evidence: [],
      receivedAt,
      user: { name: 'new-user', displayName: 'New User', avatar: null },
    });

    it('two clients saving reports about the same new user open exactly one case', async () => {
      const a = await freshStore();
      const b = await sameDatabase();
      try {
        const [[fromA], [fromB]] = await Promise.all([a.saveReports([report('ra', 1_000)]), b.saveReports([report('rb', 2_000)])]);

        expect(fromA!.created && fromB!.created).toBe(true);
        expect(fromA!.caseId).toBe(fromB!.caseId);
        expect([fromA!.openedCase, fromB!.openedCase].filter(Boolean)).toHaveLength(1);
        expect(await a.caseReportIds(fromA!.caseId)).toEqual(['ra', 'rb']);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('two clients saving the same report store it once, and one of them says it opened the case', async () => {
      const a = await freshStore();
      const b = await sameDatabase();
      try {
        const [[fromA], [fromB]] = await Promise.all([a.saveReports([report('r1', 1_000)]), b.saveReports([report('r1', 1_000)])]);

        expect([fromA!.created, fromB!.created].filter(Boolean)).toHaveLength(1);
        expect(fromA!.caseId).toBe(fromB!.caseId);
        expect([fromA!.openedCase, fromB!.openedCase].filter(Boolean)).toHaveLength(1);
        expect(await a.caseReportIds(fromA!.caseId)).toEqual(['r1']);
      } finally {
        await a.close();
        await b.close();
      }
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
}
