import { Command } from 'commander';
import { parseIsoDuration } from '@rm/contracts';
import { loadPolicy, policyFromEnv, PolicyError, replayRules, type ReplayProgress, type TriagePolicy } from '@rm/triage';
import { CliError, print, table, type CliContext } from '../context.js';

/** `--since`: an ISO 8601 duration (PT12H, P7D) or a short one (30m, 12h, 7d, 2w). */
export function parseSince(raw: string): number {
  const short = /^(\d+)([smhdw])$/.exec(raw);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  const ms = short ? Number(short[1]) * unit[short[2] as keyof typeof unit] : parseIsoDuration(raw.toUpperCase());
  if (ms === null || ms <= 0) throw new CliError(`--since must be a duration such as 7d, 12h or P7D (got ${raw})`);
  return ms;
}

function policyOf(file: string | undefined): TriagePolicy {
  if (file === undefined) return policyFromEnv();
  try {
    return loadPolicy(file);
  } catch (err) {
    if (err instanceof PolicyError) throw new CliError(`invalid policy ${file}: ${err.message}`);
    throw err;
  }
}

/** A line on stderr every so often, so a long replay shows it is moving; stdout keeps only the answer. */
function progressLines(): ReplayProgress {
  return (phase, done) => {
    if (done % 10_000 === 0) process.stderr.write(`rules dry-run: ${phase} ${done} reports\n`);
  };
}

export function rulesCommand(ctx: () => CliContext): Command {
  const cmd = new Command('rules').description('automatic triage rules');
  cmd
    .command('dry-run')
    .description('replay stored reports in time order against a policy: what each rule would have done; changes nothing')
    .option('--policy <file>', 'policy file (JSON or YAML); default: TRIAGE_POLICY, else the built-in policy')
    .option('--since <duration>', 'only reports received within this long (e.g. 7d, 12h, P7D); default: all')
    .option('--json', 'print JSON', false)
    .action(async (opts: { policy?: string; since?: string; json: boolean }) => {
      const policy = policyOf(opts.policy);
      const since = opts.since === undefined ? undefined : Date.now() - parseSince(opts.since);
      const store = await ctx().getStore();
      const result = await replayRules(store, policy, { ...(since !== undefined && { since }), progress: progressLines() });
      process.stderr.write(`rules dry-run: replayed ${result.reports} reports in ${result.cases} cases\n`);
      if (opts.json) return print(JSON.stringify(result));
      print(`${result.reports} report(s) in ${result.cases} case(s)${result.since === null ? '' : ` since ${new Date(result.since).toISOString()}`}; ${policy.rules.length} rule(s)`);
      if (result.rules.length === 0) return print('the policy has no rules');
      table(
        ['RULE', 'ACTION', 'ACTED ON', 'APPROVED', 'DISMISSED (FALSE POSITIVES)', 'UNDECIDED', 'MISSED APPROVED'],
        result.rules.map((r) => [r.ruleId, r.action, String(r.actedOn), String(r.approved), String(r.dismissed), String(r.undecided), String(r.missed)]),
      );
    });
  return cmd;
}
