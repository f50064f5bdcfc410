import { MongoError } from 'mongodb';

/** The server refused a write because a unique index already holds the key. */
export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoError && err.code === 11000;
}

/** createCollection on a collection that exists (another process created it first). */
export function isNamespaceExists(err: unknown): boolean {
  return err instanceof MongoError && err.code === 48;
}

/** dropIndex of an index that does not exist (dropped already, or never created). */
export function isIndexNotFound(err: unknown): boolean {
  return err instanceof MongoError && (err.code === 27 || err.code === 26);
}

/** The server's OutOfDiskSpace (error_codes.yml), for the command or any write of a bulk write. */
const OUT_OF_DISK_SPACE = 14031;

/**
 * The server refused for want of disk: OutOfDiskSpace, which mongod answers where it checks the
 * space it has (index builds, spills, files it writes itself). A mongod whose data disk fills under
 * WiredTiger stops instead, which the store sees as an unreachable server (docs/reliability.md).
 */
export function isOutOfDiskSpace(err: unknown): boolean {
  if (!(err instanceof MongoError)) return false;
  const writeErrors = (err as { writeErrors?: { code?: unknown }[] }).writeErrors;
  return err.code === OUT_OF_DISK_SPACE || (Array.isArray(writeErrors) && writeErrors.some((w) => w.code === OUT_OF_DISK_SPACE));
}
