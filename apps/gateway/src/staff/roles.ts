import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PERMISSIONS, type Permission } from '@rm/contracts';

/**
 * The roles a studio's groups map to, each a set of this service's permissions. `admin` holds
 * every permission and the admin-only routes, as an admin API key does.
 */
export const BUILT_IN_ROLES: Record<string, readonly Permission[] | 'admin'> = {
  viewer: ['reports.view_reports', 'sanctions.read', 'reports.read_outcomes'],
  moderator: ['reports.view_reports', 'reports.handle_reports', 'sanctions.read', 'reports.read_outcomes'],
  'appeals-reviewer': ['reports.view_reports', 'reports.handle_reports', 'sanctions.read'],
  lead: ['reports.view_reports', 'reports.handle_reports', 'sanctions.read', 'reports.read_outcomes', 'sanctions.write', 'sanctions.lift_any'],
  'privacy-officer': ['reports.view_reports', 'sanctions.read', 'privacy.manage'],
  admin: 'admin',
};

const permission = z.enum(PERMISSIONS, { error: `must be one of ${PERMISSIONS.join(', ')}` });
const roleNames = z.union([z.string().min(1), z.array(z.string().min(1)).min(1, 'must name at least one role')]).transform((v) => (typeof v === 'string' ? [v] : v));

/** The file OIDC_ROLES_FILE names: which of the provider's groups hold which roles, and any roles of the studio's own. */
const RolesFile = z
  .strictObject({
    /** Roles beyond the built-in ones (or replacing one of them): a name and its permissions. */
    roles: z.record(z.string().min(1), z.array(permission).min(1, 'must hold at least one permission')).default({}),
    /** A group's name as the provider's groups claim carries it, and the roles its members hold. */
    groups: z.record(z.string().min(1), roleNames).refine((g) => Object.keys(g).length > 0, 'must map at least one group'),
  })
  .superRefine((file, ctx) => {
    for (const [group, roles] of Object.entries(file.groups)) {
      for (const role of roles) {
        if (!Object.hasOwn(file.roles, role) && !Object.hasOwn(BUILT_IN_ROLES, role)) {
          ctx.addIssue({ code: 'custom', path: ['groups', group], message: `names the role ${role}, which is neither built in (${Object.keys(BUILT_IN_ROLES).join(', ')}) nor in roles` });
        }
      }
    }
  });

/** What a person's groups give them here. */
export interface Grant {
  permissions: Permission[];
  admin: boolean;
  /** The roles held, for the log and the console. */
  roles: string[];
}

export type RoleMap = (groups: readonly string[]) => Grant | null;

/** Reads and checks the roles file; a bad one names the field, so the gateway stops at start. */
export function loadRoleMap(file: string): RoleMap {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${file} as JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = RolesFile.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; '));
  const { roles, groups } = parsed.data;
  // Own properties only: a group the provider names `constructor` or `toString` is no group of the file's.
  const roleOf = (name: string) => (Object.hasOwn(roles, name) ? roles[name]! : BUILT_IN_ROLES[name]!);
  return (memberOf) => {
    const held = [...new Set(memberOf.flatMap((group) => (Object.hasOwn(groups, group) ? groups[group]! : [])))].sort();
    if (held.length === 0) return null;
    const admin = held.some((name) => roleOf(name) === 'admin');
    const permissions = admin ? [...PERMISSIONS] : PERMISSIONS.filter((p) => held.some((name) => (roleOf(name) as readonly Permission[]).includes(p)));
    return { permissions, admin, roles: held };
  };
}
