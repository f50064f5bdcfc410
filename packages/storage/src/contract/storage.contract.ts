import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateError, OpenCaseConflictError } from '../index.js';
import type {
  ApiKeyRecord,
  CaseRecord,
  CaseState,
  ModeratorRecord,
  NewReport,
  Transition,
  UserRecord,
} from '../index.js';
import type { Store } from '../index.js';
import { report } from './fixtures.contract.js';
import { describeGuaranteesContract, describeSharedGuaranteesContract } from './guarantees.contract.js';
import { describeQueueHealthContract } from './queue-health.contract.js';
import { describeSanctionsContract, describeSharedSanctionsContract } from './sanctions.contract.js';
import { describeAppealsContract, describeSharedAppealsContract } from './appeals.contract.js';
import { describeTriageContract } from './triage.contract.js';
import { describeEvidenceContract } from './evidence.contract.js';
import { describeReporterOutcomesContract, describeSharedReporterOutcomesContract } from './reporter-outcomes.contract.js';
import { describeStatementsContract } from './statements.contract.js';
import { describePrivacyContract } from './privacy.contract.js';
import { describeRetentionContract } from './retention.contract.js';

/**
 * The behaviour every Store adapter must show. It uses only the Store port, so the same suite runs
 * unchanged against each adapter: call it from the adapter's test file with a factory that opens a
 * fresh, empty store.
 */

function apiKey(key: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    key,
    name: `key ${key}`,
    secretHash: 'a'.repeat(64),
    permissions: ['reports.submit_report', 'reports.view_reports'],
    elevated: false,
    admin: false,
    rateLimit: 120,
    createdAt: 1_000,
    revokedAt: null,
    ...overrides,
  };
}

function user(id: string, overrides: Partial<UserRecord> = {}): UserRecord {
  return { id, name: `name-${id}`, displayName: `Display ${id}`, avatar: null, ...overrides };
}

function moderator(id: string, createdAt = 1_000): ModeratorRecord {
  return { id, username: `mod-${id}`, createdAt };
}

const ACTION_TO: Record<CaseState, Transition['event']['action']> = {
  claimed: 'claim',
  approved: 'approve',
  dismissed: 'dismiss',
  open: 'undo',
};

let decisionSeq = 0;

/** A transition from the case's current version and state to `state`. */
function move(
  from: CaseRecord,
  state: CaseState,
  options: Partial<Pick<Transition, 'expectedVersion' | 'expectedState' | 'ban'>> & {
    action?: Transition['event']['action'];
    moderatorId?: string;
    decisionId?: string;
    result?: unknown;
    at?: number;
  } = {},
): Transition {
  const moderatorId = options.moderatorId ?? 'mod-1';
  return {
    caseId: from.id,
    expectedVersion: options.expectedVersion ?? from.version,
    expectedState: options.expectedState ?? from.state,
    next: { state, claimedBy: state === 'claimed' ? moderatorId : null },
    ...(options.ban ? { ban: options.ban } : {}),
    event: {
      decisionId: options.decisionId ?? `decision-${++decisionSeq}`,
      action: options.action ?? ACTION_TO[state],
      moderatorId,
      at: options.at ?? 5_000,
      result: options.result ?? { ok: true },
    },
  };
}

