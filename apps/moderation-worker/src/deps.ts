import type { NotificationJob } from '@rm/contracts';
import type { ChatPlatform } from '@rm/platforms';
import type { ReportGuard } from '@rm/report-guard';
import type { Store } from '@rm/storage';

/** Everything a decision talks to, built by main.ts. */
export interface DecideDeps {
  store: Store;
  guard: ReportGuard;
  /** Used for the undo re-post only: its id is part of the answer. Everything else is a notification. */
  chat: ChatPlatform;
  notify: (job: NotificationJob) => Promise<void>;
  settings: { hideUsername: boolean; reportChannel: string };
}
