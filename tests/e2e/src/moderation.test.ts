import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

let sys: System;
let submitter: Key;
let handler: Key;
let viewer: Key;
let nextUser = 500;
let nextReporter = 0;

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000' } });
  [submitter, handler, viewer] = await Promise.all([
    sys.createKey(['--permission', 'reports.submit_report']),
    sys.createKey(['--permission', 'reports.handle_reports']),
    sys.createKey(['--permission', 'reports.view_reports']),
  ]);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('m2', 'bob');
});
afterAll(() => sys?.stop());

/** A new user with `n` stored reports in one open case; returns the user id and report ids. */
async function openCase(n = 1, platform = 'gameplatform'): Promise<{ userId: string; ids: string[] }> {
  const userId = String(nextUser++);
  await sys.addUser(userId, `user${userId}`, `User ${userId}`);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const reporterId = `rep-${nextReporter++}`;
    const res = await sys.post('/v1/reports/new', submitter.auth, report(userId, reporterId, { reporter: { id: reporterId, platform } }));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, viewer.auth)).body.count === n, 15_000, 'reports stored');
  return { userId, ids };
}

/** What the embedded chat recorder holds (`messages list`). */
const messages = async () => JSON.parse((await sys.cli(['messages', 'list', '--limit', '1000', '--json'])).stdout) as { id: string; channel: string; kind: string; content: string; editedAt: number | null }[];

const act = (action: string, reportId: string, body: Record<string, unknown>) => sys.post(`/v1/reports/${reportId}/${action}`, handler.auth, body);
const as = (id: string) => ({ moderator: { id } });

describe('claim and unclaim', () => {
  it('POST /v1/reports/{id}/claim claims an open case', async () => {
    const { ids } = await openCase();
    const res = await act('claim', ids[0]!, as('m1'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { message: expect.any(String), reportId: ids[0], moderator: { id: 'm1', username: 'alice' } } });
  });

  it('POST /v1/reports/{id}/claim refuses a case claimed by someone else with 403 naming the claimer', async () => {
    const { ids } = await openCase();
    expect((await act('claim', ids[0]!, as('m1'))).status).toBe(200);
    const res = await act('claim', ids[0]!, as('m2'));
    expect(res.status).toBe(403);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.message).toMatch(/alice/);
    const again = await act('claim', ids[0]!, as('m1'));
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already claimed by you/);
  });

  it('only the claimer decides or unclaims; bypassClaimCheck releases anyone', async () => {
    const { ids } = await openCase();
    await act('claim', ids[0]!, as('m1'));
    for (const action of ['approve', 'dismiss', 'unclaim']) {
      const res = await act(action, ids[0]!, as('m2'));
      expect(res.status, action).toBe(403);
      expect(res.body.message).toMatch(/alice/);
    }
    const bypass = await act('unclaim', ids[0]!, { moderator: { id: 'm2' }, bypassClaimCheck: true });
    expect(bypass.status).toBe(200);
    expect(bypass.body.data.moderator).toEqual({ id: 'm2', username: 'bob' });
    const open = await act('unclaim', ids[0]!, as('m1'));
    expect(open.status).toBe(400);
    expect(open.body.message).toMatch(/not claimed/);
  });
});

