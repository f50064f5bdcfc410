import { isDecisionDeliveries, reporterDmOutcome, type DeadlineJob, type DecisionDeliveries, type NotificationJob, type SanctionEventView } from '@rm/contracts';
import { isBannedBy, sanctionVersion, type CaseChange, type UserStateSync } from '@rm/report-guard';
import type { DecisionStore, EffectRecord, NewEffect, ReportStore, SanctionEvent, SanctionEventType, SanctionRecord, SanctionStore } from '@rm/storage';
import type { EffectHandler } from './effect-relay.js';

/**
 * The effects a committed change can owe (DESIGN 14), each recorded in the change's transaction
 * and carried out by the EffectRelay with the handlers below. One home for their kinds and
 * payloads: the moderation worker (decisions, expiries) and the CLI (lifts) build them here.
 */
export interface EffectPayloads {
  /**
   * After an undo: the re-posted message is now the case's message (only while the undo is its
   * latest decision). Recorded by versions before the undo's transition set it itself.
   */
  'case.message': { caseId: string; channel: string; messageId: string; at: number };
  /** After an undo's re-post: the case's previous message (this one) says so, naming the current one. */
  'case.superseded': { caseId: string; channel: string; messageId: string };
  /** The guard's Redis view of the player: the ban flag (versioned), and the decided case's reporters. */
  'redis.user': { userId: string; caseId: string | null; change: 'close' | 'reopen' | null };
  /** A notification job (chat message sync, DMs, decision webhook). */
  notify: NotificationJob;
  /** The webhook of a sanction change, sent with its feed seq. */
  'sanction.webhook': { sanctionId: string; type: SanctionEventType };
  /** The delayed job that expires a temporary sanction. */
  'sanction.expiry': { sanctionId: string; expiresAt: number };
  /**
   * A decision's per-report work (each report's outcome, each reporter's credibility), finished
   * if the store left it unfinished (DecisionStore.settleDecision; the decision id is the source).
   */
  'reports.settle': { caseId: string };
  /** A delayed job on the deadlines queue (an appeal's SLA check, due at `dueAt`). */
  deadline: { job: DeadlineJob; dueAt: number };
}
export type EffectKind = keyof EffectPayloads;
export type EffectSpec = { [K in EffectKind]: { kind: K; payload: EffectPayloads[K] } }[EffectKind];

/**
 * How long before it is due a deadline or a sanction's expiry leaves the outbox for its delayed
 * job. Until then it waits in the store, and a change that makes it moot first (a decision after
 * the claim, a lift) leaves nothing to schedule (the `sanction.expiry` handler below; the
 * moderation worker's deadlineMoot). More than the sweep takes to find a due effect
 * (sanction-jobs.ts: every 5 s, pending for 10 s), so the job still fires on time.
 */
export const SCHEDULE_AHEAD_MS = 60_000;

/** When an effect of this spec is due: the deadlines and expiries wait (SCHEDULE_AHEAD_MS). */
function dueAt(s: EffectSpec): number | undefined {
  if (s.kind === 'deadline') return s.payload.dueAt;
  if (s.kind === 'sanction.expiry') return s.payload.expiresAt;
  return undefined;
}

/** Ids `<source>:<index>-<kind>`: deterministic, and ordered as recorded within a source. */
export function effectsOf(sourceId: string, specs: EffectSpec[]): NewEffect[] {
  return specs.map((s, i) => {
    const due = dueAt(s);
    return { id: `${sourceId}:${i}-${s.kind}`, kind: s.kind, payload: s.payload, ...(due !== undefined && { notBefore: due - SCHEDULE_AHEAD_MS }) };
  });
}

/** What a lift by hand or an expiry owes: the player's Redis view and the webhook of the change. */
export function sanctionEndEffects(s: SanctionRecord, type: 'sanction.lifted' | 'sanction.expired'): EffectSpec[] {
  return [
    { kind: 'redis.user', payload: { userId: s.userId, caseId: s.caseId, change: null } },
    { kind: 'sanction.webhook', payload: { sanctionId: s.id, type } },
  ];
}

/**
 * What a sanction taking effect without a decision owes (a trusted system's, or a wave's at its
 * start): the player's Redis view, the webhook of its creation, its expiry.
 */
export function sanctionStartEffects(s: Pick<SanctionRecord, 'id' | 'userId' | 'caseId' | 'expiresAt'>): EffectSpec[] {
  return [
    { kind: 'redis.user', payload: { userId: s.userId, caseId: s.caseId, change: null } },
    { kind: 'sanction.webhook', payload: { sanctionId: s.id, type: 'sanction.created' } },
    ...(s.expiresAt !== null ? [{ kind: 'sanction.expiry' as const, payload: { sanctionId: s.id, expiresAt: s.expiresAt } }] : []),
  ];
}

/** The source id of a lift by hand / an expiry of a sanction (each happens at most once). */
export const sanctionEndSource = (type: 'sanction.lifted' | 'sanction.expired', sanctionId: string) =>
  `${type === 'sanction.lifted' ? 'lift' : 'expire'}-${sanctionId}`;

