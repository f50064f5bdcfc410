import { Command } from 'commander';
import { CASE_CREATED_OPENING } from '@rm/contracts';
import { createDeadlines } from '@rm/runtime';
import { allOpenCases } from '@rm/storage';
import { caseCategory, policyFromEnv, queueSettingsOf } from '@rm/triage';
import { print, type CliContext } from '../context.js';

export function deadlinesCommand(ctx: () => CliContext): Command {
  const cmd = new Command('deadlines').description('claim expiries and SLA checks (the deadlines queue)');
  cmd
    .command('schedule')
    .description('schedules the SLA check of every open case and the expiry of every claim, as the services do when cases open and claims land (for cases from before an upgrade); repeating it schedules nothing twice')
    .action(async () => {
      // The services' TRIAGE_POLICY: its claimTtl and sla time the deadlines; a bad file fails in one line naming the field.
      const triagePolicy = policyFromEnv();
      const policy = queueSettingsOf(triagePolicy);
      const context = ctx();
      const store = await context.getStore();
      const deadlines = createDeadlines(await context.redis(), context.config.KEY_PREFIX);
      try {
        const cases = await allOpenCases(store);
        let claims = 0;
        for (const c of cases) {
          const history = await store.caseHistory(c.caseId);
          const undo = history.findLast((e) => e.action === 'undo');
          const opening = undo ? { id: undo.decisionId, at: undo.at } : { id: CASE_CREATED_OPENING, at: c.createdAt };
          const category = caseCategory(triagePolicy, await store.getCaseTriage(c.caseId));
          await deadlines.schedule({ kind: 'sla.check', caseId: c.caseId, openingId: opening.id, category }, opening.at + policy.slaMs(category));
          // A claimed case's latest decision is its claim: only a claim leads to that state.
          const claim = history.at(-1);
          if (c.state === 'claimed' && claim?.action === 'claim') {
            await deadlines.schedule({ kind: 'claim.expiry', caseId: c.caseId, claimDecisionId: claim.decisionId }, claim.at + policy.claimTtlMs);
            claims++;
          }
        }
        print(`deadlines of ${cases.length} open case(s) scheduled (${claims} claim expiry(ies)); overdue ones run at once`);
      } finally {
        await deadlines.close();
      }
    });
  return cmd;
}
