import { caseMessageText, loadCaseView, MessageNotFoundError } from '@rm/platforms';
import type { NotificationDeps } from './deps.js';
import { triageCase } from './triage-case.js';

type Deps = Pick<NotificationDeps, 'store' | 'chat' | 'lockCase' | 'syncMarks' | 'settings' | 'triage'>;

/**
 * Brings the case's chat message in line with the case as stored now: posts it when the case has
 * none yet (or it was deleted on the platform), else edits it. Every `case.*` notification does
 * this, so order does not matter: whichever runs last shows the latest state. The lock keeps two
 * jobs of one case from both posting.
 */
export async function syncCaseMessage(deps: Deps, caseId: string): Promise<{ messageId: string; action: 'posted' | 'edited' }> {
  return deps.lockCase(caseId, async () => {
    // From here on, a newly stored report is not covered by this sync: it must queue its own.
    await deps.syncMarks.clear(caseId);
    // Every report stored and every decision comes through here: the triage is kept current, and the message shows its flags.
    await triageCase(deps, caseId);
    const view = await loadCaseView(deps.store, caseId);
    if (!view) throw new Error(`case ${caseId} not found`);
    const content = caseMessageText(view, deps.settings.hideUsername);
    const current = await deps.store.getCaseMessage(caseId);
    if (current) {
      try {
        await deps.chat.edit(current.channel, current.messageId, content);
        return { messageId: current.messageId, action: 'edited' as const };
      } catch (err) {
        if (!(err instanceof MessageNotFoundError)) throw err;
      }
    }
    const posted = await deps.chat.post(deps.settings.reportChannel, {
      kind: current ? 'case.reposted' : 'case.opened',
      content,
      // Stable across retries of this post, new once the message it replaces is gone.
      dedupeKey: `case-${caseId}-after-${current?.messageId ?? 'none'}`,
    });
    await deps.store.setCaseMessage({ caseId, channel: deps.settings.reportChannel, messageId: posted.id, updatedAt: Date.now() });
    return { messageId: posted.id, action: 'posted' as const };
  });
}
