import { z } from 'zod';
import { ConfigError, env } from '@rm/runtime';
import type { IdentityProviderConfig } from './identity-provider.js';
import { loadRoleMap, type RoleMap } from './roles.js';
import type { SessionLimits } from './sessions.js';

const httpUrl = () =>
  z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .transform((v) => new URL(v))
    .optional();

/** Staff sign-in through the studio's OpenID provider (docs/console.md#signing-in). All unset: key sign-in. */
export const staffSignInConfigShape = {
  /** The provider's issuer; its discovery document is read from `<issuer>/.well-known/openid-configuration`. */
  OIDC_ISSUER: httpUrl(),
  OIDC_CLIENT_ID: env.optionalString(),
  /** Unset for a public client (PKCE alone). */
  OIDC_CLIENT_SECRET: env.optionalString(),
  /** This gateway's `/auth/callback` as registered with the provider: `https://moderation.example.com/auth/callback`. */
  OIDC_REDIRECT_URL: httpUrl(),
  /** Where the provider returns the browser after signing out; registered with it too. Unset: the console beside the callback. */
  OIDC_POST_LOGOUT_REDIRECT_URL: httpUrl(),
  OIDC_SCOPES: env.string('openid profile email offline_access'),
  /** The claim with the person's groups (ID token or userinfo), or a dotted path into one (`realm_access.roles`). */
  OIDC_GROUPS_CLAIM: env.string('groups'),
  /** The JSON file that maps the provider's groups to roles (docs/console.md#roles). */
  OIDC_ROLES_FILE: env.optionalString(),
  /** A session unused this long ends. */
  SESSION_IDLE_TIMEOUT_MS: env.positiveInt(30 * 60_000),
  /** A session ends this long after sign-in, however much it is used. */
  SESSION_MAX_AGE_MS: env.positiveInt(12 * 3_600_000),
  /** How often the provider is asked again whether the person and their groups still hold. */
  OIDC_RECHECK_MS: env.positiveInt(5 * 60_000),
};

type StaffSignInEnv = z.infer<z.ZodObject<typeof staffSignInConfigShape>>;

export interface StaffSignInSettings {
  provider: IdentityProviderConfig;
  roles: RoleMap;
  limits: SessionLimits;
  recheckMs: number;
}

const REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_REDIRECT_URL', 'OIDC_ROLES_FILE'] as const;

/**
 * The staff sign-in settings, or null when none is set (the console then signs in with keys). Some
 * set but not all, a callback that is not `/auth/callback`, a re-check slower than the idle limit
 * or a bad roles file stop the gateway at start, naming the variable.
 */
export function staffSignInSettings(config: StaffSignInEnv): StaffSignInSettings | null {
  const set = REQUIRED.filter((name) => config[name] !== undefined);
  if (set.length === 0) return null;
  const problems = REQUIRED.filter((name) => config[name] === undefined).map((name) => `${name}: must be set for staff sign-in (${set.join(', ')} ${set.length === 1 ? 'is' : 'are'})`);
  const redirect = config.OIDC_REDIRECT_URL;
  if (redirect && !redirect.pathname.endsWith('/auth/callback')) problems.push('OIDC_REDIRECT_URL: must end in /auth/callback (the gateway answers the provider there)');
  if (config.OIDC_RECHECK_MS > config.SESSION_IDLE_TIMEOUT_MS) problems.push('OIDC_RECHECK_MS: must be at most SESSION_IDLE_TIMEOUT_MS (a removed person must lose access within the idle limit)');
  if (!config.OIDC_SCOPES.split(/\s+/).includes('openid')) problems.push('OIDC_SCOPES: must include openid');
  let roles: RoleMap | undefined;
  if (config.OIDC_ROLES_FILE) {
    try {
      roles = loadRoleMap(config.OIDC_ROLES_FILE);
    } catch (err) {
      problems.push(`OIDC_ROLES_FILE: ${(err as Error).message}`);
    }
  }
  if (problems.length > 0 || !roles) throw new ConfigError(problems);
  return {
    provider: {
      issuer: config.OIDC_ISSUER!,
      clientId: config.OIDC_CLIENT_ID!,
      clientSecret: config.OIDC_CLIENT_SECRET,
      redirectUrl: redirect!,
      scopes: config.OIDC_SCOPES,
      groupsClaim: config.OIDC_GROUPS_CLAIM,
      postLogoutRedirectUrl: config.OIDC_POST_LOGOUT_REDIRECT_URL ?? new URL('../console/', redirect!),
    },
    roles,
    limits: { idleMs: config.SESSION_IDLE_TIMEOUT_MS, maxAgeMs: config.SESSION_MAX_AGE_MS },
    recheckMs: config.OIDC_RECHECK_MS,
  };
}
