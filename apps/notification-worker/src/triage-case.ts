import { refreshTriage, type Rule } from '@rm/triage';
import type { NotificationDeps } from './deps.js';

type Deps = Pick<NotificationDeps, 'store' | 'chat' | 'settings' | 'triage'>;

/**
 * Recomputes the case's triage before its chat message is written (the caller holds the case's
 * lock), and carries out the automatic rules that fire for the first time: `escalate` posts to
 * the escalation channel, once per case and rule (the dedupe key makes a retried post the same).
 */
export async function triageCase(deps: Deps, caseId: string): Promise<void> {
  await refreshTriage(
    {
      store: deps.store,
      policy: deps.triage.policy,
      act: async (rule: Rule, id, triage) => {
        switch (rule.action.type) {
          case 'escalate': {
            const c = await deps.store.getCase(id);
            const who = c ? `user ${c.userId}` : 'a player';
            await deps.chat.post(deps.triage.escalationChannel, {
              kind: 'case.escalated',
              content: `Escalated case ${id} about ${who}: rule ${rule.id} (${rule.minReporters}+ credible reporters of ${rule.category} within ${rule.window}); priority ${triage.priority}, ${triage.reportCount} report(s)`,
              dedupeKey: `escalation-${id}-${rule.id}`,
            });
            return;
          }
          case 'sanction':
            // Refused by the policy's validation until temporary bans exist; never reached.
            throw new Error(`rule ${rule.id}: the sanction action is not available in this build`);
        }
      },
    },
    caseId,
  );
}
