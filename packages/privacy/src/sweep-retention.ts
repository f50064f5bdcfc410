import { randomUUID } from 'node:crypto';
import type { BlobStore, HashLock } from '@rm/evidence';
import { MessageNotFoundError, retainedCaseText, type ChatPlatform } from '@rm/platforms';
import { RETENTION_SWEEP_KINDS, type AnswerKeep, type PrivacyStore, type RetentionKeptReason, type RetentionStepOutcome, type RetentionSweepKind } from '@rm/storage';
import { removeFinishedJobsNaming, type FinishedJobsQueue } from './finished-jobs.js';

export interface RetentionSweepDeps {
  store: Pick<PrivacyStore, 'sweepRetention' | 'recordPrivacyAudit'>;
  blobs: BlobStore;
  /** The evidence workers' per-hash locks, held while bytes no item holds any more are deleted. */
  lock: HashLock;
  /** The chat platform the case messages live on; null leaves them (they are counted all the same). */
  chat: Pick<ChatPlatform, 'edit'> | null;
  /** Queues whose finished jobs may hold the erased reports (intake, evidence, decisions, notifications). */
  queues: FinishedJobsQueue[];
  now?: () => number;
}

export interface RetentionSweepOptions {
  /** How long each kind lives, in ms (the policy's `retention`, and the ladder's lookback for erased players: retentionMsOf). */
  retentionMs: Record<RetentionSweepKind, number>;
  keep: AnswerKeep;
  dryRun: boolean;
  actor: string;
  /** Cases (appeals, audit entries) per store transaction. */
  batchSize?: number;
  /** At most this many records examined per kind in one sweep; the rest waits for the next. */
  maxPerKind?: number;
  onProgress?: (event: { kind: RetentionSweepKind; examined: number; erased: number }) => void;
}

export interface RetentionKindAnswer {
  /** What counted from before this went (now minus the kind's duration). */
  before: number;
  examined: number;
  erased: number;
  kept: Partial<Record<RetentionKeptReason, number>>;
}

/** What a retention sweep did (or, in a dry run, would do), kind by kind. */
export interface RetentionSweepAnswer {
  requestId: string;
  dryRun: boolean;
  at: number;
  kinds: Record<RetentionSweepKind, RetentionKindAnswer>;
  /** Kept evidence of dismissed cases: items marked deleted, and files no item holds any more. */
  evidenceItems: number;
  evidenceFiles: number;
  /** Case messages rewritten without the player (or, in a dry run, to be). */
  chatMessages: number;
  /** Finished queue jobs naming what went. */
  queueJobs: number;
}

/** The kinds whose steps answer chat messages to rewrite. */
const WITH_MESSAGES: ReadonlySet<RetentionSweepKind> = new Set(['caseMessages', 'dismissedCases']);

/**
 * The retention sweep (docs/privacy.md#retention): for each kind, what came due more than its
 * duration ago is erased or pseudonymised, a page per store transaction, except what a legal hold,
 * an active sanction or a waiting appeal keeps (the store examines those again next time). Case
 * messages are rewritten on the chat platform before their page commits (a preview of the same
 * page first), so a platform that fails leaves the page for the job's retry; kept evidence bytes
 * no item holds go; finished queue jobs naming what went are removed. Recorded in the privacy audit
 * with its counts. A dry run changes nothing and answers the same counts.
 */
export async function sweepRetention(deps: RetentionSweepDeps, options: RetentionSweepOptions): Promise<RetentionSweepAnswer> {
  const now = (deps.now ?? Date.now)();
  const limit = options.batchSize ?? 100;
  const maxPerKind = options.maxPerKind ?? 100_000;
  const answer: RetentionSweepAnswer = {
    requestId: randomUUID(),
    dryRun: options.dryRun,
    at: now,
    kinds: Object.fromEntries(RETENTION_SWEEP_KINDS.map((kind) => [kind, { before: now - options.retentionMs[kind], examined: 0, erased: 0, kept: {} }])) as Record<RetentionSweepKind, RetentionKindAnswer>,
    evidenceItems: 0,
    evidenceFiles: 0,
    chatMessages: 0,
    queueJobs: 0,
  };
  const erasedIds = new Set<string>();
  for (const kind of RETENTION_SWEEP_KINDS) {
    const sum = answer.kinds[kind];
    for (let cursor: string | null = null; ; ) {
      const step = { kind, before: sum.before, cursor, limit, keep: options.keep, at: now };
      let out: RetentionStepOutcome;
      if (WITH_MESSAGES.has(kind) && deps.chat && !options.dryRun) {
        // The messages of the page first: if the platform fails, the page is not committed and the job's retry does it again.
        const preview = await deps.store.sweepRetention({ ...step, dryRun: true });
        answer.chatMessages += await rewrite(deps.chat, preview.caseMessages);
        out = await deps.store.sweepRetention({ ...step, dryRun: false });
        // A case undone in between may let another into the page: its message is rewritten after.
        const previewed = new Set(preview.caseMessages.map((m) => m.messageId));
        answer.chatMessages += await rewrite(deps.chat, out.caseMessages.filter((m) => !previewed.has(m.messageId)));
      } else {
        out = await deps.store.sweepRetention({ ...step, dryRun: options.dryRun });
        if (options.dryRun || !deps.chat) answer.chatMessages += out.caseMessages.length;
      }
      sum.examined += out.examined;
      sum.erased += out.erased;
      for (const [reason, n] of Object.entries(out.kept) as [RetentionKeptReason, number][]) sum.kept[reason] = (sum.kept[reason] ?? 0) + n;
      answer.evidenceItems += out.evidenceItems;
      for (const id of out.erasedIds) erasedIds.add(id);
      if (!options.dryRun && out.unheldBlobs.length > 0) {
        // The store no longer holds these bytes by any captured item (as after an erasure, erase-subject.ts).
        await deps.lock(out.unheldBlobs, async () => {
          for (const sha256 of new Set(out.unheldBlobs)) await deps.blobs.deleteBlob(sha256);
        });
      }
      answer.evidenceFiles += new Set(out.unheldBlobs).size;
      options.onProgress?.({ kind, examined: sum.examined, erased: sum.erased });
      if (out.cursor === null || sum.examined >= maxPerKind) break;
      cursor = out.cursor;
    }
  }
  if (!options.dryRun) answer.queueJobs = await removeFinishedJobsNaming(deps.queues, erasedIds);

  const detail: Record<string, number | boolean> = { dryRun: options.dryRun, evidenceItems: answer.evidenceItems, evidenceFiles: answer.evidenceFiles, chatMessages: answer.chatMessages, queueJobs: answer.queueJobs };
  for (const kind of RETENTION_SWEEP_KINDS) {
    const k = answer.kinds[kind];
    detail[kind] = k.erased;
    detail[`${kind}Kept`] = Object.values(k.kept).reduce((a, b) => a + b, 0);
  }
  // A sweep is about no one subject: the trail names none.
  await deps.store.recordPrivacyAudit({ action: 'retention', requestId: answer.requestId, subjectRef: '', actor: options.actor, at: now, detail });
  return answer;
}

/** Rewrites these case messages without the player; one already gone from the platform is skipped. */
async function rewrite(chat: Pick<ChatPlatform, 'edit'>, messages: RetentionStepOutcome['caseMessages']): Promise<number> {
  let rewritten = 0;
  for (const m of messages) {
    try {
      await chat.edit(m.channel, m.messageId, retainedCaseText(m.state, m.reports));
      rewritten += 1;
    } catch (err) {
      if (!(err instanceof MessageNotFoundError)) throw err;
    }
  }
  return rewritten;
}
