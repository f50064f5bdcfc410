import { MongoBulkWriteError, MongoNetworkError, MongoServerError } from 'mongodb';
import { expect, it } from 'vitest';
import { answeringStoreFull, StoreFullError } from '@rm/storage';
import { isOutOfDiskSpace } from './driver-errors.js';

// The driver's own error classes, built from the server replies they wrap; the same refusal from a
// real server (a failCommand fail point) is mongodb-only.contract.ts's, where a server runs.
const outOfDisk = () => new MongoServerError({ ok: 0, code: 14031, codeName: 'OutOfDiskSpace', errmsg: 'out of disk space' });

it("reads OutOfDiskSpace from a command's reply and from a bulk write's errors, and nothing else", () => {
  expect(isOutOfDiskSpace(outOfDisk())).toBe(true);
  const bulk = new MongoBulkWriteError({ message: 'bulk', code: 65, writeErrors: [{ index: 0, code: 14031, errmsg: 'out of disk space' }] } as never, {} as never);
  expect(isOutOfDiskSpace(bulk)).toBe(true);
  expect(isOutOfDiskSpace(new MongoServerError({ ok: 0, code: 11000, errmsg: 'E11000 duplicate key' }))).toBe(false);
  expect(isOutOfDiskSpace(new MongoNetworkError('connection closed'))).toBe(false);
  expect(isOutOfDiskSpace(Object.assign(new Error('x'), { code: 14031 }))).toBe(false);
});

it('a store answers it as the port\'s StoreFullError and passes every other error through', async () => {
  const store = answeringStoreFull(
    {
      async full(): Promise<void> {
        throw outOfDisk();
      },
      async duplicate(): Promise<void> {
        throw new MongoServerError({ ok: 0, code: 11000, errmsg: 'E11000 duplicate key' });
      },
    },
    isOutOfDiskSpace,
  );
  const err = await store.full().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StoreFullError);
  expect((err as Error).cause).toBeInstanceOf(MongoServerError);
  await expect(store.duplicate()).rejects.toMatchObject({ code: 11000 });
});
