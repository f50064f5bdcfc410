import { caseCategory, durationMs, refreshTriage, type Rule } from '@rm/triage';
import type { ReporterStore, ReportStore, TriageStore } from '@rm/storage';
import type { NotificationDeps } from './deps.js';

type Deps = Pick<NotificationDeps, 'chat' | 'settings' | 'triage'> & { store: ReportStore & TriageStore & ReporterStore };

/**
 * Recomputes the case's triage before its chat message is written (the caller holds the case's
 * lock), and carries out the automatic rules that fire for the first time: `escalate` posts to
 * the escalation channel, once per case and rule (the dedupe key makes a retried post the same);
 * `sanction` queues an approval by the policy's system moderator: the rule's kind and duration, or
 * the ladder's next step when it names neither.
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
          case 'sanction': {
            // An approval by the system moderator through the decisions queue, like a moderator's: recorded,
            // with its sanction, feed event and webhook, and undoable. Its id is the case's and the rule's, so
            // a repeated action is the same decision (the moderation worker answers it again, changing nothing).
            const [reportId] = await deps.store.caseReportIds(id);
            if (reportId === undefined) return;
            await deps.triage.decide({
              action: 'approve',
              decisionId: `rule-${id}-${rule.id}`,
              reportId,
              moderatorId: deps.triage.policy.systemModeratorId,
              ruleId: rule.id,
              // The triage that fired the rule is stored only after this action: its category goes along.
              category: caseCategory(deps.triage.policy, triage),
              // A rule naming neither kind nor duration takes the ladder's next step.
              ...(rule.action.kind !== undefined && { kind: rule.action.kind }),
              ...(rule.action.duration !== undefined && { durationMs: durationMs(rule.action.duration) }),
              sanctionReason: `automatic triage rule ${rule.id}`,
              // Its chat-platform reporters learn that action was taken, as after a moderator's approval.
              dm: true,
            });
            return;
          }
        }
      },
    },
    caseId,
  );
}
