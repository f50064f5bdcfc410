import { randomUUID } from 'node:crypto';
import type { BlobStore, HashLock } from '@rm/evidence';
import { caseMessageText, loadCaseView, MessageNotFoundError, type ChatPlatform } from '@rm/platforms';
import type { Redis } from '@rm/runtime';
import {
  ERASED_TEXT,
  privacySubjectRef,
  type AccountStore,
  type AnswerKeep,
  type DecisionStore,
  type KeptItem,
  type PrivacyStore,
  type PrivacySubject,
  type ReportStore,
  type SubjectRecords,
  type TriageStore,
} from '@rm/storage';
import { removeFinishedJobsNaming, type FinishedJobsQueue } from './finished-jobs.js';
import { eraseSubjectKeys } from './subject-keys.js';

export interface EraseDeps {
  store: PrivacyStore & Pick<DecisionStore, 'getCaseMessage'> & ReportStore & TriageStore & AccountStore;
  blobs: BlobStore;
  /** The evidence workers' per-hash locks, held while bytes no item holds any more are deleted. */
  lock: HashLock;
  /** Redis and its key prefix: the subject's keys (subject-keys.ts). */
  redis: Redis | null;
  prefix: string;
  /** The chat platform the case messages live on, and whether they hide the player's name. */
  chat: { platform: Pick<ChatPlatform, 'edit'>; hideUsername: boolean } | null;
  /** Queues whose finished jobs may hold the subject's reports (intake, evidence, decisions, notifications). */
  queues: FinishedJobsQueue[];
  now?: () => number;
}

export interface EraseOptions {
  keep: AnswerKeep;
  dryRun: boolean;
  actor: string;
  /** Reports per store transaction. */
  batchSize?: number;
  onProgress?: (event: { stage: 'reports' | 'chat' | 'blobs' | 'redis' | 'jobs'; done: number }) => void;
}

/** What an erasure did (or, in a dry run, would do), and what it kept and why. */
export interface ErasureAnswer {
  requestId: string;
  subject: PrivacySubject;
  dryRun: boolean;
  erased: {
    reports: number;
    evidenceItems: number;
    evidenceFiles: number;
    appeals: number;
    sanctions: number;
    directoryRecord: boolean;
    reporterCredibility: boolean;
    reporterOutcomes: number;
    chatMessages: number;
    redisKeys: number;
    queueJobs: number;
  };
  kept: (KeptItem & { why: string })[];
}

const WHY: Record<KeptItem['reason'], string> = {
  legal_hold: 'a legal hold keeps it (holdId) until it is released or ends',
  active_sanction: 'the sanction is active: its player id, kind, times and state stay so that it is enforced until it ends; its free text was erased',
};

/**
 * Erases a subject's personal data everywhere it lives (GDPR Art. 17; docs/privacy.md), except
 * what an exception keeps: the store a page of reports per transaction (store.eraseSubject), the
 * chat platform's case messages (rewritten without the name), kept evidence bytes no other item
 * holds, the subject's Redis keys, finished queue jobs naming their reports. Idempotent. A dry run
 * computes the same answer and changes nothing. Recorded in the privacy audit by the subject's hash.
 */