export function describeStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describeTriageContract(name, makeStore);
  describeGuaranteesContract(name, makeStore);
  describeEvidenceContract(name, makeStore);
  describeReporterOutcomesContract(name, makeStore);
  describeStatementsContract(name, makeStore);
  describePrivacyContract(name, makeStore);
  describeRetentionContract(name, makeStore);
  describe(`Store contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await makeStore();
    });

    afterEach(async () => {
      await store.close();
    });

    /** Saves one report and returns the case it landed in. */
    async function caseFor(r: NewReport): Promise<CaseRecord> {
      const [saved] = await store.saveReports([r]);
      const found = await store.getCase(saved!.caseId);
      expect(found).not.toBeNull();
      return found!;
    }

    /** Applies a transition that must succeed. */
    async function apply(t: Transition): Promise<CaseRecord> {
      const updated = await store.transitionCase(t);
      expect(updated).not.toBeNull();
      return updated!;
    }

    describeSanctionsContract(() => store);
    describeAppealsContract(() => store);

    describe('API keys', () => {
      it('creates a key and reads it back with every field', async () => {
        const key = apiKey('k1', { elevated: true, admin: true, rateLimit: null });
        await store.createApiKey(key);
        expect(await store.getApiKey('k1')).toEqual(key);
      });

      it('returns null for an unknown key', async () => {
        expect(await store.getApiKey('nope')).toBeNull();
      });

      it('lists every created key', async () => {
        await store.createApiKey(apiKey('k2', { createdAt: 2_000 }));
        await store.createApiKey(apiKey('k1', { createdAt: 1_000 }));
        const keys = await store.listApiKeys();
        expect(keys.map((k) => k.key).sort()).toEqual(['k1', 'k2']);
        expect(keys.find((k) => k.key === 'k2')).toEqual(apiKey('k2', { createdAt: 2_000 }));
      });

      it('lists nothing when no key exists', async () => {
        expect(await store.listApiKeys()).toEqual([]);
      });

      it('rejects a duplicate key with DuplicateError and keeps the first', async () => {
        await store.createApiKey(apiKey('k1', { name: 'first' }));
        await expect(store.createApiKey(apiKey('k1', { name: 'second' }))).rejects.toBeInstanceOf(DuplicateError);
        expect((await store.getApiKey('k1'))?.name).toBe('first');
        expect(await store.listApiKeys()).toHaveLength(1);
      });

      it('revokes a key once: true the first time, false after, and records revokedAt', async () => {
        await store.createApiKey(apiKey('k1'));
        expect(await store.revokeApiKey('k1', 7_000)).toBe(true);
        expect(await store.revokeApiKey('k1', 8_000)).toBe(false);
        expect((await store.getApiKey('k1'))?.revokedAt).toBe(7_000);
      });

      it('returns false when revoking an unknown key', async () => {
        expect(await store.revokeApiKey('nope', 7_000)).toBe(false);
      });

      it('revoking one key leaves the others active', async () => {
        await store.createApiKey(apiKey('k1'));
        await store.createApiKey(apiKey('k2'));
        await store.revokeApiKey('k1', 7_000);
        expect((await store.getApiKey('k2'))?.revokedAt).toBeNull();
      });

      it('keeps the moderator a key is bound to, and none for an unbound key', async () => {
        await store.createApiKey(apiKey('bound', { moderatorId: 'mod-1' }));
        await store.createApiKey(apiKey('free'));
        expect(await store.getApiKey('bound')).toEqual(apiKey('bound', { moderatorId: 'mod-1' }));
        expect((await store.getApiKey('free'))?.moderatorId).toBeUndefined();
        const listed = await store.listApiKeys();
        expect(listed.find((k) => k.key === 'bound')?.moderatorId).toBe('mod-1');
        expect(listed.find((k) => k.key === 'free')?.moderatorId).toBeUndefined();
        await store.revokeApiKey('bound', 9_000);
        expect(await store.getApiKey('bound')).toEqual(apiKey('bound', { moderatorId: 'mod-1', revokedAt: 9_000 }));
      });
    });

    describe('users', () => {
      it('adds a user and reads it back', async () => {
        const u = user('u1', { avatar: 'https://example.test/u1.png' });
        await store.addUser(u);
        await store.addUser(user('u2'));
        expect(await store.getUser('u1')).toEqual(u);
        expect(await store.getUser('u2')).toEqual(user('u2'));
      });

      it('rejects a duplicate user with DuplicateError and keeps the first', async () => {
        await store.addUser(user('u1', { name: 'first' }));
        await expect(store.addUser(user('u1', { name: 'second' }))).rejects.toBeInstanceOf(DuplicateError);
        expect((await store.getUser('u1'))?.name).toBe('first');
      });

      it('returns null for an unknown user', async () => {
        expect(await store.getUser('nope')).toBeNull();
      });

      it('reports a user as not banned until a case bans them', async () => {
        await store.addUser(user('u1'));
        expect(await store.isBanned('u1')).toBe(false);
        expect(await store.isBanned('unknown-user')).toBe(false);
      });
    });

    describe('moderators', () => {
      it('adds a moderator and reads it back', async () => {
        await store.addModerator(moderator('m1', 3_000));
        expect(await store.getModerator('m1')).toEqual(moderator('m1', 3_000));
      });

      it('returns null for an unknown moderator', async () => {
        expect(await store.getModerator('nope')).toBeNull();
      });

      it('lists moderators sorted by id', async () => {
        await store.addModerator(moderator('m3'));
        await store.addModerator(moderator('m1'));
        await store.addModerator(moderator('m2'));
        expect(await store.listModerators()).toEqual([moderator('m1'), moderator('m2'), moderator('m3')]);
      });

      it('saves a moderator: added when new, renamed when known, created time kept', async () => {
        await store.saveModerator({ id: 'm1', username: 'first', createdAt: 1_000 });
        expect(await store.getModerator('m1')).toEqual({ id: 'm1', username: 'first', createdAt: 1_000 });
        await store.saveModerator({ id: 'm1', username: 'renamed', createdAt: 2_000 });
        expect(await store.listModerators()).toEqual([{ id: 'm1', username: 'renamed', createdAt: 1_000 }]);
      });

      it('rejects a duplicate moderator with DuplicateError', async () => {
        await store.addModerator(moderator('m1', 1_000));
        await expect(store.addModerator(moderator('m1', 2_000))).rejects.toBeInstanceOf(DuplicateError);
        expect(await store.listModerators()).toEqual([moderator('m1', 1_000)]);
      });
    });

    describe('saveReports', () => {
      it('opens an open, unclaimed case for the first report about a user', async () => {
        const [saved] = await store.saveReports([report('r1', 'u1', 1_000)]);
        expect(saved).toEqual({ reportId: 'r1', caseId: expect.any(String), created: true, openedCase: true });
        const opened = await store.getCase(saved!.caseId);
        expect(opened).toMatchObject({ id: saved!.caseId, userId: 'u1', state: 'open', claimedBy: null });
      });

      it('joins a second report about the same user to the open case', async () => {
        const [first] = await store.saveReports([report('r1', 'u1', 1_000)]);
        const [second] = await store.saveReports([report('r2', 'u1', 2_000, { reporterId: 'reporter-2' })]);
        expect(second).toEqual({ reportId: 'r2', caseId: first!.caseId, created: true, openedCase: false });
        expect(await store.caseReportIds(first!.caseId)).toEqual(['r1', 'r2']);
      });

      it('opens a separate case for a report about another user', async () => {
        const [a] = await store.saveReports([report('r1', 'u1', 1_000)]);
        const [b] = await store.saveReports([report('r2', 'u2', 2_000)]);
        expect(b!.openedCase).toBe(true);
        expect(b!.caseId).not.toBe(a!.caseId);
        expect((await store.getCase(b!.caseId))?.userId).toBe('u2');
      });

      it('is idempotent on the report id: saving it again reports created false and changes nothing', async () => {
        const [first] = await store.saveReports([report('r1', 'u1', 1_000)]);
        const before = await store.getCase(first!.caseId);

        const [again] = await store.saveReports([report('r1', 'u1', 9_000, { reporterId: 'someone-else' })]);

        expect(again).toEqual({ reportId: 'r1', caseId: first!.caseId, created: false, openedCase: false });
        expect(await store.getCase(first!.caseId)).toEqual(before);
        expect(await store.caseReportIds(first!.caseId)).toEqual(['r1']);
        const listed = await store.listReportsByUser('u1', { offset: 0, limit: 10 });
        expect(listed.total).toBe(1);
        expect(await store.getReport('r1')).toEqual({ ...report('r1', 'u1', 1_000), caseId: first!.caseId });
      });

      it('saves a batch of reports in one call, answering in input order', async () => {
        const saved = await store.saveReports([
          report('r1', 'u1', 1_000),
          report('r2', 'u1', 2_000),
          report('r3', 'u2', 3_000),
        ]);
        expect(saved.map((s) => [s.reportId, s.created, s.openedCase])).toEqual([
          ['r1', true, true],
          ['r2', true, false],
          ['r3', true, true],
        ]);
        expect(saved[1]!.caseId).toBe(saved[0]!.caseId);
        expect(saved[2]!.caseId).not.toBe(saved[0]!.caseId);
        expect(await store.caseReportIds(saved[0]!.caseId)).toEqual(['r1', 'r2']);
        expect(await store.caseReportIds(saved[2]!.caseId)).toEqual(['r3']);
      });

      it('in a batch mixing stored and new reports, saves only the new ones', async () => {
        const [first] = await store.saveReports([report('r1', 'u1', 1_000)]);
        const saved = await store.saveReports([report('r1', 'u1', 1_000), report('r2', 'u1', 2_000)]);
        expect(saved).toEqual([
          { reportId: 'r1', caseId: first!.caseId, created: false, openedCase: false },
          { reportId: 'r2', caseId: first!.caseId, created: true, openedCase: false },
        ]);
        expect((await store.listReportsByUser('u1', { offset: 0, limit: 10 })).total).toBe(2);
      });

      it('saves a report repeated within one batch only once', async () => {
        const saved = await store.saveReports([report('r1', 'u1', 1_000), report('r1', 'u1', 1_000)]);
        expect(saved.map((s) => s.created)).toEqual([true, false]);
        expect(saved[1]!.caseId).toBe(saved[0]!.caseId);
        expect((await store.listReportsByUser('u1', { offset: 0, limit: 10 })).total).toBe(1);
      });

      it('answers an empty batch with an empty list', async () => {
        expect(await store.saveReports([])).toEqual([]);
      });

      it('getReport returns every field of a report with a type, avatar and evidence flags', async () => {
        const full = report('r1', 'u1', 1_000, {
          reporterId: 'reporter-9',
          reporterPlatform: 'web',
          reportType: 'cheating',
          answers: [
            { questionId: 'q1', answer: 'aimbot' },
            { questionId: 'q2', answer: 'since yesterday, "always" ✓' },
          ],
          evidence: [
            { url: 'https://example.test/a.mp4', type: 'video', createEvidence: true },
            { url: 'https://example.test/b.png', type: 'image', createEvidence: false },
          ],
          user: { name: 'cheater', displayName: 'The Cheater', avatar: 'https://example.test/avatar.png' },
        });
        const [saved] = await store.saveReports([full]);
        expect(await store.getReport('r1')).toEqual({ ...full, caseId: saved!.caseId });
      });

      it('getReport returns a report without a type, avatar or evidence as stored', async () => {
        const bare = report('r1', 'u1', 1_000, { reportType: null, evidence: [], answers: [] });
        const [saved] = await store.saveReports([bare]);
        const got = await store.getReport('r1');
        expect(got).toEqual({ ...bare, caseId: saved!.caseId });
        expect(got?.reportType).toBeNull();
        expect(got?.user.avatar).toBeNull();
      });

      it('getReport returns null for an unknown report', async () => {
        expect(await store.getReport('nope')).toBeNull();
      });
    });

    describe('listReportsByUser', () => {
      /** Five reports about u1 received at 1000..5000, saved out of order, plus noise about u2. */
      async function seedFive(): Promise<void> {
        await store.saveReports([
          report('r3', 'u1', 3_000),
          report('r1', 'u1', 1_000),
          report('r5', 'u1', 5_000),
          report('other', 'u2', 4_500),
        ]);
        await store.saveReports([report('r2', 'u1', 2_000), report('r4', 'u1', 4_000)]);
      }

      it('lists a user’s reports newest first by receivedAt', async () => {
        await seedFive();
        const { reports } = await store.listReportsByUser('u1', { offset: 0, limit: 10 });
        expect(reports.map((r) => r.id)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
      });

      it('returns full report records including the case id', async () => {
        const [saved] = await store.saveReports([report('r1', 'u1', 1_000, { reportType: 'spam' })]);
        const { reports } = await store.listReportsByUser('u1', { offset: 0, limit: 10 });
        expect(reports).toEqual([{ ...report('r1', 'u1', 1_000, { reportType: 'spam' }), caseId: saved!.caseId }]);
      });

      it('counts every report of the user in total, not the page length', async () => {
        await seedFive();
        const page = await store.listReportsByUser('u1', { offset: 0, limit: 2 });
        expect(page.total).toBe(5);
        expect(page.reports.map((r) => r.id)).toEqual(['r5', 'r4']);
      });

      it('pages with offset and limit, the last page being partial', async () => {
        await seedFive();
        const second = await store.listReportsByUser('u1', { offset: 2, limit: 2 });
        const last = await store.listReportsByUser('u1', { offset: 4, limit: 2 });
        expect(second).toMatchObject({ total: 5 });
        expect(second.reports.map((r) => r.id)).toEqual(['r3', 'r2']);
        expect(last.total).toBe(5);
        expect(last.reports.map((r) => r.id)).toEqual(['r1']);
      });

      it('gives an empty page with the right total past the end', async () => {
        await seedFive();
        expect(await store.listReportsByUser('u1', { offset: 5, limit: 2 })).toEqual({ total: 5, reports: [] });
        expect(await store.listReportsByUser('u1', { offset: 50, limit: 2 })).toEqual({ total: 5, reports: [] });
      });

      it('gives total 0 and no reports for a user nobody reported', async () => {
        await seedFive();
        expect(await store.listReportsByUser('nobody', { offset: 0, limit: 10 })).toEqual({ total: 0, reports: [] });
      });

      it('lists reports from all of the user’s cases, decided and open', async () => {
        const old = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await apply(move(old, 'claimed'));
        await apply(move(claimed, 'dismissed'));
        await store.saveReports([report('r2', 'u1', 2_000)]);
        const listed = await store.listReportsByUser('u1', { offset: 0, limit: 10 });
        expect(listed.total).toBe(2);
        expect(listed.reports.map((r) => r.id)).toEqual(['r2', 'r1']);
        expect(listed.reports[0]!.caseId).not.toBe(listed.reports[1]!.caseId);
      });
    });

    describe('cases', () => {
      it('openCaseOfUser returns the user’s open case', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        expect(await store.openCaseOfUser('u1')).toEqual(opened);
      });

      it('openCaseOfUser still returns the case once it is claimed', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await apply(move(opened, 'claimed'));
        expect(await store.openCaseOfUser('u1')).toEqual(claimed);
      });

      it('openCaseOfUser returns null for a user without a case and after the case is decided', async () => {
        expect(await store.openCaseOfUser('u1')).toBeNull();
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await apply(move(opened, 'claimed'));
        await apply(move(claimed, 'approved', { ban: 'set' }));
        expect(await store.openCaseOfUser('u1')).toBeNull();
      });

      it('getCase returns null for an unknown case', async () => {
        expect(await store.getCase('nope')).toBeNull();
      });

      it('caseReportIds lists the case’s reports oldest first', async () => {
        const [first] = await store.saveReports([report('r2', 'u1', 2_000)]);
        await store.saveReports([report('r3', 'u1', 3_000), report('r1', 'u1', 1_000)]);
        expect(await store.caseReportIds(first!.caseId)).toEqual(['r1', 'r2', 'r3']);
      });

      it('caseReporters lists each reporter once, a platform and an id, by platform then id', async () => {
        const [first] = await store.saveReports([
          report('r1', 'u1', 1_000, { reporterId: 'alice' }),
          report('r2', 'u1', 2_000, { reporterId: 'bob' }),
          report('r3', 'u1', 3_000, { reporterId: 'alice' }),
          report('r5', 'u1', 5_000, { reporterId: 'alice', reporterPlatform: 'chatplatform' }),
        ]);
        await store.saveReports([report('r4', 'u2', 4_000, { reporterId: 'carol' })]);
        expect(await store.caseReporters(first!.caseId)).toEqual([
          { platform: 'chatplatform', id: 'alice' },
          { platform: 'gameplatform', id: 'alice' },
          { platform: 'gameplatform', id: 'bob' },
        ]);
      });

      it('caseReportIds and caseReporters are empty for an unknown case', async () => {
        expect(await store.caseReportIds('nope')).toEqual([]);
        expect(await store.caseReporters('nope')).toEqual([]);
      });
    });

    describe('transitionCase', () => {
      it('claims an open case: new state, claimedBy, version + 1', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await store.transitionCase(move(opened, 'claimed', { moderatorId: 'mod-7' }));
        expect(claimed).toMatchObject({
          id: opened.id,
          userId: 'u1',
          state: 'claimed',
          claimedBy: 'mod-7',
          version: opened.version + 1,
          createdAt: opened.createdAt,
        });
        expect(await store.getCase(opened.id)).toEqual(claimed);
      });

      it('returns null and changes nothing when expectedVersion is stale', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const stale = move(opened, 'claimed', { expectedVersion: opened.version + 1, decisionId: 'd-stale' });
        expect(await store.transitionCase(stale)).toBeNull();
        expect(await store.getCase(opened.id)).toEqual(opened);
        expect(await store.caseHistory(opened.id)).toEqual([]);
        expect(await store.findDecision('d-stale')).toBeNull();
      });

      it('returns null and changes nothing when expectedState is wrong', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const wrong = move(opened, 'approved', { expectedState: 'claimed', ban: 'set', decisionId: 'd-wrong' });
        expect(await store.transitionCase(wrong)).toBeNull();
        expect(await store.getCase(opened.id)).toEqual(opened);
        expect(await store.caseHistory(opened.id)).toEqual([]);
        expect(await store.findDecision('d-wrong')).toBeNull();
        expect(await store.isBanned('u1')).toBe(false);
      });

      it("sets the case's message with the transition (an undo's re-post), and not when the transition loses", async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        await store.setCaseMessage({ caseId: opened.id, channel: 'reports', messageId: 'first', updatedAt: 1_000 });
        const repost = (messageId: string) => ({ caseId: opened.id, channel: 'reports', messageId, updatedAt: 2_000 });
        const stale = { ...move(opened, 'claimed', { expectedVersion: opened.version + 1, decisionId: 'd-stale' }), caseMessage: repost('lost') };
        expect(await store.transitionCase(stale)).toBeNull();
        expect((await store.getCaseMessage(opened.id))?.messageId).toBe('first');
        expect(await store.transitionCase({ ...move(opened, 'claimed'), caseMessage: repost('second') })).not.toBeNull();
        expect(await store.getCaseMessage(opened.id)).toEqual(repost('second'));
      });

      it('a stale transition leaves the history of earlier ones unchanged', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await apply(move(opened, 'claimed'));
        const history = await store.caseHistory(opened.id);
        expect(await store.transitionCase(move(opened, 'claimed', { moderatorId: 'mod-2' }))).toBeNull();
        expect(await store.caseHistory(opened.id)).toEqual(history);
        expect(await store.getCase(opened.id)).toEqual(claimed);
      });

      it('returns null for an unknown case', async () => {
        const ghost: CaseRecord = {
          id: 'no-such-case',
          userId: 'u1',
          state: 'open',
          claimedBy: null,
          version: 1,
          createdAt: 0,
          updatedAt: 0,
          slaBreached: false,
        };
        expect(await store.transitionCase(move(ghost, 'claimed'))).toBeNull();
      });

      it('ban "set" bans the user and ban "lift" lifts it', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await apply(move(opened, 'claimed'));
        const approved = await apply(move(claimed, 'approved', { ban: 'set' }));
        expect(await store.isBanned('u1')).toBe(true);
        expect(await store.isBanned('u2')).toBe(false);

        const reopened = await apply(move(approved, 'open', { ban: 'lift' }));
        expect(reopened).toMatchObject({ state: 'open', claimedBy: null, version: approved.version + 1 });
        expect(await store.isBanned('u1')).toBe(false);
        expect(await store.openCaseOfUser('u1')).toEqual(reopened);
      });

      it('a transition without a ban change leaves the ban as it was', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await apply(move(opened, 'claimed'));
        await apply(move(claimed, 'dismissed'));
        expect(await store.isBanned('u1')).toBe(false);
      });

      for (const decided of ['approved', 'dismissed'] as const) {
        it(`after a case is ${decided}, a new report about the user opens a new case`, async () => {
          const opened = await caseFor(report('r1', 'u1', 1_000));
          const claimed = await apply(move(opened, 'claimed'));
          const closed = await apply(move(claimed, decided, decided === 'approved' ? { ban: 'set' } : {}));

          const [next] = await store.saveReports([report('r2', 'u1', 2_000)]);

          expect(next).toMatchObject({ created: true, openedCase: true });
          expect(next!.caseId).not.toBe(opened.id);
          expect(await store.getCase(opened.id)).toEqual(closed);
          expect(await store.openCaseOfUser('u1')).toMatchObject({ id: next!.caseId, state: 'open' });
          expect(await store.caseReportIds(opened.id)).toEqual(['r1']);
          expect(await store.caseReportIds(next!.caseId)).toEqual(['r2']);
        });
      }

      it('refuses to reopen a decided case while another case about the user is open', async () => {
        const old = await caseFor(report('r1', 'u1', 1_000));
        const claimed = await apply(move(old, 'claimed'));
        const approved = await apply(move(claimed, 'approved', { ban: 'set' }));
        const [fresh] = await store.saveReports([report('r2', 'u1', 2_000)]);
        const history = await store.caseHistory(old.id);

        await expect(
          store.transitionCase(move(approved, 'open', { ban: 'lift', decisionId: 'd-undo' })),
        ).rejects.toBeInstanceOf(OpenCaseConflictError);

        expect(await store.getCase(old.id)).toEqual(approved);
        expect(await store.caseHistory(old.id)).toEqual(history);
        expect(await store.findDecision('d-undo')).toBeNull();
        expect(await store.isBanned('u1')).toBe(true);
        expect((await store.openCaseOfUser('u1'))?.id).toBe(fresh!.caseId);
      });

      it('OpenCaseConflictError names the user', async () => {
        const old = await caseFor(report('r1', 'u1', 1_000));
        const dismissed = await apply(move(await apply(move(old, 'claimed')), 'dismissed'));
        await store.saveReports([report('r2', 'u1', 2_000)]);
        const error = await store.transitionCase(move(dismissed, 'open')).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(OpenCaseConflictError);
        expect((error as OpenCaseConflictError).userId).toBe('u1');
      });

      it('findDecision returns the recorded event with its result round-tripped', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const result = {
          status: 'claimed',
          report: { id: 'r1', tags: ['a', 'b'] },
          count: 3,
          nothing: null,
          flag: false,
        };
        await apply(move(opened, 'claimed', { decisionId: 'd-1', moderatorId: 'mod-3', at: 6_000, result }));
        expect(await store.findDecision('d-1')).toEqual({
          caseId: opened.id,
          decisionId: 'd-1',
          action: 'claim',
          moderatorId: 'mod-3',
          fromState: 'open',
          toState: 'claimed',
          at: 6_000,
          result,
        });
      });

      it('findDecision returns null for an unknown decision', async () => {
        expect(await store.findDecision('nope')).toBeNull();
      });

      it('caseHistory lists the events in the order they were applied', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        // All at the same instant: the order must come from the order of application alone.
        const at = 6_000;
        const c1 = await apply(move(opened, 'claimed', { moderatorId: 'mod-1', decisionId: 'd-1', at }));
        const c2 = await apply(move(c1, 'open', { action: 'unclaim', moderatorId: 'mod-1', decisionId: 'd-2', at }));
        const c3 = await apply(move(c2, 'claimed', { moderatorId: 'mod-2', decisionId: 'd-3', at }));
        await apply(move(c3, 'approved', { moderatorId: 'mod-2', decisionId: 'd-4', at, ban: 'set' }));

        const history = await store.caseHistory(opened.id);
        expect(history.map((e) => [e.decisionId, e.action, e.moderatorId, e.fromState, e.toState])).toEqual([
          ['d-1', 'claim', 'mod-1', 'open', 'claimed'],
          ['d-2', 'unclaim', 'mod-1', 'claimed', 'open'],
          ['d-3', 'claim', 'mod-2', 'open', 'claimed'],
          ['d-4', 'approve', 'mod-2', 'claimed', 'approved'],
        ]);
        expect(history.every((e) => e.caseId === opened.id)).toBe(true);
      });

      it('caseHistory is empty for a new case and keeps cases apart', async () => {
        const a = await caseFor(report('r1', 'u1', 1_000));
        const b = await caseFor(report('r2', 'u2', 1_000));
        await apply(move(a, 'claimed', { decisionId: 'd-a' }));
        expect(await store.caseHistory(b.id)).toEqual([]);
        expect((await store.caseHistory(a.id)).map((e) => e.decisionId)).toEqual(['d-a']);
      });

      it('of 20 concurrent transitions from the same version, exactly one wins', async () => {
        const opened = await caseFor(report('r1', 'u1', 1_000));
        const attempts = Array.from({ length: 20 }, (_, i) =>
          store.transitionCase(move(opened, 'claimed', { moderatorId: `mod-${i}`, decisionId: `race-${i}` })),
        );
        const results = await Promise.all(attempts);

        const winners = results.filter((r): r is CaseRecord => r !== null);
        expect(winners).toHaveLength(1);
        const winner = winners[0]!;
        expect(winner.version).toBe(opened.version + 1);
        expect(await store.getCase(opened.id)).toEqual(winner);
        const history = await store.caseHistory(opened.id);
        expect(history).toHaveLength(1);
        expect(history[0]!.moderatorId).toBe(winner.claimedBy);
      });
    });

    describe('chat messages', () => {
      const message = (dedupeKey: string, content = `content of ${dedupeKey}`) => ({
        channel: 'reports',
        kind: 'new-case',
        content,
        dedupeKey,
      });

      it('records a message with an id and a creation time', async () => {
        const recorded = await store.recordMessage(message('k1'));
        expect(recorded).toMatchObject(message('k1'));
        expect(recorded.id).toEqual(expect.any(String));
        expect(recorded.createdAt).toEqual(expect.any(Number));
      });

      it('returns the first message for a repeated dedupeKey', async () => {
        const first = await store.recordMessage(message('k1', 'first content'));
        const again = await store.recordMessage(message('k1', 'second content'));
        expect(again).toEqual(first);
        expect(again.content).toBe('first content');
        expect(await store.listMessages(10)).toEqual([first]);
      });

      it('lists messages newest first, up to the limit', async () => {
        const m1 = await store.recordMessage(message('k1'));
        const m2 = await store.recordMessage(message('k2'));
        const m3 = await store.recordMessage(message('k3'));
        expect(await store.listMessages(2)).toEqual([m3, m2]);
        expect(await store.listMessages(10)).toEqual([m3, m2, m1]);
      });

      it('lists nothing when no message was recorded', async () => {
        expect(await store.listMessages(10)).toEqual([]);
      });

      it('a recorded message is not edited', async () => {
        expect((await store.recordMessage(message('k1'))).editedAt).toBeNull();
      });

      it('editMessage replaces the content, sets editedAt and keeps the rest', async () => {
        const first = await store.recordMessage(message('k1', 'before'));
        const edited = await store.editMessage(first.id, 'after', 9_000);
        expect(edited).toEqual({ ...first, content: 'after', editedAt: 9_000 });
        expect(await store.listMessages(10)).toEqual([edited]);
        const again = await store.editMessage(first.id, 'after again', 9_500);
        expect(again).toEqual({ ...first, content: 'after again', editedAt: 9_500 });
      });

      it('editMessage of an unknown id returns null and records nothing', async () => {
        expect(await store.editMessage('nope', 'content', 9_000)).toBeNull();
        expect(await store.listMessages(10)).toEqual([]);
      });

      it('editing does not move a message in the listing', async () => {
        const m1 = await store.recordMessage(message('k1'));
        const m2 = await store.recordMessage(message('k2'));
        const edited = await store.editMessage(m1.id, 'edited', Date.now() + 60_000);
        expect(await store.listMessages(10)).toEqual([m2, edited]);
      });

      it('a repeated dedupeKey still returns the message as edited', async () => {
        const first = await store.recordMessage(message('k1', 'first'));
        const edited = await store.editMessage(first.id, 'edited', 9_000);
        expect(await store.recordMessage(message('k1', 'other'))).toEqual(edited);
      });
    });

    describe('case messages', () => {
      const caseMessage = (caseId: string, messageId: string, updatedAt = 1_000) => ({ caseId, channel: 'reports', messageId, updatedAt });

      it('returns null before a case message is set', async () => {
        expect(await store.getCaseMessage('c1')).toBeNull();
      });

      it('sets and reads back the message of a case', async () => {
        await store.setCaseMessage(caseMessage('c1', 'm1'));
        expect(await store.getCaseMessage('c1')).toEqual(caseMessage('c1', 'm1'));
      });

      it('setting it again replaces it (the re-post of an undo)', async () => {
        await store.setCaseMessage(caseMessage('c1', 'm1'));
        await store.setCaseMessage({ caseId: 'c1', channel: 'other-channel', messageId: 'm2', updatedAt: 2_000 });
        expect(await store.getCaseMessage('c1')).toEqual({ caseId: 'c1', channel: 'other-channel', messageId: 'm2', updatedAt: 2_000 });
      });

      it('keeps cases apart', async () => {
        await store.setCaseMessage(caseMessage('c1', 'm1'));
        await store.setCaseMessage(caseMessage('c2', 'm2'));
        await store.setCaseMessage(caseMessage('c1', 'm3'));
        expect((await store.getCaseMessage('c1'))?.messageId).toBe('m3');
        expect((await store.getCaseMessage('c2'))?.messageId).toBe('m2');
      });
    });

    describe('deliveries', () => {
      it('returns null for a key never delivered', async () => {
        expect(await store.findDelivery('job-1')).toBeNull();
      });

      it('records a delivery and finds it by key, with or without an external id', async () => {
        const chat = { key: 'job-1', externalId: 'platform-msg-7', deliveredAt: 5_000 };
        const webhook = { key: 'job-2', externalId: null, deliveredAt: 6_000 };
        expect(await store.recordDelivery(chat)).toEqual(chat);
        expect(await store.recordDelivery(webhook)).toEqual(webhook);
        expect(await store.findDelivery('job-1')).toEqual(chat);
        expect(await store.findDelivery('job-2')).toEqual(webhook);
      });

      it('is idempotent on the key: the first record wins and is returned', async () => {
        const first = { key: 'job-1', externalId: 'a', deliveredAt: 5_000 };
        await store.recordDelivery(first);
        expect(await store.recordDelivery({ key: 'job-1', externalId: 'b', deliveredAt: 7_000 })).toEqual(first);
        expect(await store.findDelivery('job-1')).toEqual(first);
      });

      it('of concurrent records with one key, all answer the same first record', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => store.recordDelivery({ key: 'job-race', externalId: `m${i}`, deliveredAt: 1_000 + i })),
        );
        expect(new Set(results.map((r) => r.externalId)).size).toBe(1);
        expect(await store.findDelivery('job-race')).toEqual(results[0]);
      });
    });
  });
  describeQueueHealthContract(name, makeStore);
}

/**
 * Two handles on one store, as two processes have: `openPair` gives a fresh store and a second
 * handle on the same data. Races between them are settled by the store, not by either process.
 */
export function describeSharedStoreContract(name: string, openPair: () => Promise<[Store, Store]>): void {
  const withPair = async (fn: (a: Store, b: Store) => Promise<void>) => {
    const [a, b] = await openPair();
    try {
      await fn(a, b);
    } finally {
      await a.close();
      await b.close();
    }
  };

  // Each handle may live in a process of its own (SQLite): starting them and racing many rounds
  // takes seconds on a loaded machine.
  describe(`${name} store: two handles on the same data`, { timeout: 60_000 }, () => {
    describeSharedSanctionsContract(openPair);
    describeSharedAppealsContract(openPair);
    describeSharedGuaranteesContract(name, openPair);
    describeSharedReporterOutcomesContract(name, openPair);

    it('saving reports about the same new user from both opens exactly one case', () =>
      withPair(async (a, b) => {
        // Many rounds: one race may happen to run its sides one after the other.
        for (let round = 0; round < 20; round++) {
          const user = `new-user-${round}`;
          const [[fromA], [fromB]] = await Promise.all([a.saveReports([report(`ra${round}`, user, 1_000)]), b.saveReports([report(`rb${round}`, user, 2_000)])]);
          expect(fromA!.created && fromB!.created).toBe(true);
          expect(fromA!.caseId).toBe(fromB!.caseId);
          expect([fromA!.openedCase, fromB!.openedCase].filter(Boolean)).toHaveLength(1);
          expect(await a.caseReportIds(fromA!.caseId)).toEqual([`ra${round}`, `rb${round}`]);
          expect((await b.openCaseOfUser(user))?.id).toBe(fromA!.caseId);
        }
      }));

    it('a report saved while its case is decided joins it before the decision, or a new case after it', () =>
      withPair(async (a, b) => {
        for (let round = 0; round < 25; round++) {
          const userId = `race-${round}`;
          const [first] = await a.saveReports([report(`race-${round}-a`, userId, 1_000)]);
          const decided = (await a.getCase(first!.caseId))!;
          // One handle saves a report about the user while the other dismisses the user's case.
          const [[saved], atDecision] = await Promise.all([
            a.saveReports([report(`race-${round}-b`, userId, 2_000, { reporterId: 'late' })]),
            b.transitionCase(move(decided, 'dismissed')).then(() => b.caseReportIds(decided.id)),
          ]);
          expect(await a.caseReportIds(decided.id), `round ${round}: nothing joins a decided case`).toEqual(atDecision);
          if (saved!.caseId === decided.id) expect(atDecision).toContain(saved!.reportId);
          else expect((await a.getCase(saved!.caseId))?.state).toBe('open');
        }
      }));

    it('saving the same report from both stores it once, and one of them says it opened the case', () =>
      withPair(async (a, b) => {
        const [[fromA], [fromB]] = await Promise.all([a.saveReports([report('r1', 'new-user', 1_000)]), b.saveReports([report('r1', 'new-user', 1_000)])]);
        expect([fromA!.created, fromB!.created].filter(Boolean)).toHaveLength(1);
        expect(fromA!.caseId).toBe(fromB!.caseId);
        expect([fromA!.openedCase, fromB!.openedCase].filter(Boolean)).toHaveLength(1);
        expect(await a.caseReportIds(fromA!.caseId)).toEqual(['r1']);
      }));
  });
}
