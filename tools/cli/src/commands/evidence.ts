import { Command } from 'commander';
import { z } from 'zod';
import { evidenceConfigShape, noHashLock, openBlobStore, redisHashLock, sweepEvidence } from '@rm/evidence';
import { commonConfig, loadConfig } from '@rm/runtime';
import { evidenceRetentionMs, policyFromEnv } from '@rm/triage';
import { print, table, type CliContext } from '../context.js';

const evidenceCliConfig = commonConfig.extend(evidenceConfigShape);

export function evidenceCommand(ctx: () => CliContext): Command {
  const cmd = new Command('evidence').description('kept evidence (docs/evidence.md)');
  cmd
    .command('purge')
    .description('runs the retention sweep now: deletes kept evidence of cases decided longer ago than evidence.retention in the policy (TRIAGE_POLICY) (never behind an active sanction) and uploads nobody cited within a day')
    .option('--dry-run', 'list what the sweep would delete, delete nothing')
    .option('--json', 'print the items as JSON')
    .action(async (options: { dryRun?: boolean; json?: boolean }) => {
      const config: z.infer<typeof evidenceCliConfig> = loadConfig(evidenceCliConfig);
      // The services' TRIAGE_POLICY: its evidence.retention; a bad file fails in one line naming the field.
      const retentionMs = evidenceRetentionMs(policyFromEnv());
      const store = await ctx().getStore();
      const blobs = await openBlobStore(config);
      try {
        // The evidence workers' per-hash locks (in Redis), so a capture of the same bytes meanwhile keeps them; a dry run deletes nothing.
        const lock = options.dryRun ? noHashLock : redisHashLock(await ctx().redis(), config.KEY_PREFIX);
        const result = await sweepEvidence({ store, blobs, lock }, { retentionMs, batchSize: 500, dryRun: options.dryRun === true });
        if (options.json) {
          print(JSON.stringify({ dryRun: options.dryRun === true, items: result.items, blobsDeleted: result.blobsDeleted, uncitedUploads: result.uncitedUploads }));
          return;
        }
        if (result.items.length > 0) {
          table(
            ['REPORT', 'INDEX', 'CASE', 'SHA256', 'SIZE', 'TYPE'],
            result.items.map((i) => [i.reportId, String(i.index), i.caseId, i.sha256 ?? '', String(i.size ?? ''), i.contentType ?? '']),
          );
        }
        const verb = options.dryRun ? 'would delete' : 'deleted';
        print(`${verb} ${result.items.length} kept item(s) and ${result.uncitedUploads.length} uncited upload(s)${options.dryRun ? '' : `; ${result.blobsDeleted} stored cop(ies) freed`}`);
      } finally {
        await blobs.close();
      }
    });
  return cmd;
}
