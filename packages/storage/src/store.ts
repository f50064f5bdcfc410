import type { AccountStore } from './ports/accounts.js';
import type { ReportStore } from './ports/reports.js';
import type { DecisionStore } from './ports/decisions.js';
import type { SanctionStore } from './ports/sanctions.js';
import type { EffectStore } from './ports/effects.js';
import type { TriageStore } from './ports/triage.js';
import type { ReporterStore } from './ports/reporters.js';
import type { EvidenceStore } from './ports/evidence.js';
import type { AppealStore } from './ports/appeals.js';
import type { TransparencyStore } from './ports/transparency.js';
import type { PrivacyStore } from './ports/privacy.js';

/**
 * The whole storage port: every aggregate's port (ports/), one store behind them all. Only a
 * composition root (an app's main.ts, the CLI's context, a test) holds a Store; a use case takes
 * the ports it uses (lint keeps Store out of them), so its signature shows what it reads and writes.
 * Every method is safe to call from several processes at once.
 */
export interface Store
  extends AccountStore,
    ReportStore,
    DecisionStore,
    SanctionStore,
    EffectStore,
    TriageStore,
    ReporterStore,
    EvidenceStore,
    AppealStore,
    TransparencyStore,
    PrivacyStore {
  readonly kind: 'sqlite' | 'mongodb';
  close(): Promise<void>;
}
