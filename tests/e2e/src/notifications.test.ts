import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform, type Received } from './fake-platform.js';
import { report, System, type Key } from './harness.js';

// The chat platform, the user directory and the webhook receiver are a real HTTP server started
// here; every process of the system talks to it over HTTP.
const CHANNEL = 'mod-reports';
const TOKEN = 'chat-token-for-tests';
const SECRET = 'webhook-secret-for-tests';

let fake: FakePlatform;
let sys: System;
let admin: Key;
let nextUser = 9100;
let nextReporter = 0;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    env: {
      CHAT_API_URL: `${fake.url}/chat`,
      CHAT_TOKEN: TOKEN,
      REPORT_CHANNEL_ID: CHANNEL,
      USER_DIRECTORY_URL: `${fake.url}/directory`,
      DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`,
      DECISION_WEBHOOK_SECRET: SECRET,
      PLATFORM_TIMEOUT_MS: '1000',
      NOTIFY_ATTEMPTS: '4',
      NOTIFY_BACKOFF_MS: '50',
      MAX_REPORTS_PER_DAY: '1000',
    },
  });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

/** A player known to the fake directory. */
function newUser(): string {
  const id = nextUser++;
  fake.addUser({ id, name: `griefer${id}`, displayName: `The Griefer ${id}`, avatar: null });
  return String(id);
}

async function submit(userId: string, reporterId = `rep-${nextReporter++}`, platform = 'gameplatform'): Promise<string> {
  const res = await sys.post('/v1/reports/new', admin.auth, report(userId, reporterId, { reporter: { id: reporterId, platform } }));
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const decide = async (action: string, reportId: string, body: Record<string, unknown> = {}) => {
  const res = await sys.post(`/v1/reports/${reportId}/${action}`, admin.auth, { moderator: { id: 'm1' }, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** Posts of case messages about this user to the report channel, whatever they were answered. */
const casePosts = (userId: string) => fake.requests('POST', 'chat', 'channels', CHANNEL, 'messages').filter((r) => String(r.body?.content).includes(`(${userId})`));
const delivered = (requests: Received[]) => requests.filter((r) => r.status === 200);
const edits = (messageId: string) => delivered(fake.requests('PATCH', 'chat', 'channels', CHANNEL, 'messages', messageId));
const hooks = (decisionEvent: string, userId: string) => fake.requests('POST', 'hooks', 'decisions').filter((r) => r.body?.event === decisionEvent && r.body?.userId === userId);

async function until<T>(what: string, find: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  let found: T | undefined;
  await sys.waitFor(async () => (found = await find()) !== undefined, timeoutMs, what);
  return found!;
}

const dead = async () => {
  const r = await sys.cli(['notifications', 'dead', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { jobId: string; attemptsMade: number; failedReason: string }[];
};

describe('chat platform over HTTP: a case from first report to undo', () => {
  const userId = String(nextUser);
  let reportIds: string[] = [];
  let messageId = '';

  it('posts a new case to REPORT_CHANNEL_ID with the bearer token, named as the directory knows the player', async () => {
    newUser();
    reportIds = [await submit(userId, 'rep-a', 'chatplatform')];
    const post = await until('the case post', () => delivered(casePosts(userId))[0]);
    expect(post.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(post.body.content).toContain(`griefer${userId} (${userId})`);
    expect(post.body.content).toContain('1 report(s)');
    messageId = post.answer.id;
    expect(fake.messages.get(messageId)?.channel).toBe(CHANNEL);
  });

  it('edits that message when a report joins the case and on every decision', async () => {
    reportIds.push(await submit(userId, 'rep-b'));
    await until('the edit for the second report', () => edits(messageId).find((r) => r.body.content.includes('2 report(s)')));
    await decide('claim', reportIds[0]!);
    await until('the edit for the claim', () => edits(messageId).find((r) => r.body.content.includes('claimed by alice')));
    await decide('approve', reportIds[0]!);
    await until('the edit for the approval', () => edits(messageId).find((r) => r.body.content.includes('approved by alice')));
    expect(delivered(casePosts(userId))).toHaveLength(1);
  });

  it('approval DMs the chat-platform reporter that action was taken, and nothing of the sanction', async () => {
    const dm = await until('the approval DM to rep-a', () => delivered(fake.requests('POST', 'chat', 'channels', 'dm-rep-a', 'messages'))[0]);
    expect(dm.body.content).toBe('Your report was reviewed and action was taken against the reported player. Thank you for reporting.');
  });

  it('sends the approval to the decision webhook, signed with HMAC-SHA256 of the raw body', async () => {
    const hook = await until('the approve webhook', () => hooks('approved', userId)[0]);
    expect(hook.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(hook.raw).digest('hex')}`);
    expect(hook.headers['x-event-id']).toBe(hook.body.decisionId);
    expect(hook.body).toMatchObject({ event: 'approved', userId, reportIds, ban: 'set', moderator: { id: 'm1', username: 'alice' } });
  });

  it('undo re-posts the case: newMessageId is the id the chat platform returned, and the old message points to it', async () => {
    const undo = await decide('undo', reportIds[1]!);
    const repost = delivered(casePosts(userId)).find((r) => r.body.content.startsWith('Case reopened'));
    expect(repost?.answer.id).toBe(undo.newMessageId);
    expect(undo.newMessageId).not.toBe(messageId);
    await until('the old message marked', () => edits(messageId).find((r) => r.body.content.includes(undo.newMessageId)));
    const hook = await until('the undo webhook', () => hooks('undone', userId)[0]);
    expect(hook.body.ban).toBe('lift');
    messageId = undo.newMessageId;
  });

  it('dismiss with dm sends the chat-platform reporter the reason in a DM, and no game-platform reporter, and edits the re-posted message', async () => {
    await decide('dismiss', reportIds[0]!, { dm: true, reason: 'Not enough evidence' });
    const dm = await until('the DM to rep-a', () => delivered(fake.requests('POST', 'chat', 'channels', 'dm-rep-a', 'messages')).find((r) => r.body.content.includes('dismissed')));
    expect(dm.body.content).toContain('Not enough evidence');
    await until('the edit for the dismissal', () => edits(messageId).find((r) => r.body.content.includes('dismissed by alice')));
    const hook = await until('the dismiss webhook', () => hooks('dismissed', userId)[0]);
    expect(hook.body).toMatchObject({ ban: null, reason: 'Not enough evidence' });
    // rep-b reported from the game platform: that id may be someone else on the chat platform.
    // (Its DM would have been queued before the webhook, which has been delivered.) rep-a had two:
    // the approval's and the dismissal's.
    expect(delivered(fake.requests('POST', 'chat', 'users', '@me', 'channels')).map((r) => r.body.recipient_id)).toEqual(['rep-a', 'rep-a']);
  });
});

