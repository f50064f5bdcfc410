import { closeSync, openSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { z } from 'zod';
import { evidenceConfigShape, noHashLock, openBlobStore, redisHashLock } from '@rm/evidence';
import { chatConfigShape, createChatPlatform } from '@rm/platforms';
import { describeSubject, eraseSubject, exportSubject, FINISHED_JOB_QUEUES, holdTargetOf, placeHold, releaseHold, subjectOf, sweepRetention, type FinishedJobsQueue } from '@rm/privacy';
import { commonConfig, loadConfig } from '@rm/runtime';
import { RETENTION_SWEEP_KINDS, type AnswerKeep, type PrivacySubject } from '@rm/storage';
import { policyFromEnv, retentionMsOf } from '@rm/triage';
import { CliError, print, table, type CliContext } from '../context.js';

const privacyCliConfig = commonConfig.extend(evidenceConfigShape).extend(chatConfigShape);

/** Who the audit names as the actor of a CLI request. */
const CLI_ACTOR = 'cli';

type SubjectOptions = { user?: string; reporter?: string };

/** `--user ID` or `--reporter PLATFORM:ID`, exactly one. */
function subjectFrom(o: SubjectOptions): PrivacySubject {
  if ((o.user === undefined) === (o.reporter === undefined)) throw new CliError('name exactly one of --user ID (a player) or --reporter PLATFORM:ID (a reporter)');
  if (o.user !== undefined) return subjectOf({ userId: o.user });
  const at = o.reporter!.indexOf(':');
  if (at <= 0 || at === o.reporter!.length - 1) throw new CliError(`--reporter must be PLATFORM:ID (got ${o.reporter})`);
  return subjectOf({ platform: o.reporter!.slice(0, at), reporterId: o.reporter!.slice(at + 1) });
}

/** The policy's category question and categories: an erased report keeps its category answer (the DSA figures count it). */
function answerKeep(policy = policyFromEnv()): AnswerKeep {
  return { categoryQuestionId: policy.category.questionId, categories: Object.keys(policy.categories) };
}

/** `--until` as a date (YYYY-MM-DD) or an RFC 3339 time. */
function parseUntil(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const at = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(at)) throw new CliError(`--until must be a date (YYYY-MM-DD) or an RFC 3339 time (got ${raw})`);
  return at;
}

