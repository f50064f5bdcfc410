import { Command } from 'commander';
import { CliError, print, table, type CliContext } from '../context.js';

export function caseCommand(ctx: () => CliContext): Command {
  const cmd = new Command('case').description('cases of reports');
  cmd
    .command('history <reportId>')
    .description("the audit log of a report's case: every decision, oldest first, then its sanction's appeals")
    .action(async (reportId: string) => {
      const store = await ctx().getStore();
      const report = await store.getReport(reportId);
      if (!report) throw new CliError(`no report ${reportId}`);
      const c = await store.getCase(report.caseId);
      const events = await store.caseHistory(report.caseId);
      const reports = await store.caseReportIds(report.caseId);
      print(`case ${report.caseId} about user ${report.userId}: ${c?.state ?? 'unknown'}${c?.claimedBy ? ` (claimed by ${c.claimedBy})` : ''}, ${reports.length} report(s)`);
      if (events.length === 0) {
        print('no decisions yet');
        return;
      }
      table(
        ['WHEN', 'ACTION', 'MODERATOR', 'FROM', 'TO'],
        events.map((e) => [new Date(e.at).toISOString(), e.action, e.moderatorId, e.fromState, e.toState]),
      );
      // The appeals of the case's sanction, each with its story (docs/appeals.md).
      const appeals = await store.listAppeals({ states: ['open', 'claimed', 'upheld', 'overturned'], caseId: report.caseId, limit: 100 });
      for (const a of appeals) {
        print(`appeal ${a.id} of sanction ${a.sanctionId}: ${a.state}`);
        table(
          ['WHEN', 'ACTION', 'MODERATOR', 'FROM', 'TO', 'REASON'],
          (await store.appealHistory(a.id)).map((e) => [new Date(e.at).toISOString(), `appeal.${e.action}`, e.moderatorId ?? '(game)', e.fromState ?? '-', e.toState, e.reason ?? '']),
        );
      }
    });
  return cmd;
}