export interface EffectDeps {
  store: ReportStore & DecisionStore & SanctionStore;
  userSync: UserStateSync;
  notify: (job: NotificationJob) => Promise<void>;
  /** Whether a webhook is configured anywhere (WebhookFlag): without one, a sanction's webhook job is not queued. */
  webhookConfigured: () => Promise<boolean>;
  scheduleExpiry: (sanctionId: string, expiresAt: number) => Promise<void>;
  /**
   * Puts a deadline job on its queue (idempotent: its job id derives from what it is about), unless
   * what it times has moved on meanwhile (the moderation worker knows which).
   */
  scheduleDeadline: (job: DeadlineJob, dueAt: number) => Promise<void>;
  /** Edits a case's superseded message to point at the case's message now (markSuperseded in @rm/platforms). */
  markSuperseded: (caseId: string, previous: { channel: string; messageId: string }) => Promise<void>;
}

export const toEventView = (e: SanctionEvent): SanctionEventView => ({
  seq: e.seq,
  type: e.type,
  sanctionId: e.sanctionId,
  userId: e.userId,
  caseId: e.caseId,
  kind: e.kind,
  expiresAt: e.expiresAt,
  at: e.at,
  ...(e.cause && { cause: e.cause }),
  ...(e.appeal && { appeal: e.appeal }),
  statement: e.statement,
});

/**
 * Whether a decision's deliveries job would send anything: the decision webhook, or a DM to a
 * chat-platform reporter (fan-out.ts in the notification worker sends them). When not, it is not
 * queued: most decisions of a game without a webhook would queue a job that does nothing.
 */
async function deliversAnything(deps: EffectDeps, job: DecisionDeliveries): Promise<boolean> {
  if (await deps.webhookConfigured()) return true;
  if (reporterDmOutcome(job) === null) return false;
  return (await deps.store.caseReporters(job.caseId)).some((r) => r.platform === 'chatplatform');
}

/** The handler of every effect kind; each is idempotent. */
export function effectHandlers(deps: EffectDeps): Record<EffectKind, EffectHandler> {
  const payload = <K extends EffectKind>(e: EffectRecord) => e.payload as EffectPayloads[K];
  return {
    'case.message': async (e) => {
      const p = payload<'case.message'>(e);
      // Only while the undo is still the case's last decision (a later one's message stands).
      if ((await deps.store.lastCaseEvent(p.caseId))?.decisionId !== e.sourceId) return;
      await deps.store.setCaseMessage({ caseId: p.caseId, channel: p.channel, messageId: p.messageId, updatedAt: p.at });
    },
    'case.superseded': async (e) => {
      const p = payload<'case.superseded'>(e);
      await deps.markSuperseded(p.caseId, { channel: p.channel, messageId: p.messageId });
    },
    'redis.user': async (e) => {
      const p = payload<'redis.user'>(e);
      const tally = await deps.store.sanctionTallyOfUser(p.userId);
      const version = sanctionVersion(tally);
      let change: CaseChange = null;
      if (p.change && p.caseId !== null) {
        const c = await deps.store.getCase(p.caseId);
        const isOpen = c?.state === 'open' || c?.state === 'claimed';
        // Only while the case is still as this change left it (a later decision syncs its own).
        if (c && isOpen === (p.change === 'reopen')) change = { kind: p.change, reporters: await deps.store.caseReporters(p.caseId) };
      }
      // Invalidates the ban API's cached answer too (a tombstone of the version).
      await deps.userSync.apply(p.userId, { version, banned: isBannedBy(tally) }, change);
    },
    notify: async (e) => {
      const job = payload<'notify'>(e);
      if (isDecisionDeliveries(job) && !(await deliversAnything(deps, job))) return;
      await deps.notify(job);
    },
    'sanction.webhook': async (e) => {
      if (!(await deps.webhookConfigured())) return;
      const p = payload<'sanction.webhook'>(e);
      const event = (await deps.store.sanctionEventsOf(p.sanctionId)).find((ev) => ev.type === p.type);
      // None when the change did not happen (an undo whose sanction had expired first).
      if (event) await deps.notify({ kind: 'sanction.webhook', body: { ...toEventView(event), event: event.type } });
    },
    'sanction.expiry': async (e) => {
      const p = payload<'sanction.expiry'>(e);
      // Lifted (an undo, an appeal) or ended while it waited: there is nothing left to expire.
      const s = await deps.store.getSanction(p.sanctionId);
      if (s && (s.state === 'active' || s.state === 'scheduled')) await deps.scheduleExpiry(p.sanctionId, p.expiresAt);
    },
    'reports.settle': async (e) => {
      await deps.store.settleDecision(e.sourceId);
    },
    deadline: async (e) => {
      const p = payload<'deadline'>(e);
      await deps.scheduleDeadline(p.job, p.dueAt);
    },
  };
}
