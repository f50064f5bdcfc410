import type { Queue } from 'bullmq';
import {
  AppError,
  jobIdFor,
  NewSanctionBody,
  parseSanctionDuration,
  SANCTIONS_API_LIMITS,
  type FieldError,
  type SanctionBatchResult,
  type SanctionJob,
  type SanctionView,
} from '@rm/contracts';
import { effectsOf, sanctionEndEffects, sanctionEndSource, sanctionStartEffects } from '@rm/delivery';
import { carryingTrace, uuidv7 } from '@rm/runtime';
import type { AccountStore, ApiKeyRecord, NewSanction, SanctionRecord, SanctionStore } from '@rm/storage';
import { sanctionVersion, type SanctionStatusCache } from '@rm/report-guard';
import { assembleStatement, kindsOf, type TriagePolicy } from '@rm/triage';
import { keyHasPermission } from './key-permissions.js';
import { unknownName } from './known-kinds.js';
import { fieldsChangedSince } from './sanction-retries.js';
import { creatorNames, toView } from './sanction-status.js';

export interface TrustedSanctionDeps {
  store: SanctionStore & AccountStore;
  policy: TriagePolicy;
  /** The moderation worker's queue: relay jobs (carry out effects now) and wave activations. */
  sanctionsQueue: Queue;
  /** The ban API's cache, refreshed before answering so a game server asking next sees the change. */
  statusCache: SanctionStatusCache;
  onQueueError: (err: unknown) => void;
  /** The request's traceparent, carried by the jobs (http/tracing.ts). */
  trace?: string | undefined;
}

/**
 * Writes the players' new sanction versions into the ban API's cache (tombstones), so the ban API
 * answers the change as soon as the caller has its answer. The relay's effect does the same
 * moments later, and does it anyway if Redis fails here.
 */
async function refreshStatus(deps: TrustedSanctionDeps, userIds: string[]): Promise<void> {
  await Promise.all(
    [...new Set(userIds)].map(async (userId) => {
      const version = sanctionVersion(await deps.store.sanctionTallyOfUser(userId));
      await deps.statusCache.invalidate(userId, version).catch(deps.onQueueError);
    }),
  );
}

/** A valid item keeps what a retry is compared by: its duration as asked, and where its key is in the body. */
type Checked = { ok: true; item: NewSanction; durationMs: number | null; keyField: string } | { ok: false; message: string; errors: FieldError[] };

/**
 * One item as a storable sanction, or why it is refused: the body's shape (zod), then the
 * policy's kinds and categories. `prefix` names the field within a batch (`items.3.kind`).
 */
function check(deps: TrustedSanctionDeps, caller: ApiKeyRecord, raw: unknown, prefix: string, startAt: number, scheduled: boolean): Checked {
  const parsed = NewSanctionBody.safeParse(raw);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({ field: [prefix, ...i.path].filter((p) => p !== '').join('.') || prefix, message: i.message }));
    return { ok: false, message: errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors };
  }
  const body = parsed.data;
  const kinds = kindsOf(deps.policy);
  const field = (name: string) => (prefix ? `${prefix}.${name}` : name);
  for (const [name, value, known, what] of [
    ['kind', body.kind, Object.keys(kinds), 'kinds'],
    ['category', body.category, Object.keys(deps.policy.categories), 'categories'],
  ] as const) {
    if (!known.includes(value)) {
      const e = unknownName(field(name), what, [...known]);
      return { ok: false, message: e.message, errors: e.errors! };
    }
  }
  const id = uuidv7();
  const durationMs = body.duration === undefined ? null : parseSanctionDuration(body.duration)!;
  const expiresAt = durationMs === null ? null : startAt + durationMs;
  // A wave's effects are recorded when it takes effect (the moderation worker's activation).
  const effects = scheduled ? [] : effectsOf(id, sanctionStartEffects({ id, userId: body.userId, caseId: null, expiresAt }));
  // A trusted system detects by itself (own initiative, automated); it says whether a person decided.
  const statement = assembleStatement(deps.policy, {
    category: body.category,
    kind: body.kind,
    from: startAt,
    until: expiresAt,
    reason: body.reason,
    origin: 'own_initiative',
    reports: null,
    evidence: (body.evidence ?? []).map((e) => ({ url: e.url, sha256: null })),
    automatedDetection: true,
    automatedDecision: body.automatedDecision ?? 'fully',
    illegalContent: body.illegalContent,
    issuedAt: Date.now(),
  });
  return {
    ok: true,
    durationMs,
    keyField: field('idempotencyKey'),
    item: {
      id,
      userId: body.userId,
      kind: body.kind,
      blocksLogin: kinds[body.kind]!.blocksLogin,
      category: body.category,
      source: body.source,
      idempotencyKey: body.idempotencyKey,
      evidence: body.evidence ?? [],
      reason: body.reason,
      // The key's own: its idempotency keys are scoped to it, and it lifts its own sanctions.
      moderatorId: caller.key,
      // A moderator's key: that moderator decided it too (and may not decide its appeal).
      boundModeratorId: caller.moderatorId,
      expiresAt,
      statement,
      effects,
    },
  };
}

async function views(store: AccountStore, sanctions: SanctionRecord[]): Promise<SanctionView[]> {
  const names = await creatorNames(store, sanctions);
  return sanctions.map((s) => toView(s, names.get(s.moderatorId) ?? s.moderatorId));
}

