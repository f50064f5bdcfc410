import type { SanctionRecord } from '@rm/storage';
import { durationMs } from './duration.js';
import { lookbackMs, type TriagePolicy } from './policy.js';

/** The policy's appeals section in milliseconds: how long a sanction may be appealed, and by when an appeal should be decided. */
export interface AppealSettings {
  windowMs: number;
  slaMs: number;
}

export function appealSettingsOf(policy: TriagePolicy): AppealSettings {
  return { windowMs: lookbackMs(policy.appeals.window)!, slaMs: durationMs(policy.appeals.sla) };
}

/**
 * Whether a sanction was decided automatically: by a rule, or recorded as the system moderator.
 * Its appeal is still decided by a person (DSA Art. 20(6)), as every appeal is.
 */
export function isAutomatedSanction(policy: Pick<TriagePolicy, 'systemModeratorId'>, s: Pick<SanctionRecord, 'source' | 'moderatorId'>): boolean {
  return s.source.type === 'rule' || s.moderatorId === policy.systemModeratorId;
}
