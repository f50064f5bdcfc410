import { Command, Option } from 'commander';
import { PERMISSIONS, isPermission, type Permission } from '@rm/contracts/permissions';
import { generateCredentials, hashSecret } from '@rm/runtime/credentials';
import { CliError, print, table, type CliContext } from '../context.js';

const collect = (value: string, previous: string[]) => [...previous, value];

export function apikeyCommand(ctx: () => CliContext): Command {
  const cmd = new Command('apikey').description('issue, list and revoke API keys');

  cmd
    .command('create')
    .description('create an API key; the secret is printed once and stored only as a hash')
    .requiredOption('--name <name>', 'who the key is for')
    .addOption(new Option('--permission <permission>', `a permission (repeatable): ${PERMISSIONS.join(', ')}`).argParser(collect).default([]))
    .option('--elevated', 'may set reportType on submissions', false)
    .option('--admin', 'holds every permission and may set reportType', false)
    .option('--rate-limit <perMinute>', 'requests per minute for this key (default: no limit)')
    .option('--moderator <id>', 'bind the key to this registered moderator: it may act only as them (the console signs in with it)')
    .option('--json', 'print one JSON object', false)
    .action(async (opts: { name: string; permission: string[]; elevated: boolean; admin: boolean; rateLimit?: string; moderator?: string; json: boolean }) => {
      const bad = opts.permission.filter((p) => !isPermission(p));
      if (bad.length > 0) throw new CliError(`unknown permission ${bad.join(', ')}; choose from ${PERMISSIONS.join(', ')}`);
      if (opts.permission.length === 0 && !opts.admin) throw new CliError('give at least one --permission, or --admin');
      let rateLimit: number | null = null;
      if (opts.rateLimit !== undefined) {
        rateLimit = Number(opts.rateLimit);
        if (!Number.isSafeInteger(rateLimit) || rateLimit < 1) throw new CliError(`--rate-limit must be a whole number of requests per minute, at least 1 (got ${opts.rateLimit})`);
      }
      if (opts.name.trim() === '') throw new CliError('--name must not be empty');
      const permissions = [...new Set(opts.permission)] as Permission[];
      const { key, secret } = generateCredentials();
      const store = await ctx().getStore();
      if (opts.moderator !== undefined && !(await store.getModerator(opts.moderator))) {
        throw new CliError(`no moderator ${opts.moderator}: register them first with moderator add`);
      }
      await store.createApiKey({
        key,
        name: opts.name,
        secretHash: hashSecret(secret),
        permissions,
        elevated: opts.elevated,
        admin: opts.admin,
        rateLimit,
        createdAt: Date.now(),
        revokedAt: null,
        ...(opts.moderator !== undefined && { moderatorId: opts.moderator }),
      });
      const moderatorId = opts.moderator ?? null;
      if (opts.json) {
        print(JSON.stringify({ key, secret, name: opts.name, permissions, elevated: opts.elevated, admin: opts.admin, rateLimit, moderatorId }));
        return;
      }
      if (moderatorId !== null) print(`bound to moderator ${moderatorId}`);
      print(`key:    ${key}`);
      print(`secret: ${secret}`);
      print(`Authorization header: ${key}:${secret}`);
      print('The secret is shown only now; store it safely.');
    });

  cmd
    .command('list')
    .description('list API keys (never their secrets)')
    .option('--json', 'print JSON', false)
    .action(async (opts: { json: boolean }) => {
      const keys = await (await ctx().getStore()).listApiKeys();
      if (opts.json) {
        print(JSON.stringify(keys.map(({ secretHash: _omit, ...k }) => k)));
        return;
      }
      table(
        ['KEY', 'NAME', 'PERMISSIONS', 'FLAGS', 'RATE/MIN', 'STATUS', 'MODERATOR'],
        keys.map((k) => [
          k.key,
          k.name,
          k.admin ? '(all)' : k.permissions.join(','),
          [k.admin && 'admin', k.elevated && 'elevated'].filter(Boolean).join(',') || '-',
          k.rateLimit === null ? '-' : String(k.rateLimit),
          k.revokedAt === null ? 'active' : `revoked ${new Date(k.revokedAt).toISOString()}`,
          k.moderatorId ?? '-',
        ]),
      );
    });

  cmd
    .command('revoke <key>')
    .description('revoke an API key (gateways stop accepting it within KEY_CACHE_TTL_MS)')
    .action(async (key: string) => {
      const store = await ctx().getStore();
      const existing = await store.getApiKey(key);
      if (!existing) throw new CliError(`no API key ${key}`);
      if (existing.revokedAt !== null) throw new CliError(`API key ${key} is already revoked`);
      await store.revokeApiKey(key, Date.now());
      print(`revoked ${key}`);
    });
  return cmd;
}
