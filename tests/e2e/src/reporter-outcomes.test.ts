import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';
import { endpoint, loadContract, names } from './spec.js';

// GET /v1/reporters/{platform}/{reporterId}/outcomes over HTTP: what a reporter learns of their
// reports (actioned or not, and when), never the penalty; paged by seq without gaps while
// decisions keep coming; the approval DM to chat-platform reporters and `dm: false`.
let sys: System;
let admin: Key;
let outcomesKey: Key;
let viewer: Key;
let nextUser = 8800;

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000' } });
  [admin, outcomesKey, viewer] = await Promise.all([
    sys.createKey(['--admin']),
    sys.createKey(['--permission', 'reports.read_outcomes']),
    sys.createKey(['--permission', 'reports.view_reports']),
  ]);
  await sys.addModerator('m1', 'alice');
});
afterAll(() => sys?.stop());

async function newUser(): Promise<string> {
  const id = String(nextUser++);
  await sys.addUser(id);
  return id;
}

/** Submits a report about a new player and waits until it is stored; returns its id and the player. */
async function reported(reporterId: string, platform = 'gameplatform', userId?: string): Promise<{ reportId: string; userId: string }> {
  const user = userId ?? (await newUser());
  const res = await sys.post('/v1/reports/new', admin.auth, report(user, reporterId, { reporter: { id: reporterId, platform } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${user}`, admin.auth)).body.reports?.some((r: any) => r.repid === res.body.id), 15_000, 'report stored');
  return { reportId: res.body.id as string, userId: user };
}

async function decide(action: 'approve' | 'dismiss' | 'undo', reportId: string, body: Record<string, unknown> = {}): Promise<void> {
  const res = await sys.post(`/v1/reports/${reportId}/${action}`, admin.auth, { moderator: { id: 'm1' }, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const path = (platform: string, reporterId: string, query = '') => `/v1/reporters/${platform}/${encodeURIComponent(reporterId)}/outcomes${query}`;
const outcomes = async (platform: string, reporterId: string, query = '', key = outcomesKey) => {
  const res = await sys.get(path(platform, reporterId, query), key.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { success: true; outcomes: { seq: number; reportId: string; actioned: boolean; reopened: boolean; decidedAt: number }[]; next: string };
};

/** Every outcome of the reporter, page by page, with the cursor each page returned. */
async function drain(platform: string, reporterId: string, after = '0', limit = 100) {
  const seen: { seq: number; reportId: string; actioned: boolean; reopened: boolean; decidedAt: number }[] = [];
  for (let pages = 0; pages < 1_000; pages++) {
    const page = await outcomes(platform, reporterId, `?after=${after}&limit=${limit}`);
    seen.push(...page.outcomes);
    if (page.outcomes.length === 0) return { seen, next: page.next };
    after = page.next;
  }
  throw new Error('the outcomes did not end');
}

describe('GET /v1/reporters/{platform}/{reporterId}/outcomes', () => {
  it('refuses a key without reports.read_outcomes (403), and a request without a key (401)', async () => {
    const refused = await sys.get(path('gameplatform', 'anyone'), viewer.auth);
    expect(refused.status).toBe(403);
    expect(isErrorShape(refused.body)).toBe(true);
    expect(refused.body.message).toContain('reports.read_outcomes');
    const anonymous = await sys.request('GET', path('gameplatform', 'anyone'));
    expect(anonymous.status).toBe(401);
    expect(isErrorShape(anonymous.body)).toBe(true);
    // Not the other way round: this key may read outcomes, nothing else.
    expect((await sys.get('/v1/reports/1', outcomesKey.auth)).status).toBe(403);
  });

  it('answers 400 naming the parameter for an unknown platform, a bad cursor or limit, an unknown parameter', async () => {
    for (const [url, field] of [
      [path('steam', 'x'), 'platform'],
      [path('gameplatform', ''), 'reporterId'],
      [path('gameplatform', 'x', '?after=-1'), 'after'],
      [path('gameplatform', 'x', '?after=abc'), 'after'],
      [path('gameplatform', 'x', '?limit=0'), 'limit'],
      [path('gameplatform', 'x', '?limit=101'), 'limit'],
      [path('gameplatform', 'x', '?page=2'), 'page'],
    ] as const) {
      const res = await sys.get(url, outcomesKey.auth);
      expect(res.status, url).toBe(400);
      expect(isErrorShape(res.body), url).toBe(true);
      expect(res.body.errors, url).toBeUndefined();
      expect(res.body.message, url).toContain(field);
    }
  });

  it('lists nothing before a decision: an empty page whose next is the cursor given', async () => {
    await reported('quiet-reporter');
    expect(await outcomes('gameplatform', 'quiet-reporter')).toEqual({ success: true, outcomes: [], next: '0' });
    expect(await outcomes('gameplatform', 'quiet-reporter', '?after=42')).toEqual({ success: true, outcomes: [], next: '42' });
  });

  it('an approval is actioned, a dismissal is not; only the report id, actioned, reopened and the time, never the sanction', async () => {
    const before = Date.now();
    const approved = await reported('teller');
    const dismissed = await reported('teller');
    await decide('approve', approved.reportId, { kind: 'chat', duration: 'P7D', reason: 'secret-sanction-reason' });
    await decide('dismiss', dismissed.reportId, { reason: 'secret-dismiss-reason' });
    const page = await outcomes('gameplatform', 'teller');
    expect(page.outcomes.map((o) => [o.reportId, o.actioned, o.reopened])).toEqual([
      [approved.reportId, true, false],
      [dismissed.reportId, false, false],
    ]);
    for (const o of page.outcomes) {
      expect(Object.keys(o).sort()).toEqual(['actioned', 'decidedAt', 'reopened', 'reportId', 'seq']);
      expect(o.decidedAt).toBeGreaterThanOrEqual(before);
      expect(o.decidedAt).toBeLessThanOrEqual(Date.now());
    }
    expect(page.next).toBe(String(page.outcomes[1]!.seq));
    // Nothing of the penalty or of the other player anywhere in the answer.
    const text = JSON.stringify(page);
    for (const leak of ['chat', 'P7D', 'secret-sanction-reason', 'secret-dismiss-reason', 'expires', 'kind', 'banned', 'sanction', 'userId']) {
      expect(text, leak).not.toContain(leak);
    }
  });

  it('an undo moves the report to the end, reopened and no longer actioned; the next decision moves it again', async () => {
    const first = await reported('undone-reporter');
    const second = await reported('undone-reporter');
    await decide('approve', first.reportId);
    await decide('dismiss', second.reportId);
    const seenBefore = await outcomes('gameplatform', 'undone-reporter');
    await decide('undo', first.reportId, {});
    // A reader that saw the approval learns of its undo from where it stopped.
    const onward = await outcomes('gameplatform', 'undone-reporter', `?after=${seenBefore.next}`);
    expect(onward.outcomes.map((o) => [o.reportId, o.actioned, o.reopened])).toEqual([[first.reportId, false, true]]);
    await decide('dismiss', first.reportId);
    const all = await outcomes('gameplatform', 'undone-reporter');
    expect(all.outcomes.map((o) => [o.reportId, o.actioned, o.reopened])).toEqual([
      [second.reportId, false, false],
      [first.reportId, false, false],
    ]);
  });

  it('pages without gaps while decisions arrive between pages: every report once, at its latest outcome', async () => {
    const reporter = 'pager';
    const reports: { reportId: string; userId: string }[] = [];
    for (let i = 0; i < 14; i++) reports.push(await reported(reporter));
    const expected = new Map<string, [boolean, boolean]>();
    const apply = async (i: number, action: 'approve' | 'dismiss' | 'undo') => {
      await decide(action, reports[i]!.reportId);
      expected.set(reports[i]!.reportId, action === 'approve' ? [true, false] : action === 'dismiss' ? [false, false] : [false, true]);
    };
    for (let i = 0; i < 5; i++) await apply(i, i % 2 === 0 ? 'approve' : 'dismiss');

    const latest = new Map<string, [boolean, boolean]>();
    let after = '0';
    let lastSeq = 0;
    let next = 5;
    const between: (() => Promise<void>)[] = [
      () => apply(next++, 'approve'),
      async () => {
        await apply(next++, 'dismiss');
        await apply(next++, 'approve');
      },
      () => apply(0, 'undo'),
      () => apply(next++, 'dismiss'),
      () => apply(0, 'dismiss'),
      async () => {
        for (; next < reports.length; next++) await apply(next, next % 2 === 0 ? 'approve' : 'dismiss');
      },
    ];
    for (let pages = 0; pages < 200; pages++) {
      const page = await outcomes('gameplatform', reporter, `?after=${after}&limit=2`);
      for (const o of page.outcomes) {
        expect(o.seq).toBeGreaterThan(lastSeq);
        lastSeq = o.seq;
        latest.set(o.reportId, [o.actioned, o.reopened]);
      }
      after = page.next;
      const step = between.shift();
      if (step) await step();
      else if (page.outcomes.length === 0) break;
    }
    expect(latest).toEqual(expected);
    expect(latest.size).toBe(reports.length);
    // Read from the start, each report is there once, at its latest outcome.
    const whole = await drain('gameplatform', reporter);
    expect(whole.seen.map((o) => o.reportId).sort()).toEqual(reports.map((r) => r.reportId).sort());
    expect(new Map(whole.seen.map((o) => [o.reportId, [o.actioned, o.reopened]]))).toEqual(expected);
    expect(whole.next).toBe(String(whole.seen.at(-1)!.seq));
  });

  it('reporter ids are arbitrary strings: escaped in the path, kept apart from their prefixes and across platforms', async () => {
    const odd = 'a/b?c=d&e#f %2F ü 🎮';
    const mine = await reported(odd);
    const prefix = await reported('a');
    const otherPlatform = await reported(odd, 'chatplatform');
    await decide('approve', mine.reportId);
    await decide('dismiss', prefix.reportId);
    await decide('dismiss', otherPlatform.reportId);
    expect((await outcomes('gameplatform', odd)).outcomes.map((o) => [o.reportId, o.actioned])).toEqual([[mine.reportId, true]]);
    expect((await outcomes('gameplatform', 'a')).outcomes.map((o) => o.reportId)).toEqual([prefix.reportId]);
    expect((await outcomes('gameplatform', 'a/b')).outcomes).toEqual([]);
    expect((await outcomes('chatplatform', odd)).outcomes.map((o) => [o.reportId, o.actioned])).toEqual([[otherPlatform.reportId, false]]);
  });
});

describe('the approval DM to chat-platform reporters', () => {
  const messages = async () => {
    const r = await sys.cli(['messages', 'list', '--limit', '1000', '--json']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { channel: string; content: string }[];
  };
  const dms = async (reporterId: string) => (await messages()).filter((m) => m.channel === `dm:${reporterId}`);

  it('tells them action was taken, nothing of the sanction; `dm: false` sends none', async () => {
    const told = await reported('chat-told', 'chatplatform');
    const silent = await reported('chat-silent', 'chatplatform');
    await decide('approve', told.reportId, { kind: 'ban', duration: 'P3D', reason: 'hidden-reason' });
    await sys.waitFor(async () => (await dms('chat-told')).length > 0, 15_000, 'the approval DM');
    const [dm] = await dms('chat-told');
    expect(dm!.content).toBe('Your report was reviewed and action was taken against the reported player. Thank you for reporting.');

    await decide('approve', silent.reportId, { dm: false });
    // The approval's notification job enqueues its DMs before it edits the case message; once the
    // message says approved, a DM would be queued. A later approval's DM, delivered, then comes
    // after it in the queue.
    await sys.waitFor(
      async () => (await messages()).some((m) => m.channel === 'reports' && m.content.includes(silent.userId) && m.content.includes('approved by alice')),
      15_000,
      'the silent approval notified',
    );
    const marker = await reported('chat-marker', 'chatplatform');
    await decide('approve', marker.reportId);
    await sys.waitFor(async () => (await dms('chat-marker')).length > 0, 15_000, 'the later approval DM');
    expect(await dms('chat-silent')).toEqual([]);
    expect(await dms('chat-told')).toHaveLength(1);
    expect((await outcomes('chatplatform', 'chat-silent')).outcomes.map((o) => o.actioned)).toEqual([true]);
  });

  it('refuses a dm that is not a boolean on approve, naming it', async () => {
    const { reportId } = await reported('dm-typo');
    const res = await sys.post(`/v1/reports/${reportId}/approve`, admin.auth, { moderator: { id: 'm1' }, dm: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e: any) => e.field)).toEqual(['dm']);
  });
});

describe('GET /openapi.json', () => {
  it('describes the outcomes endpoint with the fields of the contract’s extension', async () => {
    const doc = (await sys.request('GET', '/openapi.json')).body;
    const op = doc.paths['/v1/reporters/{platform}/{reporterId}/outcomes'].get;
    const contract = endpoint(loadContract(), 'GET', '/v1/reporters/{platform}/{reporterId}/outcomes');
    const ok = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok.properties).sort()).toEqual(names(contract.response.fields!));
    expect(Object.keys(ok.properties.outcomes.items.properties).sort()).toEqual(names(contract.response.fields!['outcomes']!.entry!));
    expect(op.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name).sort()).toEqual(['after', 'limit']);
    expect(op.parameters.find((p: any) => p.name === 'platform').schema.enum).toEqual(['gameplatform', 'chatplatform']);
    for (const status of ['400', '401', '403', '404', '429', '500']) expect(op.responses[status], status).toBeDefined();
  });
});