describe('approve, dismiss, undo', () => {
  it('POST /v1/reports/{id}/approve bans the user for list, check and submit at once; undo lifts it', async () => {
    const { userId, ids } = await openCase(3);
    const res = await act('approve', ids[1]!, as('m1'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { message: expect.any(String), reportId: ids[1], moderator: { id: 'm1', username: 'alice' }, reports: ids, reportedUser: userId, hideUsername: false },
    });
    const list = await sys.get(`/v1/reports/${userId}`, viewer.auth);
    expect(list.body.reports.every((r: { banned: boolean }) => r.banned)).toBe(true);
    const check = await sys.post('/v1/reports/check', submitter.auth, { userId, reporterId: 'someone-new' });
    expect(check.body.canReport).toBe(false);
    expect(check.body.reason).toMatch(/banned/);
    const submit = await sys.post('/v1/reports/new', submitter.auth, report(userId, 'someone-new'));
    expect(submit.status).toBe(400);
    expect(submit.body.message).toMatch(/banned/);

    for (const action of ['approve', 'dismiss', 'claim']) {
      const refused = await act(action, ids[0]!, as('m1'));
      expect(refused.status, action).toBe(400);
      expect(refused.body.message).toMatch(/approved/);
    }

    // The case's message as the notification worker last synced it, before the undo re-posts the case.
    const caseMessage = async () => (await messages()).find((m) => m.kind === 'case.opened' && m.content.includes(`(${userId})`));
    await sys.waitFor(async () => (await caseMessage())?.content.includes('approved by alice') ?? false, 15_000, 'the approval on the case message');
    const before = (await caseMessage())!;
    const undo = await act('undo', ids[2]!, as('m2'));
    expect(undo.status).toBe(200);
    expect(undo.body).toEqual({
      success: true,
      data: { message: expect.any(String), newMessageId: expect.any(String), reports: ids, moderator: { id: 'm2', username: 'bob' }, hideUsername: false },
    });
    expect((await messages()).find((m) => m.id === undo.body.data.newMessageId)?.kind).toBe('case.reopened');
    // The old message says it was superseded, and by which.
    const superseded = `This decision was undone and the case re-posted (message ${undo.body.data.newMessageId}).`;
    await sys.waitFor(async () => (await messages()).find((m) => m.id === before.id)?.content === superseded, 15_000, 'the old message marked superseded');
    expect((await sys.get(`/v1/reports/${userId}`, viewer.auth)).body.reports[0].banned).toBe(false);
    expect((await sys.post('/v1/reports/check', submitter.auth, { userId, reporterId: 'someone-new' })).body.canReport).toBe(true);

    const undoAgain = await act('undo', ids[0]!, as('m2'));
    expect(undoAgain.status).toBe(400);
    expect(undoAgain.body.message).toMatch(/open/);
    // The reopened case can be decided again.
    expect((await act('dismiss', ids[0]!, as('m1'))).status).toBe(200);
  });

  it('POST /v1/reports/{id}/dismiss answers with the channel and DMs the reporters when dm is true', async () => {
    const { userId, ids } = await openCase(2, 'chatplatform');
    const res = await act('dismiss', ids[0]!, { moderator: { id: 'm1' }, dm: true, reason: 'No evidence of cheating' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      message: expect.any(String),
      reportId: ids[0],
      moderator: { id: 'm1', username: 'alice' },
      reports: ids,
      reportedUser: userId,
      reportChannel: 'reports',
      hideUsername: false,
    });
    // The DMs are notifications: sent by the notification worker shortly after the answer.
    const dms = async () => (await messages()).filter((m) => m.channel.startsWith('dm:') && m.content.includes('No evidence of cheating'));
    await sys.waitFor(async () => (await dms()).length >= 2, 15_000, 'the DMs');
    expect(await dms()).toHaveLength(2);
    // A dismissed case frees the reporters to report the user again.
    const again = await sys.post('/v1/reports/new', submitter.auth, report(userId, `rep-${nextReporter - 1}`, { reporter: { id: `rep-${nextReporter - 1}`, platform: 'chatplatform' } }));
    expect(again.status).toBe(200);
    expect(again.body.appended).toBeUndefined();
  });

  it('POST /v1/reports/{id}/undo refuses to reopen a case while a newer case about the user is open', async () => {
    const { userId, ids } = await openCase();
    expect((await act('dismiss', ids[0]!, as('m1'))).status).toBe(200);
    const newer = await sys.post('/v1/reports/new', submitter.auth, report(userId, 'rep-newer'));
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, viewer.auth)).body.count === 2);
    const undo = await act('undo', ids[0]!, as('m1'));
    expect(undo.status).toBe(400);
    expect(undo.body.message).toMatch(/newer case/);
    expect((await act('claim', newer.body.id, as('m2'))).status).toBe(200);
  });

  it('the audit log lists every decision in order (CLI case history)', async () => {
    const { ids } = await openCase();
    for (const [action, who] of [['claim', 'm1'], ['unclaim', 'm1'], ['approve', 'm2'], ['undo', 'm1']] as const) {
      expect((await act(action, ids[0]!, as(who))).status).toBe(200);
    }
    const history = await sys.cli(['case', 'history', ids[0]!]);
    expect(history.code).toBe(0);
    const rows = history.stdout.trim().split('\n').slice(2).map((l) => l.split(/\s+/).slice(1));
    expect(rows).toEqual([
      ['claim', 'm1', 'open', 'claimed'],
      ['unclaim', 'm1', 'claimed', 'open'],
      ['approve', 'm2', 'open', 'approved'],
      ['undo', 'm1', 'approved', 'open'],
    ]);
  });
});

