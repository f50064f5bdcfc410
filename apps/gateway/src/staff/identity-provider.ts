import * as oidc from 'openid-client';
import type { PendingSignIn, StaffSession } from './sessions.js';

export interface IdentityProviderConfig {
  issuer: URL;
  clientId: string;
  clientSecret?: string | undefined;
  /** This gateway's `/auth/callback` as the provider knows it. */
  redirectUrl: URL;
  scopes: string;
  /** Where the person's groups are in the ID token or userinfo: a claim name, or a dotted path (`realm_access.roles`). */
  groupsClaim: string;
  /** Where the provider sends the browser after signing out there. */
  postLogoutRedirectUrl: URL;
}

/** Who the provider says signed in, with their groups and the tokens to ask again later. */
export interface Person {
  subject: string;
  name: string;
  groups: string[];
  tokens: StaffSession['tokens'];
}

/** What the token endpoint (or the session, for userinfo alone) gave. */
type Tokens = { access_token: string; refresh_token?: string | undefined; claims?: () => oidc.IDToken | undefined };

/** The provider refused (a bad or replayed answer, a revoked grant, a person it no longer knows). */
export class ProviderRefusal extends Error {}

/** The provider's own refusals, as against it being unreachable or answering garbage. */
const refusedByProvider = (err: unknown) =>
  err instanceof ProviderRefusal ||
  err instanceof oidc.ResponseBodyError ||
  err instanceof oidc.AuthorizationResponseError ||
  err instanceof oidc.WWWAuthenticateChallengeError ||
  (err instanceof oidc.ClientError && err.code !== 'OAUTH_RESPONSE_IS_NOT_JSON' && err.code !== 'OAUTH_RESPONSE_IS_NOT_CONFORM');

/** A provider's refusal becomes a ProviderRefusal; anything else (it is down) is thrown as it is. */
async function orRefusal<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ProviderRefusal || !refusedByProvider(err)) throw err;
    throw new ProviderRefusal((err as Error).message, { cause: err });
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The studio's OpenID provider, through openid-client: authorization code with PKCE, the ID token's
 * nonce, and the provider's metadata found by discovery. Discovery waits for the first sign-in, and
 * is tried again after a failure, so a provider that is down does not stop the gateway starting.
 */
export class IdentityProvider {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(private readonly config: IdentityProviderConfig) {}

  private configuration(): Promise<oidc.Configuration> {
    this.discovered ??= oidc
      .discovery(this.config.issuer, this.config.clientId, this.config.clientSecret, undefined, {
        // Plain http only for a provider on this machine (a test's or a developer's own).
        execute: this.config.issuer.protocol === 'http:' && LOOPBACK.has(this.config.issuer.hostname) ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((err: unknown) => {
        this.discovered = undefined;
        throw err;
      });
    return this.discovered;
  }

  /** Where to send the browser to sign in. */
  async authorizationUrl(state: string, pending: PendingSignIn): Promise<URL> {
    return oidc.buildAuthorizationUrl(await this.configuration(), {
      redirect_uri: this.config.redirectUrl.href,
      scope: this.config.scopes,
      state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /** Checks the provider's answer at the callback (state, PKCE, the ID token and its nonce) and reads the person. */
  async finish(query: string, state: string, pending: PendingSignIn): Promise<Person> {
    const config = await this.configuration();
    const callback = new URL(this.config.redirectUrl);
    callback.search = query;
    const tokens = await orRefusal(() =>
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: pending.codeVerifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true }),
    );
    return this.person(config, { access_token: tokens.access_token, refresh_token: tokens.refresh_token, claims: () => tokens.claims() }, tokens.claims()!.sub, tokens.id_token);
  }

  /**
   * Asks the provider again who the person is and which groups they are in: with the refresh token
   * when there is one, then its userinfo. A ProviderRefusal means the provider no longer vouches for them.
   */
  async recheck(session: Pick<StaffSession, 'subject' | 'tokens'>): Promise<Person> {
    const config = await this.configuration();
    if (session.tokens.refresh) {
      const refresh = session.tokens.refresh;
      const tokens = await orRefusal(() => oidc.refreshTokenGrant(config, refresh));
      const subject = tokens.claims()?.sub;
      if (subject !== undefined && subject !== session.subject) throw new ProviderRefusal('the refreshed ID token names another person');
      return this.person(config, { access_token: tokens.access_token, refresh_token: tokens.refresh_token ?? refresh, claims: () => tokens.claims() }, session.subject, tokens.id_token ?? session.tokens.idToken);
    }
    if (!session.tokens.access) throw new ProviderRefusal('the provider gave no token to check the person again with');
    return this.person(config, { access_token: session.tokens.access }, session.subject, session.tokens.idToken);
  }

  /** The provider's sign-out page (RP-initiated logout), when it has one. */
  async endSessionUrl(idToken: string | undefined): Promise<URL | null> {
    const config = await this.configuration();
    if (!config.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(config, {
      post_logout_redirect_uri: this.config.postLogoutRedirectUrl.href,
      ...(idToken ? { id_token_hint: idToken } : { client_id: this.config.clientId }),
    });
  }

  /** The ID token's claims with userinfo's on top: providers put groups in one or the other. */
  private async person(config: oidc.Configuration, tokens: Tokens, subject: string, idToken: string | undefined): Promise<Person> {
    const info = await orRefusal(() => oidc.fetchUserInfo(config, tokens.access_token, subject));
    const claims: Record<string, unknown> = { ...(tokens.claims?.() ?? {}), ...info };
    const name = [claims['name'], claims['preferred_username'], claims['email']].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? subject;
    return {
      subject,
      name: name.trim(),
      groups: groupsIn(claims, this.config.groupsClaim),
      tokens: { refresh: tokens.refresh_token, access: tokens.access_token, idToken },
    };
  }
}

/** The groups a claim (or a dotted path into one) holds: a list of names, or one name. */
function groupsIn(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = claims[path];
  if (value === undefined && path.includes('.')) {
    value = path.split('.').reduce<unknown>((at, part) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), claims);
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}