describe('the decision webhook says a ban only where there is one', () => {
  /** A report stored (intake is asynchronous): only then can it be decided. */
  const stored = async (userId: string, reporterId: string) => {
    const reportId = await submit(userId, reporterId);
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count === 1, 15_000, 'the report stored');
    return reportId;
  };

  it('an approval restricting chat sets no ban, and its undo lifts none', async () => {
    const userId = newUser();
    const reportId = await stored(userId, 'rep-chat');
    const approved = await decide('approve', reportId, { kind: 'chat', duration: 'PT1H' });
    expect(approved.message).toBe(`Report approved: user ${userId} is restricted (chat)`);
    expect((await until('the approve webhook', () => hooks('approved', userId)[0])).body.ban).toBeNull();
    await decide('undo', reportId);
    expect((await until('the undo webhook', () => hooks('undone', userId)[0])).body.ban).toBeNull();
  });

  it('undoing an approval lifts no ban while another sanction still bans the player', async () => {
    const userId = newUser();
    const reportId = await stored(userId, 'rep-two-bans');
    await decide('approve', reportId);
    const other = await sys.post('/v1/sanctions', admin.auth, { userId, kind: 'ban', category: 'cheating', reason: 'Cheat detected', source: { type: 'anticheat', id: 'detector' }, idempotencyKey: `two-bans-${userId}` });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    await decide('undo', reportId);
    expect((await until('the undo webhook', () => hooks('undone', userId)[0])).body.ban).toBeNull();
    expect((await sys.get(`/v1/sanctions/${userId}`, admin.auth)).body.banned).toBe(true);
  });
});