describe('chat messages (embedded recorder)', () => {
  it('a new case is posted to the report channel and each decision edits that message', async () => {
    const { userId, ids } = await openCase();
    const caseMessage = async () => (await messages()).find((m) => m.kind === 'case.opened' && m.content.includes(`(${userId})`));
    await sys.waitFor(async () => (await caseMessage()) !== undefined, 15_000, 'the case message');
    expect(await caseMessage()).toMatchObject({ channel: 'reports', editedAt: null });
    expect((await act('claim', ids[0]!, as('m1'))).status).toBe(200);
    await sys.waitFor(async () => (await caseMessage())?.content.includes('claimed by alice') === true, 15_000, 'the edit');
    expect((await caseMessage())?.editedAt).toEqual(expect.any(Number));
  });
});

describe('refusals', () => {
  it('404 for an unknown report or an unregistered moderator', async () => {
    const { ids } = await openCase();
    const noReport = await act('claim', '01900000-0000-7000-8000-000000000000', as('m1'));
    expect(noReport.status).toBe(404);
    expect(isErrorShape(noReport.body)).toBe(true);
    const noModerator = await act('claim', ids[0]!, as('ghost'));
    expect(noModerator.status).toBe(404);
    expect(noModerator.body.message).toMatch(/ghost/);
  });

  it.each([
    ['claim', {}, 'moderator'],
    ['claim', { moderator: {} }, 'moderator.id'],
    ['unclaim', { moderator: { id: 'm1' }, bypassClaimCheck: 'yes' }, 'bypassClaimCheck'],
    ['approve', { moderator: { id: 7 } }, 'moderator.id'],
    ['dismiss', { moderator: { id: 'm1' }, dm: 1 }, 'dm'],
    ['dismiss', { moderator: { id: 'm1' }, reason: 7 }, 'reason'],
    ['undo', JSON.parse('{"moderator":{"id":"m1","constructor":{"prototype":{}}}}'), 'moderator.constructor'],
  ])('%s: 400 for %j', async (action, body, field) => {
    const res = await act(action, 'any-report', body);
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

describe('what the spec leaves unbounded (4.9)', () => {
  it('a moderator of any id acts; the moderator object an answer gives is taken back as it is', async () => {
    const longId = 'L'.repeat(300);
    await sys.addModerator(longId, 'longmod');
    const { ids } = await openCase();
    const claimed = await act('claim', ids[0]!, as(longId));
    expect(claimed.status).toBe(200);
    expect(claimed.body.data.moderator).toEqual({ id: longId, username: 'longmod' });
    // Sent back whole (2.4's shape, with its username) and with a property of the caller's own.
    const unclaimed = await act('unclaim', ids[0]!, { moderator: claimed.body.data.moderator, note: 'handing over' });
    expect(unclaimed.status).toBe(200);
  });

  it("a dismissal takes any reason, empty or long; the reporter's DM stays within the chat platform's 2,000 characters", async () => {
    for (const reason of ['', 'r'.repeat(20_000)]) {
      const { ids } = await openCase(1, 'chatplatform');
      const reporter = `rep-${nextReporter - 1}`;
      const res = await act('dismiss', ids[0]!, { moderator: { id: 'm1' }, dm: true, reason });
      expect(res.status).toBe(200);
      const dm = async () => (await messages()).find((m) => m.channel === `dm:${reporter}`);
      await sys.waitFor(async () => (await dm()) !== undefined, 15_000, 'the DM');
      const { content } = (await dm())!;
      expect(content.startsWith('Your report was reviewed and dismissed')).toBe(true);
      expect(content.length).toBeLessThanOrEqual(2000);
      if (reason) expect(content).toContain('rrrr');
    }
  });

  it('a report id of any length is looked up: an unknown one is a 404, not a 400', async () => {
    const res = await act('claim', 'x'.repeat(500), as('m1'));
    expect(res.status).toBe(404);
    expect(isErrorShape(res.body)).toBe(true);
  });
});

describe('concurrency and redelivery', () => {
  it('two moderators claiming at once: exactly one wins, every time', async () => {
    for (let round = 0; round < 8; round++) {
      const { ids } = await openCase();
      const [a, b] = await Promise.all([act('claim', ids[0]!, as('m1')), act('claim', ids[0]!, as('m2'))]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 403]);
      const loser = a.status === 403 ? a : b;
      const winner = a.status === 200 ? a : b;
      expect(loser.body.message).toContain(winner.body.data.moderator.username);
    }
  });

  it('a case.reopened job queued by an earlier version still marks the message it names as superseded', async () => {
    // Two cases with their messages: the job names the first's message as the one the second's replaced.
    const [a, b] = [await openCase(), await openCase()];
    const messageOf = async (userId: string) => (await messages()).find((m) => m.kind === 'case.opened' && m.content.includes(`(${userId})`));
    await sys.waitFor(async () => (await messageOf(a.userId)) !== undefined && (await messageOf(b.userId)) !== undefined, 15_000, 'both case messages posted');
    const [old, current] = [(await messageOf(a.userId))!, (await messageOf(b.userId))!];
    const caseOf = async (userId: string) => ((await sys.get('/v1/cases?limit=100', viewer.auth)).body.cases as { caseId: string; userId: string }[]).find((c) => c.userId === userId)!.caseId;
    const job = { kind: 'case.reopened', caseId: await caseOf(b.userId), decisionId: 'earlier-version-undo', moderatorId: 'm1', at: Date.now(), undid: 'dismissed', previousMessage: { channel: old.channel, messageId: old.id } };
    await sys.queue('notifications').add('case.reopened', job, { jobId: 'decision-earlier-version-undo' });
    const superseded = `This decision was undone and the case re-posted (message ${current.id}).`;
    await sys.waitFor(async () => (await messages()).find((m) => m.id === old.id)?.content === superseded, 15_000, 'the named message marked superseded');
  });

  it('a redelivered decision job changes nothing twice and answers the same', async () => {
    const { ids } = await openCase();
    const queue = sys.queue('decisions');
    const payload = { action: 'approve', decisionId: 'redelivery-1', reportId: ids[0], moderatorId: 'm1' };
    const waitResult = async () => {
      let job;
      await sys.waitFor(async () => {
        job = await queue.getJob('decision-redelivery-1');
        return job !== undefined && (await job.isCompleted());
      });
      return (await queue.getJob('decision-redelivery-1'))!.returnvalue;
    };
    await queue.add('decisions', payload, { jobId: 'decision-redelivery-1' });
    const first = await waitResult();
    expect(first.ok).toBe(true);
    await (await queue.getJob('decision-redelivery-1'))!.remove();
    await queue.add('decisions', payload, { jobId: 'decision-redelivery-1' });
    const second = await waitResult();
    expect(second).toEqual(first);
    const history = await sys.cli(['case', 'history', ids[0]!]);
    expect(history.stdout.match(/^\S+\s+approve\s/gm)).toHaveLength(1);
  });
});
