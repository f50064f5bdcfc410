import { describe, expect, it } from 'vitest';
import { DEFAULT_MONGODB_DB, mongoDatabaseName } from './database-name.js';

describe('mongoDatabaseName', () => {
  it('takes the database from the connection string path', () => {
    expect(mongoDatabaseName('mongodb://db.internal:27017/moderation', 'other')).toBe('moderation');
    expect(mongoDatabaseName('mongodb+srv://user:p%40ss@cluster.example.net/prod?retryWrites=true', 'other')).toBe('prod');
    expect(mongoDatabaseName('mongodb://a:27017,b:27017,c:27017/rm?replicaSet=rs0')).toBe('rm');
  });

  it('falls back to MONGODB_DB, then to report_moderation, when the path names none', () => {
    expect(mongoDatabaseName('mongodb://db.internal:27017', 'fallback')).toBe('fallback');
    expect(mongoDatabaseName('mongodb://db.internal:27017/?replicaSet=rs0', 'fallback')).toBe('fallback');
    expect(mongoDatabaseName('mongodb://db.internal:27017/')).toBe(DEFAULT_MONGODB_DB);
    expect(DEFAULT_MONGODB_DB).toBe('report_moderation');
  });

  it('decodes a percent-encoded name', () => {
    expect(mongoDatabaseName('mongodb://h/my%2Ddb')).toBe('my-db');
  });
});
