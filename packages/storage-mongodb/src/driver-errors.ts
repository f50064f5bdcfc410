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
