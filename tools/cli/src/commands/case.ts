import { Command } from 'commander';
import { CliError, print, table, type CliContext } from '../context.js';

export function caseCommand(ctx: () => CliContext): Command {
  const cmd = new Command('case').description('cases of reports');
  cmd
    .command('history <reportId>')
    .description("the audit log of a report's case: every decision, oldest first")
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
    });
  return cmd;
}
