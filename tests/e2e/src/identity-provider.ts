import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

/** A person the provider knows: the name it vouches for and the groups it says they are in. */
export interface Person {
  name: string;
  groups: string[];
}

/**
 * A real OpenID provider (panva's certified `oidc-provider`) on 127.0.0.1, in this test process:
 * its development sign-in form accepts any login with any password, and `people` says who each
 * login is. A test changes `people` to take a person out of a group, as a directory would.
 */
export class TestIdentityProvider {
  readonly people = new Map<string, Person>();
  readonly issuer: string;
  private readonly server: Server;

  private constructor(port: number, client: { id: string; secret: string; redirectUri: string; postLogoutRedirectUri: string }) {
    this.issuer = `http://127.0.0.1:${port}`;
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: client.id,
          client_secret: client.secret,
          redirect_uris: [client.redirectUri],
          post_logout_redirect_uris: [client.postLogoutRedirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], profile: ['name', 'groups'], email: ['email'] },
      findAccount: (_ctx, sub) => {
        if (!this.people.has(sub)) return undefined;
        return { accountId: sub, claims: () => ({ sub, name: this.people.get(sub)?.name, groups: this.people.get(sub)?.groups ?? [] }) };
      },
      // Every sign-in gets a refresh token, so the gateway can ask again who the person is.
      issueRefreshToken: () => true,
      features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
      cookies: { keys: ['test-only-cookie-key'] },
    });
    // A test's provider: no warning lines for its development keys and forms.
    provider.on('server_error', (_ctx, err) => console.error('identity provider:', err));
    this.server = createServer(provider.callback());
    this.server.listen(port, '127.0.0.1');
  }

  static async start(port: number, client: { id: string; secret: string; redirectUri: string; postLogoutRedirectUri: string }): Promise<TestIdentityProvider> {
    const op = new TestIdentityProvider(port, client);
    await new Promise<void>((ok, fail) => op.server.once('listening', ok).once('error', fail));
    return op;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}
