import * as client from 'openid-client';
import { DomainError, Invalid, isLoopbackUrl } from '@pf/infra';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What one sign-in remembers between leaving for the provider and coming back (kept in a short-lived cookie). */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

/** The flow from its cookie, or null when it is absent or not one this server wrote (the cookie is not signed). */
export function readFlow(cookie: string | undefined): OidcFlow | null {
  if (!cookie || cookie.length > 2000) return null;
  try {
    const flow = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')) as Partial<OidcFlow>;
    const fields = [flow.state, flow.nonce, flow.verifier, flow.redirectUri];
    if (!fields.every((field) => typeof field === 'string' && field.length > 0)) return null;
    new URL(flow.redirectUri!);
    return flow as OidcFlow;
  } catch {
    return null;
  }
}

export const writeFlow = (flow: OidcFlow): string => Buffer.from(JSON.stringify(flow)).toString('base64url');

/** The account the provider vouched for: keyed by issuer and subject, names and email for a first sign-in. */
export interface ProviderAccount {
  issuer: string;
  subject: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

/** The provider could not be reached or answered something unusable: not the visitor's fault, so 502. */
export class ProviderUnavailable extends DomainError {
  /** `detail` is for the log only: the answer does not show internals (addresses, library errors). */
  constructor(readonly detail: string) {
    super('The sign-in provider could not be reached or gave an answer that could not be used; try again shortly', 502);
  }
}

const SCOPE = 'openid profile email';

/**
 * OpenID Connect sign-in (authorization code with PKCE: docs/behaviour/sign-in.md) with openid-client: discovery once (cached;
 * a failed discovery is retried at the next sign-in), then per sign-in a random state, nonce and PKCE verifier
 * whose S256 challenge goes to the provider, and at the callback the code exchange that checks all three.
 */
export class OidcSignIn {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  private discover(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        this.settings.clientSecret,
        // client_secret_basic: the method OpenID Connect makes the default, so every provider accepts it.
        client.ClientSecretBasic(this.settings.clientSecret),
        // openid-client refuses plain http; allowed only for a provider on this machine (a developer's or a
        // test's), which the configuration check has already limited http:// issuers to.
        isLoopbackUrl(this.settings.issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.configuration = null;
        throw new ProviderUnavailable(`discovery at ${this.settings.issuer} failed: ${describe(error)}`);
      });
    return this.configuration;
  }

  /** The provider's authorization URL for a new sign-in, and what to remember until the callback. */
  async start(redirectUri: string): Promise<{ url: URL; flow: OidcFlow }> {
    const configuration = await this.discover();
    const flow: OidcFlow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      redirectUri,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url, flow };
  }

  /**
   * The callback: `query` is the callback's query string. Checks the state, exchanges the code with the PKCE
   * verifier, checks the ID token (issuer, audience, nonce) and reads the account's claims.
   */
  async finish(flow: OidcFlow, query: URLSearchParams): Promise<ProviderAccount> {
    const denied = query.get('error');
    if (denied) {
      const description = query.get('error_description');
      const message = `Sign-in was not completed at the provider: ${denied.slice(0, 100)}${description ? ` (${description.slice(0, 200)})` : ''}`;
      throw new DomainError(message, denied === 'access_denied' ? 403 : 400);
    }
    if (query.get('state') !== flow.state) {
      throw new Invalid('state: the sign-in answer does not belong to the sign-in this browser started; sign in again');
    }
    if (!query.get('code')) throw new Invalid('code: the provider sent no authorization code; sign in again');
    const configuration = await this.discover();
    const currentUrl = new URL(flow.redirectUri);
    currentUrl.search = query.toString();
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      let claims: Record<string, unknown> = { ...tokens.claims()! };
      // Many providers put names and email only in the UserInfo answer, not in the ID token.
      if (!claims.name && !claims.given_name && !claims.email && configuration.serverMetadata().userinfo_endpoint) {
        claims = { ...(await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub))), ...claims };
      }
      return toAccount(configuration.serverMetadata().issuer, claims);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      // Wrong client credentials are the operator's to fix, not the visitor's: logged, and a 502.
      const challenged = error instanceof client.WWWAuthenticateChallengeError; // a 401 to the client's credentials
      if (challenged || (error instanceof client.ResponseBodyError && error.error === 'invalid_client')) {
        throw new ProviderUnavailable(
          "the provider refused this server's client (invalid_client): check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET",
        );
      }
      // The token endpoint refusing the code (used twice, expired, wrong verifier) is the visitor's to retry.
      if (error instanceof client.ResponseBodyError && error.status < 500) {
        throw new Invalid(
          `code: the provider refused the sign-in (${error.error}${error.error_description ? `: ${error.error_description}` : ''}); sign in again`,
        );
      }
      throw new ProviderUnavailable(describe(error));
    }
  }
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null;

function toAccount(issuer: string, claims: Record<string, unknown>): ProviderAccount {
  const subject = text(claims.sub, 255);
  if (!subject) throw new ProviderUnavailable('the ID token has no subject');
  const [first, ...rest] = (text(claims.name, 200) ?? '').split(/\s+/);
  return {
    issuer,
    subject,
    firstName: text(claims.given_name, 100) ?? (first || null),
    lastName: text(claims.family_name, 100) ?? (rest.join(' ') || null),
    email: text(claims.email, 254),
  };
}

function describe(error: unknown): string {
  if (error instanceof ProviderUnavailable) return error.detail;
  if (error instanceof DomainError) return error.message;
  if (error instanceof client.ResponseBodyError) return `${error.status} ${error.error}`;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`.slice(0, 200);
  }
  return 'unknown error';
}