describe('a burst of reports about one player', () => {
  it('costs one chat call while the notification worker is behind, not one per report', async () => {
    const userId = newUser();
    await sys.stopApp('notification');
    for (let i = 0; i < 15; i++) await submit(userId);
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count === 15, 15_000, 'the reports stored');
    await sys.startApp('notification');
    const post = await until('the case post', () => delivered(casePosts(userId))[0]);
    expect(post.body.content).toContain('15 report(s)');
    const notifications = sys.queue('notifications');
    await sys.waitFor(async () => {
      const counts = await notifications.getJobCounts('wait', 'active', 'delayed');
      return counts['wait']! + counts['active']! + counts['delayed']! === 0;
    }, 15_000, 'the notifications queue to empty');
    expect(casePosts(userId)).toHaveLength(1);
    expect(edits(post.answer.id)).toHaveLength(0);
  });

  it('a report stored while its case is being synced gets a sync of its own: the message shows every report', async () => {
    const userId = newUser();
    // The first post is held (within PLATFORM_TIMEOUT_MS), so the second report arrives after that
    // sync has read the case.
    fake.fail({ match: (r) => r.method === 'POST' && String(r.body?.content).includes(`(${userId})`), times: 1, delayMs: 700 });
    await submit(userId);
    await until('the held post', () => casePosts(userId)[0]);
    await submit(userId);
    const post = await until('the case post', () => delivered(casePosts(userId))[0]);
    expect(post.body.content).toContain('1 report(s)');
    const edit = await until('the edit for the second report', () => edits(post.answer.id).find((e) => String(e.body?.content).includes('2 report(s)')));
    expect(edit).toBeDefined();
  });
});

const deadLetterOf = (jobId: string, timeoutMs: number) => until('the dead letter', async () => (await dead()).find((d) => d.jobId === jobId), timeoutMs);