export function privacyCommand(ctx: () => CliContext): Command {
  const cmd = new Command('privacy').description('data subject requests and legal holds (docs/privacy.md)');
  cmd
    .command('export')
    .description('everything held about a player or a reporter, as one JSON document (each part says what it is and why it is kept)')
    .option('--user <id>', 'a player (their game account id)')
    .option('--reporter <platform:id>', 'a reporter')
    .option('--out <file>', 'write the document here instead of stdout')
    .action(async (o: SubjectOptions & { out?: string }) => {
      const subject = subjectFrom(o);
      // Opened first: an export that cannot be written is neither read nor recorded as answered.
      let fd: number | undefined;
      if (o.out) {
        try {
          fd = openSync(o.out, 'w', 0o600);
        } catch (err) {
          throw new CliError(`cannot write ${o.out}: ${(err as Error).message}`);
        }
      }
      const store = await ctx().getStore();
      const doc = await exportSubject({ store }, subject, CLI_ACTOR, (n) => process.stderr.write(`privacy export: ${n} report(s) read\n`));
      const json = JSON.stringify(doc, null, 2);
      if (fd !== undefined) {
        writeFileSync(fd, `${json}\n`);
        closeSync(fd);
        print(`wrote the export of ${describeSubject(subject)} to ${o.out} (${doc.parts.map((p) => `${p.part}: ${p.items.length}`).join(', ')})`);
      } else {
        print(json);
      }
    });
  cmd
    .command('erase')
    .description('erases or pseudonymises a player\'s or a reporter\'s personal data, except what an active sanction or a legal hold keeps; says what it kept and why')
    .option('--user <id>', 'a player (their game account id)')
    .option('--reporter <platform:id>', 'a reporter')
    .option('--dry-run', 'list what would change, change nothing')
    .option('--json', 'print the answer as JSON')
    .action(async (o: SubjectOptions & { dryRun?: boolean; json?: boolean }) => {
      const subject = subjectFrom(o);
      const dryRun = o.dryRun === true;
      const config: z.infer<typeof privacyCliConfig> = loadConfig(privacyCliConfig);
      const keep = answerKeep();
      const store = await ctx().getStore();
      const blobs = await openBlobStore(config);
      try {
        // A dry run needs no Redis: it deletes nothing and removes no key or job.
        const redis = dryRun ? null : await ctx().redis();
        const queues: FinishedJobsQueue[] = dryRun ? [] : await Promise.all(FINISHED_JOB_QUEUES.map((k) => ctx().queue(k)));
        const answer = await eraseSubject(
          {
            store,
            blobs,
            lock: redis ? redisHashLock(redis, config.KEY_PREFIX) : noHashLock,
            redis,
            prefix: config.KEY_PREFIX,
            chat: { platform: createChatPlatform(config, store), hideUsername: config.HIDE_USERNAME },
            queues,
          },
          subject,
          { keep, dryRun, actor: CLI_ACTOR, onProgress: (p) => process.stderr.write(`privacy erase: ${p.stage} ${p.done}\n`) },
        );
        if (o.json) return print(JSON.stringify(answer));
        const verb = dryRun ? 'would erase' : 'erased';
        const e = answer.erased;
        print(
          `${verb} for ${describeSubject(subject)}: ${e.reports} report(s), ${e.evidenceItems} kept evidence item(s) (${e.evidenceFiles} file(s)), ${e.appeals} appeal(s), ${e.sanctions} sanction reason(s)` +
            `${e.directoryRecord ? ', the directory record' : ''}${e.reporterCredibility ? ', the credibility' : ''}${e.reporterOutcomes ? `, ${e.reporterOutcomes} outcome(s)` : ''}` +
            (dryRun ? '' : `; ${e.chatMessages} chat message(s) rewritten, ${e.redisKeys} Redis key(s), ${e.queueJobs} finished job(s)`),
        );
        if (answer.kept.length > 0) {
          print('kept:');
          table(['KIND', 'ID', 'REASON', 'HOLD', 'WHY'], answer.kept.map((k) => [k.kind, k.id, k.reason, k.holdId ?? '-', k.why]));
        }
        print(`request ${answer.requestId}`);
      } finally {
        await blobs.close();
      }
    });
  cmd
    .command('sweep')
    .description("runs the retention sweep now (the evidence worker runs it daily): erases or pseudonymises what is past the policy's retention, kind by kind, except what a legal hold, an active sanction or a waiting appeal keeps")
    .option('--dry-run', 'count what would change, change nothing')
    .option('--json', 'print the answer as JSON')
    .action(async (o: { dryRun?: boolean; json?: boolean }) => {
      const dryRun = o.dryRun === true;
      const config: z.infer<typeof privacyCliConfig> = loadConfig(privacyCliConfig);
      // The services' TRIAGE_POLICY: its retention; a bad file fails in one line naming the field.
      const policy = policyFromEnv();
      const store = await ctx().getStore();
      const blobs = await openBlobStore(config);
      try {
        // A dry run needs no Redis: it deletes nothing, edits no message and removes no job.
        const redis = dryRun ? null : await ctx().redis();
        const answer = await sweepRetention(
          {
            store,
            blobs,
            lock: redis ? redisHashLock(redis, config.KEY_PREFIX) : noHashLock,
            chat: dryRun ? null : createChatPlatform(config, store),
            queues: dryRun ? [] : await Promise.all(FINISHED_JOB_QUEUES.map((k) => ctx().queue(k))),
          },
          {
            retentionMs: retentionMsOf(policy),
            keep: answerKeep(policy),
            dryRun,
            actor: CLI_ACTOR,
            onProgress: (p) => process.stderr.write(`privacy sweep: ${p.kind} ${p.examined} examined, ${p.erased} ${dryRun ? 'to erase' : 'erased'}\n`),
          },
        );
        if (o.json) return print(JSON.stringify(answer));
        table(
          ['KIND', 'RETENTION', 'BEFORE', 'EXAMINED', dryRun ? 'WOULD ERASE' : 'ERASED', 'KEPT'],
          RETENTION_SWEEP_KINDS.map((kind) => {
            const k = answer.kinds[kind];
            const kept = Object.entries(k.kept).map(([reason, n]) => `${n} ${reason}`).join(', ');
            const retention = kind === 'erasedPlayers' ? `${policy.ladder.lookback} (ladder)` : policy.retention[kind];
            return [kind, retention, new Date(k.before).toISOString(), String(k.examined), String(k.erased), kept || '-'];
          }),
        );
        const verb = dryRun ? 'would rewrite' : 'rewrote';
        print(`${verb} ${answer.chatMessages} chat message(s); ${dryRun ? 'would delete' : 'deleted'} ${answer.evidenceItems} kept evidence item(s) (${answer.evidenceFiles} file(s))${dryRun ? '' : `, ${answer.queueJobs} finished job(s)`}`);
        print(`request ${answer.requestId}`);
      } finally {
        await blobs.close();
      }
    });
  cmd
    .command('hold')
    .description('places a legal hold on a case, a player or a sanction: erasure and retention sweeps skip what it holds')
    .option('--case <id>', 'a case')
    .option('--user <id>', 'a player: everything about them')
    .option('--sanction <id>', 'a sanction (and its case)')
    .requiredOption('--reason <reason>', 'why (kept with the hold)')
    .option('--until <date>', 'when it ends on its own (YYYY-MM-DD or an RFC 3339 time); default: until released')
    .option('--json', 'print the hold as JSON')
    .action(async (o: { case?: string; user?: string; sanction?: string; reason: string; until?: string; json?: boolean }) => {
      const named = ([['case', o.case], ['player', o.user], ['sanction', o.sanction]] as const).filter(([, v]) => v !== undefined);
      if (named.length !== 1) throw new CliError('name exactly one of --case, --user or --sanction');
      const [type, id] = named[0]!;
      const hold = await placeHold(await ctx().getStore(), { target: holdTargetOf(type, id), reason: o.reason, until: parseUntil(o.until), placedBy: CLI_ACTOR });
      if (o.json) return print(JSON.stringify(hold));
      print(`hold ${hold.id} on ${type} ${id}${hold.until === null ? '' : ` until ${new Date(hold.until).toISOString()}`}`);
    });
  cmd
    .command('release <holdId>')
    .description('releases a legal hold')
    .option('--reason <reason>', 'why (kept with the hold)')
    .action(async (holdId: string, o: { reason?: string }) => {
      const hold = await releaseHold(await ctx().getStore(), { id: holdId, by: CLI_ACTOR, reason: o.reason ?? null });
      print(`released hold ${hold.id} on ${hold.target.type} ${hold.target.id}`);
    });
  return cmd;
}
