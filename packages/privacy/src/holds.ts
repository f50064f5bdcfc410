import { randomUUID } from 'node:crypto';
import { AppError } from '@rm/contracts';
import type { HoldRecord, HoldTarget, PrivacyStore, ReportStore, SanctionStore } from '@rm/storage';

export const HOLD_REASON_MAX = 1_000;

/**
 * Places a legal hold (docs/privacy.md): a reason is required, an end (if any) must be in the
 * future, and a case or sanction must exist (a mistyped id would hold nothing while the real one
 * stays erasable). A player may be held before anything about them is stored.
 */
export async function placeHold(
  store: Pick<PrivacyStore, 'placeHold'> & Pick<ReportStore, 'getCase'> & Pick<SanctionStore, 'getSanction'>,
  request: { target: HoldTarget; reason: string; until: number | null; placedBy: string; id?: string; now?: number },
): Promise<HoldRecord> {
  const now = request.now ?? Date.now();
  const reason = request.reason.trim();
  if (reason.length === 0 || reason.length > HOLD_REASON_MAX) throw new AppError('VALIDATION_FAILED', `reason must be 1 to ${HOLD_REASON_MAX} characters`, [{ field: 'reason', message: `1 to ${HOLD_REASON_MAX} characters` }]);
  if (request.until !== null && request.until <= now) throw new AppError('VALIDATION_FAILED', 'until must be in the future', [{ field: 'until', message: 'in the future' }]);
  const { type, id } = request.target;
  if (type === 'case' && !(await store.getCase(id))) throw new AppError('NOT_FOUND', `no case ${id}`);
  if (type === 'sanction' && !(await store.getSanction(id))) throw new AppError('NOT_FOUND', `no sanction ${id}`);
  const { hold } = await store.placeHold({ id: request.id ?? randomUUID(), target: request.target, reason, until: request.until, placedBy: request.placedBy, placedAt: now });
  return hold;
}

/** Releases an active hold; an unknown one is NOT_FOUND, one already released or ended INVALID_STATE. */
export async function releaseHold(store: Pick<PrivacyStore, 'releaseHold' | 'getHold'>, request: { id: string; by: string; reason: string | null; now?: number }): Promise<HoldRecord> {
  const released = await store.releaseHold({ id: request.id, by: request.by, reason: request.reason, at: request.now ?? Date.now() });
  if (released) return released;
  const hold = await store.getHold(request.id);
  if (!hold) throw new AppError('NOT_FOUND', `no hold ${request.id}`);
  throw new AppError('INVALID_STATE', `hold ${request.id} is no longer active`);
}
