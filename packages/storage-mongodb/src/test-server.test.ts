import { describe, expect, it, vi } from 'vitest';
import { findTestServer, mongoRequired, skipUnlessRequired, type ServerSources, type TestServer } from './test-server.js';

// The contract suite's discovery decision (MONGODB_URL, else Docker, else a local mongod, else
// skipped, or failed under REQUIRE_MONGODB), with the sources faked: nothing is started here.
const server = (url: string): TestServer => ({ url, stop: () => Promise.resolve() });

function sources(found: { docker?: boolean; mongod?: boolean } = {}): ServerSources & { started: string[] } {
  const started: string[] = [];
  return {
    started,
    dockerAnswers: () => Promise.resolve(found.docker ?? false),
    startContainer: () => (started.push('container'), Promise.resolve(server('mongodb://container/'))),
    localMongod: () => (found.mongod ? { path: '/opt/mongod', version: '7.0.14' } : null),
    startMemoryReplicaSet: () => (started.push('memory'), Promise.resolve(server('mongodb://memory/'))),
  };
}

describe('findTestServer', () => {
  it('takes MONGODB_URL first and starts nothing', async () => {
    const s = sources({ docker: true, mongod: true });
    const found = await findTestServer({ MONGODB_URL: 'mongodb://given/', REQUIRE_MONGODB: '1' }, s);
    expect(found).toMatchObject({ server: { url: 'mongodb://given/' } });
    expect(s.started).toEqual([]);
  });

  it('starts a mongo:7 container when a Docker engine answers, before any local mongod', async () => {
    const s = sources({ docker: true, mongod: true });
    expect(await findTestServer({}, s)).toMatchObject({ server: { url: 'mongodb://container/' } });
    expect(s.started).toEqual(['container']);
  });

  it('falls back to a local mongod without Docker', async () => {
    const s = sources({ mongod: true });
    expect(await findTestServer({}, s)).toMatchObject({ server: { url: 'mongodb://memory/' } });
    expect(s.started).toEqual(['memory']);
  });

  it('with nothing found, skips with one line saying why', async () => {
    for (const env of [{}, { REQUIRE_MONGODB: '' }, { REQUIRE_MONGODB: '0' }, { REQUIRE_MONGODB: 'false' }]) {
      const found = await findTestServer(env, sources());
      expect(found, JSON.stringify(env)).toEqual({ skipped: 'mongodb contract suite skipped: no MONGODB_URL, no Docker engine, no cached mongod binary' });
    }
  });

  it('with nothing found and REQUIRE_MONGODB set, fails instead of skipping', async () => {
    for (const value of ['1', 'true', 'yes']) {
      await expect(findTestServer({ REQUIRE_MONGODB: value }, sources()), value).rejects.toThrow(/REQUIRE_MONGODB is set but no MongoDB server was found/);
    }
  });

  it('under REQUIRE_MONGODB, a container that fails to start fails the suite', async () => {
    const s = { ...sources({ docker: true }), startContainer: () => Promise.reject(new Error('pull denied')) };
    await expect(findTestServer({ REQUIRE_MONGODB: '1' }, s)).rejects.toThrow('pull denied');
  });
});

describe('REQUIRE_MONGODB', () => {
  it('is on for any value but empty, 0 or false', () => {
    expect([undefined, '', ' ', '0', 'false', 'FALSE'].map((v) => mongoRequired({ REQUIRE_MONGODB: v }))).toEqual([false, false, false, false, false, false]);
    expect(['1', 'true', 'yes'].map((v) => mongoRequired({ REQUIRE_MONGODB: v }))).toEqual([true, true, true]);
  });

  it("turns a test's skip into its failure", () => {
    const skip = vi.fn((note: string): never => {
      throw new Error(`skipped: ${note}`);
    });
    expect(() => skipUnlessRequired(skip, 'no Docker engine', {})).toThrow('skipped: no Docker engine');
    expect(() => skipUnlessRequired(skip, 'no Docker engine', { REQUIRE_MONGODB: '1' })).toThrow('REQUIRE_MONGODB is set, so this test may not be skipped: no Docker engine');
    expect(skip).toHaveBeenCalledTimes(1);
  });
});