describe('retries and dead letters', () => {
  const failPostsAbout = (userId: string, times: number, status: number, headers?: Record<string, string>) =>
    fake.fail({ match: (r) => r.method === 'POST' && String(r.body?.content).includes(`(${userId})`), times, status, ...(headers && { headers }) });

  it('the platform failing 3 times then succeeding: the case is posted once, on the 4th attempt', async () => {
    const userId = newUser();
    failPostsAbout(userId, 3, 500);
    const reportId = await submit(userId);
    await until('the case post', () => delivered(casePosts(userId))[0]);
    expect(casePosts(userId).map((r) => r.status)).toEqual([500, 500, 500, 200]);
    expect((await dead()).map((d) => d.jobId)).not.toContain(`report-${reportId}`);
  });

  it('failing always: dead-lettered after NOTIFY_ATTEMPTS, listed by the CLI, and delivered by a replay', async () => {
    const userId = newUser();
    const heal = failPostsAbout(userId, Infinity, 503);
    const reportId = await submit(userId);
    expect(await deadLetterOf(`report-${reportId}`, 20_000)).toMatchObject({ attemptsMade: 4, failedReason: expect.stringMatching(/answered 503/) });
    expect(casePosts(userId)).toHaveLength(4);
    const listed = await sys.cli(['notifications', 'dead']);
    expect(listed.stdout).toMatch(new RegExp(`report-${reportId}\\s+case.opened\\s+4\\s`));

    heal();
    const replay = await sys.cli(['notifications', 'replay', `report-${reportId}`]);
    expect(replay.code, replay.stderr).toBe(0);
    await until('the replayed post', () => delivered(casePosts(userId))[0]);
    expect((await dead()).map((d) => d.jobId)).not.toContain(`report-${reportId}`);
  });

  it('a 4xx is not retried: dead-lettered after one attempt; replay --all delivers it once fixed', async () => {
    const userId = newUser();
    const heal = failPostsAbout(userId, Infinity, 403);
    const reportId = await submit(userId);
    expect(await deadLetterOf(`report-${reportId}`, 15_000)).toMatchObject({ attemptsMade: 1, failedReason: expect.stringMatching(/answered 403/) });
    heal();
    const replay = await sys.cli(['notifications', 'replay', '--all']);
    expect(replay.stdout).toMatch(/replayed [1-9]\d* notification/);
    await until('the replayed post', () => delivered(casePosts(userId))[0]);
    expect(await dead()).toEqual([]);
  });

  it('replay refuses an unknown id and asks for an id or --all', async () => {
    const unknown = await sys.cli(['notifications', 'replay', 'report-nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no dead notification report-nope/);
    const neither = await sys.cli(['notifications', 'replay']);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toMatch(/either a job id or --all/);
  });

  it('a 429 is honoured: a short retry-after is waited out in place, a long one delays the retry', async () => {
    const short = newUser();
    failPostsAbout(short, 1, 429, { 'retry-after': '1' });
    await submit(short);
    await until('the post after a 1 s retry-after', () => delivered(casePosts(short))[0]);
    const [limited, posted] = casePosts(short);
    expect(limited!.status).toBe(429);
    expect(posted!.at - limited!.at).toBeGreaterThanOrEqual(990);

    // Longer than PLATFORM_TIMEOUT_MS: the job fails and its backoff (50 ms) is stretched to 2 s.
    const long = newUser();
    failPostsAbout(long, 1, 429, { 'retry-after': '2' });
    await submit(long);
    await until('the post after a 2 s retry-after', () => delivered(casePosts(long))[0]);
    const [limited2, posted2] = casePosts(long);
    expect(posted2!.at - limited2!.at).toBeGreaterThanOrEqual(1990);
  });

  it('undo answers 500 and changes nothing when the chat platform cannot re-post the case', async () => {
    const userId = newUser();
    const reportId = await submit(userId);
    await until('the case post', () => delivered(casePosts(userId))[0]);
    await decide('dismiss', reportId);
    const heal = fake.fail({ match: (r) => r.method === 'POST' && String(r.body?.content).startsWith('Case reopened') && String(r.body?.content).includes(`(${userId})`), times: Infinity, status: 503 });
    const refused = await sys.post(`/v1/reports/${reportId}/undo`, admin.auth, { moderator: { id: 'm1' } });
    expect(refused.status).toBe(500);
    expect(refused.body.message).toMatch(/could not be re-posted, so nothing was undone.*answered 503/);
    expect((await sys.cli(['case', 'history', reportId])).stdout).toMatch(/: dismissed/);
    heal();
    expect((await decide('undo', reportId)).newMessageId).toMatch(/^msg-/);
  });

  it('a redelivered notification job never sends twice (dedupe on the job id)', async () => {
    const userId = newUser();
    const reportId = await submit(userId);
    await until('the case post', () => delivered(casePosts(userId))[0]);
    const queue = sys.queue('notifications');
    const caseId = (await queue.getJob(`report-${reportId}`))!.data.caseId as string;
    const dm = { kind: 'reporter.dm', caseId, decisionId: 'redelivered-1', reporterId: 'rep-redelivered', reason: 'once only' };
    const jobId = 'dm-redelivered-1-rep-redelivered';
    const run = async () => {
      await queue.add('reporter.dm', dm, { jobId, attempts: 2 });
      await sys.waitFor(async () => (await (await queue.getJob(jobId))?.isCompleted()) === true, 15_000, 'the DM job');
      await (await queue.getJob(jobId))!.remove();
    };
    await run();
    await run();
    const dms = delivered(fake.requests('POST', 'chat', 'channels', 'dm-rep-redelivered', 'messages'));
    expect(dms).toHaveLength(1);
    expect(dms[0]!.body.content).toContain('once only');
  });
});
