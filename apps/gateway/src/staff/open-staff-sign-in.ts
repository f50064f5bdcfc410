import type { Logger } from 'pino';
import type { Redis } from '@rm/runtime';
import type { AccountStore } from '@rm/storage';
import type { GatewayConfig } from '../config.js';
import { IdentityProvider } from './identity-provider.js';
import { StaffSessions } from './sessions.js';
import { staffSignInSettings } from './staff-config.js';
import { StaffSignIn } from './staff-sign-in.js';

/** Staff sign-in as the configuration sets it up, or undefined when it is not (API keys only). */
export function openStaffSignIn(config: GatewayConfig, deps: { redis: Redis; store: Pick<AccountStore, 'saveModerator'>; logger: Logger }) {
  const settings = staffSignInSettings(config);
  if (!settings) return undefined;
  const sessions = new StaffSessions(deps.redis, config.KEY_PREFIX, settings.limits);
  const signIn = new StaffSignIn(new IdentityProvider(settings.provider), sessions, settings.roles, deps.store, deps.logger, settings.recheckMs);
  return { signIn, limits: settings.limits };
}
