import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PERMISSIONS } from '@rm/contracts';
import { loadConfig } from '@rm/runtime';
import { staffSignInConfigShape, staffSignInSettings } from './staff-config.js';

const dir = mkdtempSync(join(tmpdir(), 'rm-staff-'));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const settings = (env: Record<string, string>) => staffSignInSettings(loadConfig(z.object(staffSignInConfigShape), env));
const complete = (roles: string) => ({
  OIDC_ISSUER: 'https://login.example.com',
  OIDC_CLIENT_ID: 'console',
  OIDC_REDIRECT_URL: 'https://moderation.example.com/auth/callback',
  OIDC_ROLES_FILE: roles,
});

describe('staff sign-in settings', () => {
  it('are off with none of the variables set', () => {
    expect(settings({})).toBeNull();
  });

  it('name every missing variable when only some are set', () => {
    expect(() => settings({ OIDC_ISSUER: 'https://login.example.com' })).toThrow(/OIDC_CLIENT_ID: must be set.*OIDC_REDIRECT_URL: must be set.*OIDC_ROLES_FILE: must be set/s);
  });

  it('refuse a callback elsewhere than /auth/callback, a re-check slower than the idle limit, and scopes without openid', () => {
    const roles = file('ok.json', { groups: { staff: 'moderator' } });
    expect(() => settings({ ...complete(roles), OIDC_REDIRECT_URL: 'https://moderation.example.com/callback' })).toThrow(/OIDC_REDIRECT_URL: must end in \/auth\/callback/);
    expect(() => settings({ ...complete(roles), OIDC_RECHECK_MS: '60000', SESSION_IDLE_TIMEOUT_MS: '30000' })).toThrow(/OIDC_RECHECK_MS: must be at most SESSION_IDLE_TIMEOUT_MS/);
    expect(() => settings({ ...complete(roles), OIDC_SCOPES: 'profile email' })).toThrow(/OIDC_SCOPES: must include openid/);
  });

  it('refuse a bad roles file, naming the field', () => {
    expect(() => settings(complete(file('bad.json', '{ not json')))).toThrow(/OIDC_ROLES_FILE: cannot read .* as JSON/);
    expect(() => settings(complete(file('empty.json', { groups: {} })))).toThrow(/OIDC_ROLES_FILE: groups: must map at least one group/);
    expect(() => settings(complete(file('unknown-role.json', { groups: { staff: 'janitor' } })))).toThrow(/OIDC_ROLES_FILE: groups\.staff: names the role janitor/);
    expect(() => settings(complete(file('bad-permission.json', { roles: { auditor: ['reports.delete'] }, groups: { a: 'auditor' } })))).toThrow(/OIDC_ROLES_FILE: roles\.auditor\.0: must be one of/);
    expect(() => settings(complete(file('extra.json', { groups: { a: 'moderator' }, users: {} })))).toThrow(/OIDC_ROLES_FILE: .*users/);
    expect(() => settings(complete(file('inherited-role.json', { groups: { a: 'constructor' } })))).toThrow(/OIDC_ROLES_FILE: groups\.a: names the role constructor/);
  });

  it('map groups to the union of their roles; admin holds every permission; no mapped group, nothing', () => {
    const roles = file('roles.json', { roles: { auditor: ['reports.view_reports', 'reports.read_outcomes'] }, groups: { mods: 'moderator', audit: ['auditor'], ops: 'admin' } });
    const { roles: grant, provider } = settings(complete(roles))!;
    expect(grant(['marketing'])).toBeNull();
    expect(grant([])).toBeNull();
    // A group named after an object's own machinery is just a group the file does not map.
    expect(grant(['constructor', 'toString', '__proto__'])).toBeNull();
    expect(grant(['constructor', 'mods'])!.roles).toEqual(['moderator']);
    expect(grant(['audit'])).toEqual({ permissions: ['reports.view_reports', 'reports.read_outcomes'], admin: false, roles: ['auditor'] });
    expect(grant(['audit', 'mods', 'marketing'])!.permissions).toEqual(['reports.handle_reports', 'reports.view_reports', 'sanctions.read', 'reports.read_outcomes']);
    expect(grant(['ops'])).toEqual({ permissions: [...PERMISSIONS], admin: true, roles: ['admin'] });
    // The console beside the callback, unless set.
    expect(provider.postLogoutRedirectUrl.href).toBe('https://moderation.example.com/console/');
  });
});
