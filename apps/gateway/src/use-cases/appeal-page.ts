import type { AutomatedDecision } from '@rm/contracts';
import type { AppealRecord, AppealStore, SanctionRecord, SanctionState } from '@rm/storage';
import { appealSettingsOf, BUILT_IN_KINDS, isAutomatedSanction, kindsOf, statedDescriptionIn, type TriagePolicy } from '@rm/triage';
import { isPageKind, LANGUAGES, type Language, type PageKind } from '../appeal-page/strings.js';
import { appealRefusal, type AppealRefusal } from './submit-appeal.js';

/**
 * The decision as the player's page tells it: the statement of reasons stored with the sanction
 * (never assembled again), read into what the page says. A sanction from before statements has
 * only its kind, times and reason.
 */
export interface DecisionFacts {
  kind: string;
  /** The label stored with the statement (the policy's today for a sanction without one). */
  label: string;
  /** The label is the built-in kind's own, which the page says in its language. */
  builtInKind: PageKind | null;
  state: SanctionState;
  /** When a lifted or expired sanction ended. */
  endedAt: number | null;
  from: number;
  /** null: permanent. */
  until: number | null;
  /** False for a sanction from before statements of reasons. */
  stated: boolean;
  clause: string | null;
  law: string | null;
  /** The category's public description in each language of the page. */
  description: Record<Language, string> | null;
  /** Why, when it says more than the description: the illegal ground's explanation or the moderator's reason. */
  why: string | null;
  origin: 'reports' | 'own_initiative' | null;
  automatedDetection: boolean;
  automatedDecision: AutomatedDecision;
  appealUntil: number;
}

export interface AppealPageView {
  decision: DecisionFacts;
  /** The sanction's appeal, filed here or by the game (one per sanction). */
  appeal: AppealRecord | null;
  /** Without an appeal: why none can be filed now; null: the form is shown. */
  refusal: AppealRefusal | null;
  /** When the appeal should be decided by (its SLA's end). */
  dueAt: number | null;
}

function decisionFacts(policy: TriagePolicy, s: SanctionRecord, windowMs: number): DecisionFacts {
  const st = s.statement;
  const label = st?.restriction.label ?? kindsOf(policy)[s.kind]?.label ?? s.kind;
  const builtIn = isPageKind(s.kind) && BUILT_IN_KINDS[s.kind]?.label === label ? s.kind : null;
  const from = st?.restriction.from ?? s.effectiveAt ?? s.createdAt;
  const common = {
    kind: s.kind,
    label,
    builtInKind: builtIn,
    state: s.state,
    endedAt: s.state === 'lifted' ? s.liftedAt : s.state === 'expired' ? s.expiresAt : null,
    from,
  };
  if (st === null) {
    return {
      ...common,
      until: s.expiresAt,
      stated: false,
      clause: null,
      law: null,
      description: null,
      why: s.reason,
      origin: null,
      automatedDetection: false,
      automatedDecision: isAutomatedSanction(policy, s) ? 'fully' : 'not',
      appealUntil: from + windowMs,
    };
  }
  const description = Object.fromEntries(LANGUAGES.map((l) => [l, statedDescriptionIn(policy, st.facts, l)])) as Record<Language, string>;
  return {
    ...common,
    until: st.restriction.until,
    stated: true,
    clause: st.ground.clause,
    law: st.ground.law,
    description,
    why: st.ground.explanation === st.facts.publicDescription ? null : st.ground.explanation,
    origin: st.facts.origin,
    automatedDetection: st.automation.automatedDetection,
    automatedDecision: st.automation.automatedDecision,
    appealUntil: st.redress.appealUntil,
  };
}

/**
 * What the page shows for a player's sanction: the decision, and its appeal (pending or decided),
 * or the form, or why no appeal can be filed (the same rule POST /v1/appeals applies).
 */
export async function appealPageView(deps: { store: AppealStore; policy: TriagePolicy }, sanction: SanctionRecord, now = Date.now()): Promise<AppealPageView> {
  const settings = appealSettingsOf(deps.policy);
  const [appeal = null] = await deps.store.listAppeals({ states: ['open', 'claimed', 'upheld', 'overturned'], sanctionId: sanction.id, limit: 1 });
  return {
    decision: decisionFacts(deps.policy, sanction, settings.windowMs),
    appeal,
    refusal: appeal === null ? appealRefusal(sanction, settings.windowMs, now) : null,
    dueAt: appeal === null ? null : appeal.createdAt + settings.slaMs,
  };
}
