import type { EffectRelay } from '@rm/delivery';
import type { ChatPlatform } from '@rm/platforms';
import type { AccountStore, DecisionStore, EvidenceStore, ReportStore, SanctionStore, TriageStore } from '@rm/storage';
import type { DeadlineDeps } from './deadlines-deps.js';

/** Everything a decision talks to, built by main.ts. */
export interface DecideDeps extends DeadlineDeps {
  store: AccountStore & ReportStore & DecisionStore & SanctionStore & TriageStore & EvidenceStore;
  /** Used for the undo re-post only: its id is part of the answer. Everything else is an effect. */
  chat: ChatPlatform;
  /** Carries out the effects a committed decision recorded (Redis view, notifications, sanction webhook, expiry). */
  relay: EffectRelay;
  /** An effect that failed after the commit (it stays pending for the sweep). */
  onEffectError?: (err: unknown) => void;
  settings: { hideUsername: boolean; reportChannel: string };
}
