import { AppError } from '@rm/contracts';
import type { HoldTarget, PrivacySubject } from '@rm/storage';

/** Ids are compared exactly; a bound keeps a mistyped value (a file pasted) from reaching the store. */
const MAX_ID = 256;

function id(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID) {
    throw new AppError('VALIDATION_FAILED', `${field} must be a string of 1 to ${MAX_ID} characters`, [{ field, message: `1 to ${MAX_ID} characters` }]);
  }
  return value;
}

/**
 * A subject from what the CLI or the API was given: `userId` for a player, `platform` and
 * `reporterId` for a reporter, never both (the same request cannot be about two people).
 */
export function subjectOf(input: { userId?: unknown; platform?: unknown; reporterId?: unknown }): PrivacySubject {
  const player = input.userId !== undefined;
  const reporter = input.platform !== undefined || input.reporterId !== undefined;
  if (player === reporter) throw new AppError('VALIDATION_FAILED', 'name either userId (a player) or platform and reporterId (a reporter)', [{ field: 'userId', message: 'either userId or platform and reporterId' }]);
  if (player) return { kind: 'player', userId: id('userId', input.userId) };
  return { kind: 'reporter', platform: id('platform', input.platform), reporterId: id('reporterId', input.reporterId) };
}

/** How a subject reads in an answer: `player 42`, `reporter gameplatform:7`. */
export const describeSubject = (s: PrivacySubject) => (s.kind === 'player' ? `player ${s.userId}` : `reporter ${s.platform}:${s.reporterId}`);

export const HOLD_TARGET_TYPES = ['case', 'player', 'sanction'] as const;

export function holdTargetOf(type: unknown, targetId: unknown): HoldTarget {
  if (typeof type !== 'string' || !(HOLD_TARGET_TYPES as readonly string[]).includes(type)) {
    throw new AppError('VALIDATION_FAILED', `target.type must be one of ${HOLD_TARGET_TYPES.join(', ')}`, [{ field: 'target.type', message: HOLD_TARGET_TYPES.join(', ') }]);
  }
  return { type: type as HoldTarget['type'], id: id('target.id', targetId) };
}