/** Queues a sanctions job; Redis refusing it is only logged: the sweep does the same within seconds. */
async function enqueue(deps: TrustedSanctionDeps, job: SanctionJob, delay = 0): Promise<void> {
  await deps.sanctionsQueue.add(job.kind, carryingTrace(job, deps.trace), { jobId: jobIdFor.sanctions(job), delay, removeOnComplete: 1000, removeOnFail: 5000 }).catch(deps.onQueueError);
}

/** An item whose key already named a sanction of the caller: a retry, or a conflict when it asks for something else. */
function existed(c: Extract<Checked, { ok: true }>, stored: SanctionRecord, shown: SanctionView): SanctionBatchResult {
  const changed = fieldsChangedSince(stored, c.item, c.durationMs);
  if (changed.length === 0) return { status: 'existed', sanction: shown };
  const message = `idempotencyKey ${c.item.idempotencyKey} already names sanction ${stored.id}, which has another ${changed.join(', ')}: a retry must repeat the request, a new sanction needs a new key`;
  return { status: 'conflict', message, errors: [{ field: c.keyField, message }] };
}

/**
 * POST /v1/sanctions and /v1/sanctions/batch. Every valid item is stored in one transaction with
 * the effects it owes (the outbox), idempotent on its key within the caller's key (another
 * system's same key is its own); a key reused with other fields is a conflict and stores nothing.
 * The relay job then carries the effects out (the sweep would, had Redis refused the job). A wave
 * with effectiveAt is stored scheduled, and a delayed job activates it then (the sweep again being
 * the backstop).
 */
export async function createTrustedSanctions(
  deps: TrustedSanctionDeps,
  caller: ApiKeyRecord,
  rawItems: unknown[],
  options: { prefix: (index: number) => string; effectiveAt: string | undefined },
): Promise<SanctionBatchResult[]> {
  const now = Date.now();
  let effectiveAt: number | null = null;
  if (options.effectiveAt !== undefined) {
    const at = Date.parse(options.effectiveAt);
    if (at - now > SANCTIONS_API_LIMITS.maxScheduleAheadMs) {
      const message = 'effectiveAt must be at most 30 days ahead';
      throw new AppError('VALIDATION_FAILED', message, [{ field: 'effectiveAt', message }]);
    }
    // A time already past (a retry after the wave began) is effective now.
    if (at > now) effectiveAt = at;
  }
  const checked = rawItems.map((raw, i) => check(deps, caller, raw, options.prefix(i), effectiveAt ?? now, effectiveAt !== null));
  const valid = checked.flatMap((c) => (c.ok ? [c.item] : []));
  const sourceId = `api-${uuidv7()}`;
  const stored = valid.length > 0 ? await deps.store.createSanctions({ items: valid, at: now, effectiveAt, sourceId }) : [];
  if (stored.some((s) => s.created)) {
    if (effectiveAt === null) await refreshStatus(deps, stored.filter((s) => s.created).map((s) => s.sanction.userId));
    if (effectiveAt === null) await enqueue(deps, { kind: 'relay', sourceId });
    else await enqueue(deps, { kind: 'activate', at: effectiveAt }, effectiveAt - Date.now());
  }
  const shown = await views(deps.store, stored.map((s) => s.sanction));
  let next = 0;
  return checked.map((c): SanctionBatchResult => {
    if (!c.ok) return { status: 'refused', message: c.message, errors: c.errors };
    const i = next++;
    return stored[i]!.created ? { status: 'created', sanction: shown[i]! } : existed(c, stored[i]!.sanction, shown[i]!);
  });
}

/**
 * POST /v1/sanctions/{sanctionId}/lift: lifts an active (or scheduled) sanction with the caller's
 * key as who lifted it; a sanction already ended is answered as it is (lifted: false). A key lifts
 * only the sanctions it created, unless it holds sanctions.lift_any (one system must not undo
 * another's, nor a moderator's approval).
 */
export async function liftTrustedSanction(deps: TrustedSanctionDeps, caller: ApiKeyRecord, sanctionId: string, reason: string): Promise<{ lifted: boolean; sanction: SanctionView }> {
  const s = await deps.store.getSanction(sanctionId);
  if (!s) throw new AppError('NOT_FOUND', `Sanction ${sanctionId} not found`);
  const own = s.caseId === null && s.moderatorId === caller.key;
  if (!own && !keyHasPermission(caller, 'sanctions.lift_any')) {
    throw new AppError('FORBIDDEN', `Sanction ${sanctionId} was not created by this API key: lifting it needs the sanctions.lift_any permission`);
  }
  let lifted: SanctionRecord | null = null;
  if (s.state === 'active' || s.state === 'scheduled') {
    const sourceId = sanctionEndSource('sanction.lifted', sanctionId);
    lifted = await deps.store.liftSanction({ sanctionId, at: Date.now(), moderatorId: caller.key, reason, sourceId, effects: effectsOf(sourceId, sanctionEndEffects(s, 'sanction.lifted')) });
    if (lifted) {
      await refreshStatus(deps, [lifted.userId]);
      await enqueue(deps, { kind: 'relay', sourceId });
    }
  }
  const [view] = await views(deps.store, [lifted ?? (await deps.store.getSanction(sanctionId))!]);
  return { lifted: lifted !== null, sanction: view! };
}
