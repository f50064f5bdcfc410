import type { NotificationJob } from '@rm/contracts';
import type { ChatPlatform } from '@rm/platforms';
import type { ReportGuard } from '@rm/report-guard';
import type { Store } from '@rm/storage';
import type { DeadlineDeps } from './deadlines-deps.js';

/** Everything a decision talks to, built by main.ts. */
export interface DecideDeps extends DeadlineDeps {
  store: Store;
  guard: ReportGuard;
  /** Used for the undo re-post only: its id is part of the answer. Everything else is a notification. */
  chat: ChatPlatform;
  notify: (job: NotificationJob) => Promise<void>;
  settings: { hideUsername: boolean; reportChannel: string };
}
