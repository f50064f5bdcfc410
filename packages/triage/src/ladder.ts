import { parseSanctionDuration } from '@rm/contracts';
import type { SanctionRecord, SanctionState } from '@rm/storage';
import { BUILT_IN_KINDS, lookbackMs, type KindPolicy, type TriagePolicy } from './policy.js';

// The case's category for the ladder is caseCategory (queue-settings.ts): its gravest.

/** Every kind the policy knows: the built-in ones, relabelled or added to by the policy's `kinds`. */
export function kindsOf(policy: TriagePolicy): Record<string, KindPolicy> {
  return { ...BUILT_IN_KINDS, ...policy.kinds };
}

/** The kind a warning is: restricts nothing, counts as an offence, is shown to the player. */
export const WARNING_KIND = 'warning';

/** A step the ladder proposes: `duration` as the policy wrote it, null (and durationMs null) for permanent. */
export interface ProposedStep {
  kind: string;
  duration: string | null;
  durationMs: number | null;
  /** Earlier offences counted (the step's index is min(offences, steps - 1)). */
  offences: number;
  /** 1-based step of the category's ladder, or null when the category has no ladder (a permanent ban). */
  step: number | null;
  category: string;
}

/** The states of a sanction that counts as an offence: lifted ones do not, nor a wave not effective yet. */
export const OFFENCE_STATES = ['active', 'expired'] as const satisfies readonly SanctionState[];

/**
 * The player's offences in `category`: their sanctions of that category created within the
 * lookback before `now`, active or expired (lifted ones are not counted, nor a wave not effective yet).
 */
export function offencesIn(policy: TriagePolicy, category: string, sanctions: Pick<SanctionRecord, 'category' | 'state' | 'createdAt' | 'effectiveAt'>[], now: number): number {
  const since = now - lookbackMs(policy.ladder.lookback)!;
  return sanctions.filter((s) => s.category === category && (OFFENCE_STATES as readonly string[]).includes(s.state) && (s.effectiveAt ?? s.createdAt) >= since).length;
}

/** The next step of the category's ladder for a player with these sanctions. */
export function proposeStep(policy: TriagePolicy, category: string, sanctions: Pick<SanctionRecord, 'category' | 'state' | 'createdAt' | 'effectiveAt'>[], now: number): ProposedStep {
  const offences = offencesIn(policy, category, sanctions, now);
  const steps = policy.ladder.steps[category];
  if (!steps || steps.length === 0) return { kind: 'ban', duration: null, durationMs: null, offences, step: null, category };
  const index = Math.min(offences, steps.length - 1);
  const step = steps[index]!;
  return { kind: step.kind, duration: step.duration ?? null, durationMs: step.duration === undefined ? null : parseSanctionDuration(step.duration), offences, step: index + 1, category };
}
