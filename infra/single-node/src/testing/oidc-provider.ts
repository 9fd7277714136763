import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the test provider: the login typed on its sign-in page is their subject. */
export interface TestPerson {
  given_name: string;
  family_name: string;
  email: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The OIDC_* settings of a server that signs in here. */
  settings: { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string };
  /**
   * Registers the client with its redirect URI and starts answering. Separate from start, because the
   * server's URL (its redirect URI) is known only once it listens, and it needs the issuer's URL to start.
   */
  register(redirectUri: string): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (the certified oidc-provider package) on a free loopback port, in this process: discovery,
 * authorization with its development sign-in and consent pages, a token endpoint that checks the client secret
 * and PKCE (required, S256), signed ID tokens and UserInfo. Not a mock: the code under test talks to it over HTTP.
 */
export async function startTestProvider(people: Record<string, TestPerson>): Promise<TestProvider> {
  let handler: http.RequestListener = (_request, response) => {
    response.writeHead(503).end('the test provider has no client registered yet');
  };
  const server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'property-finance-console';
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}`;

  return {
    issuer,
    clientId,
    clientSecret,
    settings: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        // PKCE for this confidential client too: a sign-in without the S256 challenge is refused.
        pkce: { required: () => true },
        claims: { openid: ['sub'], profile: ['name', 'given_name', 'family_name'], email: ['email'] },
        findAccount: (_ctx, id) => {
          const person = people[id];
          if (!person) return undefined;
          return { accountId: id, claims: () => ({ sub: id, name: `${person.given_name} ${person.family_name}`, ...person }) };
        },
        features: { devInteractions: { enabled: true } },
        cookies: { keys: ['test-provider-cookie-key'] },
        // Lifetimes in seconds, set so that the provider does not warn about its defaults in every test run.
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      });
      handler = provider.callback();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
