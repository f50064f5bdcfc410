import type { DecisionJob, NotificationJob } from '@rm/contracts';
import type { ChatPlatform, DecisionWebhook } from '@rm/platforms';
import type { CaseSyncMarks } from '@rm/delivery';
import type { AccountStore, DecisionStore, ReporterStore, ReportStore, SanctionStore, TriageStore } from '@rm/storage';
import type { TriagePolicy } from '@rm/triage';

/** Everything the notification use cases talk to, built by main.ts. */
export interface NotificationDeps {
  store: ReportStore & TriageStore & ReporterStore & AccountStore & DecisionStore & SanctionStore;
  chat: ChatPlatform;
  /** null when DECISION_WEBHOOK_URL is not set. */
  webhook: DecisionWebhook | null;
  notify: (job: NotificationJob) => Promise<void>;
  /** Which cases have a report sync queued and not started (see CaseSyncMarks). */
  syncMarks: Pick<CaseSyncMarks, 'clear'>;
  /** Runs `fn` holding the case's message lock: one writer per case message at a time. */
  lockCase: <T>(caseId: string, fn: () => Promise<T>) => Promise<T>;
  settings: { reportChannel: string; hideUsername: boolean };
  /** The triage policy, where escalations are posted, and how a rule's sanction is handed to the moderation worker. */
  triage: { policy: TriagePolicy; escalationChannel: string; decide: (job: DecisionJob) => Promise<void> };
}
