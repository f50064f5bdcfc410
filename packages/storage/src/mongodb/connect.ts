import { MongoClient } from 'mongodb';

/**
 * Connects and checks that the deployment runs transactions: a replica set (one member is enough)
 * or a sharded cluster. A standalone mongod is refused at start rather than failing on the first
 * decision. The URL is never part of an error message: it may hold a password.
 */
export async function connectMongo(url: string): Promise<MongoClient> {
  const client = new MongoClient(url, {
    appName: 'report-moderation',
    // A write is acknowledged once a majority holds it, so a failover cannot roll back an answer.
    writeConcern: { w: 'majority' },
    // Optional fields left undefined are not stored (the driver would write null), as with JSON.
    ignoreUndefined: true,
  });
  try {
    await client.connect();
    const hello = await client.db('admin').command({ hello: 1 });
    const replicaSet = typeof hello['setName'] === 'string';
    const mongos = hello['msg'] === 'isdbgrid';
    if (!replicaSet && !mongos) {
      throw new Error(
        'MONGODB_URL points at a standalone mongod; the MongoDB store needs a replica set or a sharded cluster ' +
          '(a one-member replica set will do: start mongod with --replSet rs0 and run rs.initiate() once)',
      );
    }
    return client;
  } catch (err) {
    await client.close();
    throw err;
  }
}
