import { Command } from 'commander';
import { jobIdFor, SANCTION_LIMITS, type SanctionJob } from '@rm/contracts';
import { effectsOf, sanctionEndEffects, sanctionEndSource } from '@rm/delivery';
import type { SanctionRecord } from '@rm/storage';
import { CliError, print, table, type CliContext } from '../context.js';

const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

export function sanctionsCommand(ctx: () => CliContext): Command {
  const cmd = new Command('sanctions').description("players' sanctions (bans)");
  cmd
    .command('list <userId>')
    .description("a player's sanctions, newest first")
    .option('--json', 'print a JSON array')
    .action(async (userId: string, opts: { json?: boolean }) => {
      const sanctions = await (await ctx().getStore()).sanctionsOfUser(userId);
      if (opts.json) return print(JSON.stringify(sanctions));
      if (sanctions.length === 0) return print(`no sanctions for user ${userId}`);
      table(
        ['ID', 'KIND', 'STATE', 'SOURCE', 'CATEGORY', 'MODERATOR', 'CREATED', 'EXPIRES', 'LIFTED BY', 'REASON'],
        sanctions.map((s: SanctionRecord) => [
          s.id,
          s.kind,
          s.state,
          `${s.source.type}:${s.source.id}`,
          s.category ?? '-',
          s.moderatorId,
          time(s.createdAt),
          time(s.expiresAt),
          s.liftedBy ?? '-',
          s.reason ?? '',
        ]),
      );
    });
  cmd
    .command('lift <sanctionId>')
    .description('lift an active sanction: the player is no longer banned unless another sanction is active')
    .requiredOption('--moderator <id>', 'the registered moderator lifting it')
    .option('--reason <reason>', 'why (kept with the sanction)')
    .action(async (sanctionId: string, opts: { moderator: string; reason?: string }) => {
      const store = await ctx().getStore();
      if (opts.reason !== undefined && (opts.reason.length < SANCTION_LIMITS.reason.min || opts.reason.length > SANCTION_LIMITS.reason.max)) {
        throw new CliError(`--reason must be ${SANCTION_LIMITS.reason.min} to ${SANCTION_LIMITS.reason.max} characters`);
      }
      if (!(await store.getModerator(opts.moderator))) throw new CliError(`no moderator ${opts.moderator}; add one with moderator add`);
      const s = await store.getSanction(sanctionId);
      if (!s) throw new CliError(`no sanction ${sanctionId}`);
      if (s.state !== 'active' && s.state !== 'scheduled') throw new CliError(`sanction ${sanctionId} is ${s.state} already`);
      const sourceId = sanctionEndSource('sanction.lifted', sanctionId);
      const lifted = await store.liftSanction({
        sanctionId,
        at: Date.now(),
        moderatorId: opts.moderator,
        reason: opts.reason ?? null,
        sourceId,
        effects: effectsOf(sourceId, sanctionEndEffects(s, 'sanction.lifted')),
      });
      if (!lifted) throw new CliError(`sanction ${sanctionId} is no longer active`);
      // The moderation worker carries the effects out now; its sweep would, a few seconds later.
      const job: SanctionJob = { kind: 'relay', sourceId };
      try {
        await (await ctx().queue('sanctions')).add(job.kind, job, { jobId: jobIdFor.sanctions(job), removeOnComplete: 1000, removeOnFail: 5000 });
      } catch {
        print('Redis did not take the follow-up job; the moderation worker will carry the lift out within seconds');
      }
      print(`lifted sanction ${sanctionId} of user ${lifted.userId}`);
    });
  return cmd;
}
