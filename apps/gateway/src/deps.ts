import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { UserDirectory } from '@rm/platforms';
import type { ReportGuard, SanctionStatusCache } from '@rm/report-guard';
import type { Metrics, Redis } from '@rm/runtime';
import type { Store } from '@rm/storage';
import type { GatewayConfig } from './config.js';
import type { Intake } from './intake/intake.js';
import type { DecisionBatches } from './use-cases/decision-batches.js';
import type { EvidenceDeps } from './use-cases/evidence-uploads.js';
import type { HashLock } from '@rm/evidence';
import type { ChatPlatform } from '@rm/platforms';
import type { FinishedJobsQueue } from '@rm/privacy';
import type { SessionLimits } from './staff/sessions.js';
import type { StaffSignIn } from './staff/staff-sign-in.js';
import type { AppealPageDeps } from './use-cases/appeal-link.js';

/** Everything the gateway talks to, built by main.ts (or a test) and handed to buildApp. */
export interface GatewayDeps {
  config: Pick<GatewayConfig, 'MAX_REPORTS_PER_DAY' | 'DECISION_TIMEOUT_MS' | 'KEY_CACHE_TTL_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'QUEUE_DASHBOARD' | 'TRIAGE_POLICY'> &
    Partial<Pick<GatewayConfig, 'TRUSTED_PROXIES'>> &
    Partial<Pick<GatewayConfig, 'CONSOLE'>>;
  logger: Logger;
  store: Store;
  redis: Redis;
  guard: ReportGuard;
  /** The ban API's answers, cached per player in Redis (derived state, rebuilt from the store on a miss). */
  sanctionCache: SanctionStatusCache;
  directory: UserDirectory;
  intakeQueue: Queue;
  /** Submits are checked and go to the intake queue through this, one job per event-loop turn. */
  intake: Intake;
  decisionsQueue: Queue;
  /** Decisions go to the moderation worker through this, one job per event-loop turn; their answers come back to its reply inbox. */
  decisions: DecisionBatches;
  /** The moderation worker's sanctions queue: the sanctions API's relay jobs and ban-wave activations. */
  sanctionsQueue: Queue;
  /** Further queues shown on the dashboard (those the gateway does not produce to). */
  dashboardQueues: Queue[];
  metrics: Metrics;
  /** Kept evidence and uploads (docs/evidence.md). */
  evidence: EvidenceDeps;
  /** The player's appeal page and its links (docs/appeals.md). */
  appealPage: AppealPageDeps;
  /**
   * What an erasure reaches beyond the store (docs/privacy.md): the chat platform's case messages,
   * the evidence workers' hash locks, finished queue jobs. Absent (tests): the store and Redis only.
   */
  /** Staff sign-in through the studio's identity provider (docs/console.md); absent: API keys only. */
  staff?: { signIn: StaffSignIn; limits: SessionLimits };
  privacy?: { chat: { platform: Pick<ChatPlatform, 'edit'>; hideUsername: boolean }; lock: HashLock; queues: FinishedJobsQueue[]; prefix: string };
}