export async function eraseSubject(deps: EraseDeps, subject: PrivacySubject, options: EraseOptions): Promise<ErasureAnswer> {
  const now = (deps.now ?? Date.now)();
  const requestId = randomUUID();
  // Random, never derived from the id: nobody can tell whose reports these were.
  const pseudonym = `erased-${randomUUID()}`;
  const answer: ErasureAnswer = {
    requestId,
    subject,
    dryRun: options.dryRun,
    erased: { reports: 0, evidenceItems: 0, evidenceFiles: 0, appeals: 0, sanctions: 0, directoryRecord: false, reporterCredibility: false, reporterOutcomes: 0, chatMessages: 0, redisKeys: 0, queueJobs: 0 },
    kept: [],
  };

  // The ids finished jobs may name, read before the store forgets whose they were (a reporter's
  // reports take the pseudonym): reports and cases, and a player's sanctions and appeals, which
  // name neither (a trusted system's sanction webhook, an appeal's decision with its reason).
  // A player's records, read once for what needs them: the jobs' ids and the chat rewrite.
  const records = subject.kind === 'player' && !options.dryRun && (deps.queues.length > 0 || deps.chat) ? await deps.store.subjectRecords(subject) : null;
  const ids = new Set<string>();
  if (!options.dryRun && deps.queues.length > 0) {
    for (let cursor: string | null = null; ; ) {
      const page = await deps.store.subjectReports(subject, cursor, 1_000);
      for (const r of page.reports) ids.add(r.id).add(r.caseId);
      if (page.cursor === null) break;
      cursor = page.cursor;
    }
    for (const x of [...(records?.sanctions ?? []), ...(records?.appeals ?? [])]) ids.add(x.id);
  }

  // The chat messages first: their new text is the case as it will read (name erased), and the
  // store's last step then truncates the log the embedded recorder's edits went to.
  if (subject.kind === 'player' && records && deps.chat) answer.erased.chatMessages = await rewriteCaseMessages(deps, subject.userId, records, now);
  options.onProgress?.({ stage: 'chat', done: answer.erased.chatMessages });

  const unheld: string[] = [];
  const openCaseUsers = new Set<string>();
  for (let cursor: string | null = null; ; ) {
    const step = await deps.store.eraseSubject({ subject, cursor, limit: options.batchSize ?? 200, keep: options.keep, pseudonym, at: now, dryRun: options.dryRun });
    const e = answer.erased;
    e.reports += step.reports;
    e.evidenceItems += step.evidenceItems;
    e.appeals += step.appeals;
    e.sanctions += step.sanctions;
    e.directoryRecord ||= step.user;
    e.reporterCredibility ||= step.reporterStats;
    e.reporterOutcomes += step.outcomes;
    // The embedded recorder's DMs to a reporter, erased in the store itself.
    e.chatMessages += step.directMessages;
    unheld.push(...step.unheldBlobs);
    for (const u of step.openCaseUsers) openCaseUsers.add(u);
    answer.kept.push(...step.kept.map((k) => ({ ...k, why: WHY[k.reason] })));
    options.onProgress?.({ stage: 'reports', done: e.reports });
    if (step.cursor === null) break;
    cursor = step.cursor;
  }

  answer.erased.evidenceFiles = new Set(unheld).size;
  if (!options.dryRun) {
    // The store no longer holds these bytes by any captured item; the lock keeps a capture of the
    // same bytes from recording them between that commit and this delete (hash-lock.ts).
    await deps.lock(unheld, async () => {
      for (const sha256 of new Set(unheld)) await deps.blobs.deleteBlob(sha256);
    });
    options.onProgress?.({ stage: 'blobs', done: answer.erased.evidenceFiles });
    if (deps.redis) answer.erased.redisKeys = await eraseSubjectKeys(deps.redis, deps.prefix, subject, { pseudonym, openCaseUsers: [...openCaseUsers], now });
    options.onProgress?.({ stage: 'redis', done: answer.erased.redisKeys });
    answer.erased.queueJobs = await removeFinishedJobsNaming(deps.queues, ids);
    options.onProgress?.({ stage: 'jobs', done: answer.erased.queueJobs });
  }

  const { erased } = answer;
  await deps.store.recordPrivacyAudit({
    action: 'erase',
    requestId,
    subjectRef: privacySubjectRef(subject),
    actor: options.actor,
    at: now,
    detail: { dryRun: options.dryRun, ...erased, kept: answer.kept.length, holds: [...new Set(answer.kept.flatMap((k) => (k.holdId ? [k.holdId] : [])))].join(',') },
  });
  return answer;
}

/** Rewrites the chat message of each of the player's cases no hold keeps, with the name erased. */
async function rewriteCaseMessages(deps: EraseDeps, userId: string, records: SubjectRecords, now: number): Promise<number> {
  const held = await deps.store.holdsOn(
    [{ type: 'player', id: userId }, ...records.cases.map((c) => ({ type: 'case' as const, id: c.case.id })), ...records.sanctions.map((s) => ({ type: 'sanction' as const, id: s.id }))],
    now,
  );
  if (held.some((h) => h.target.type === 'player')) return 0;
  const heldCases = new Set([
    ...held.filter((h) => h.target.type === 'case').map((h) => h.target.id),
    ...records.sanctions.filter((s) => s.caseId !== null && held.some((h) => h.target.type === 'sanction' && h.target.id === s.id)).map((s) => s.caseId!),
  ]);
  let rewritten = 0;
  for (const { case: c } of records.cases) {
    if (heldCases.has(c.id)) continue;
    const message = await deps.store.getCaseMessage(c.id);
    const view = await loadCaseView(deps.store, c.id);
    if (!message || !view) continue;
    try {
      await deps.chat!.platform.edit(message.channel, message.messageId, caseMessageText({ ...view, userName: ERASED_TEXT }, deps.chat!.hideUsername));
      rewritten += 1;
    } catch (err) {
      // Gone from the platform already: nothing left to rewrite.
      if (!(err instanceof MessageNotFoundError)) throw err;
    }
  }
  return rewritten;
}
