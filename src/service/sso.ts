// Single sign-on with OpenID Connect (issue 32, item 2): the authorization code flow with PKCE, state and nonce,
// through openid-client, for each provider of OIDC_PROVIDERS. A first sign-in creates the user; every sign-in sets
// the user's roles per space from the provider's claim (e.g. its groups) and starts a session.
// docs/decisions/identity-providers.md; docs/security-sso-tokens.md.
import * as oidc from 'openid-client';
import type { OidcProviderConfig, RoleGrant } from '../config.ts';
import { ServiceError } from './errors.ts';
import type { ServiceLogger } from './logger.ts';
import { ROLES } from './roles.ts';
import type { Role } from './roles.ts';

/** What a sign-in left in the browser (a short-lived cookie) for its callback to check. */
export interface PendingSignIn {
  provider: string;
  state: string;
  nonce: string;
  /** The PKCE code verifier; only its S256 challenge went to the provider. */
  verifier: string;
  redirectUri: string;
}

/** The identity the provider vouched for, as the user service stores it. */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
  username: string;
  displayName?: string;
  roles: RoleGrant[];
}

/** The parts of the user and session services a sign-in needs (services.users, services.sessions). */
export interface SsoDeps {
  users: { upsertExternal(identity: ExternalIdentity): Promise<{ id: string }> };
  sessions: { start(owner: { userId: string }, address?: string): Promise<{ sessionId: string; csrfToken: string }> };
}

/** How long a started sign-in may take at the provider before its callback is refused. */
export const PENDING_SIGN_IN_SECONDS = 600;

class Provider {
  readonly config: OidcProviderConfig;
  #discovered: Promise<oidc.Configuration> | undefined;

  constructor(config: OidcProviderConfig) {
    this.config = config;
  }

  /** The provider's metadata, discovered once (a failure is tried again next time). */
  client(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.config;
    // Plain http is only for a provider on this host or a test; https everywhere else (the configuration says which).
    const insecure = new URL(issuer).protocol === 'http:';
    this.#discovered ??= oidc.discovery(
      new URL(issuer),
      clientId,
      undefined,
      clientSecret === undefined ? oidc.None() : oidc.ClientSecretPost(clientSecret),
      insecure ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
    this.#discovered.catch(() => {
      this.#discovered = undefined;
    });
    return this.#discovered;
  }
}

export class SsoService {
  readonly #providers = new Map<string, Provider>();
  readonly #deps: SsoDeps;
  readonly #log: ServiceLogger;

  constructor(providers: readonly OidcProviderConfig[], deps: SsoDeps, log: ServiceLogger) {
    for (const provider of providers) this.#providers.set(provider.id, new Provider(provider));
    this.#deps = deps;
    this.#log = log;
  }

  /** The providers the sign-in page offers. */
  list(): Array<{ id: string; name: string }> {
    return [...this.#providers.values()].map(({ config }) => ({ id: config.id, name: config.name }));
  }

  /** The provider's redirect URI: configured, or `defaultUri` (this server's callback URL as the browser reached it). */
  redirectUri(id: string, defaultUri: string): string {
    return this.#provider(id).config.redirectUri ?? defaultUri;
  }

  /** Starts a sign-in: the provider's authorization URL, and what the callback must find in the browser. */
  async begin(id: string, redirectUri: string): Promise<{ authorizationUrl: string; pending: PendingSignIn }> {
    const provider = this.#provider(id);
    const client = await this.#client(provider);
    const pending: PendingSignIn = { provider: id, state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), redirectUri };
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { authorizationUrl: url.href, pending };
  }

  /**
   * Completes a sign-in from the provider's redirect: checks state, exchanges the code with the PKCE verifier,
   * checks the ID token (signature, issuer, audience, nonce: openid-client), maps the role claim, creates or
   * updates the user and starts a session.
   */
  async complete(id: string, callbackUrl: URL, pending: PendingSignIn | undefined, address?: string): Promise<{ sessionId: string; csrfToken: string; username: string }> {
    const provider = this.#provider(id);
    const name = provider.config.name;
    if (pending === undefined || pending.provider !== id) {
      throw new ServiceError('sso-failed', `Sign-in with ${name} was not started in this browser, or took longer than ${PENDING_SIGN_IN_SECONDS / 60} minutes: start it again`);
    }
    const error = callbackUrl.searchParams.get('error');
    if (error !== null) {
      const description = callbackUrl.searchParams.get('error_description');
      throw new ServiceError('sso-failed', `${name} refused the sign-in: ${error}${description ? ` (${description.slice(0, 200)})` : ''}`);
    }
    if (callbackUrl.searchParams.get('state') !== pending.state) {
      throw new ServiceError('sso-failed', `Sign-in with ${name} was refused: its state does not match the one this browser started; start it again`);
    }
    const client = await this.#client(provider);
    let claims: Record<string, unknown>;
    let accessToken: string;
    try {
      // The callback is checked against the redirect URI the sign-in started with, not the URL as this server saw it.
      const current = new URL(pending.redirectUri);
      current.search = callbackUrl.search;
      const tokens = await oidc.authorizationCodeGrant(client, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      accessToken = tokens.access_token;
    } catch (err) {
      this.#log.warn({ provider: id, err }, 'single sign-on: the code exchange failed');
      throw new ServiceError('sso-failed', `Sign-in with ${name} failed: the provider's answer could not be verified; start it again`);
    }
    const subject = String(claims.sub);
    if (!(provider.config.roleClaim in claims)) {
      try {
        claims = { ...(await oidc.fetchUserInfo(client, accessToken, subject)), ...claims };
      } catch (err) {
        this.#log.warn({ provider: id, err }, 'single sign-on: userinfo could not be read');
      }
    }
    const roles = grantsOf(provider.config, claims[provider.config.roleClaim]);
    const username = usernameOf(claims);
    if (roles.length === 0) {
      throw new ServiceError(
        'sso-no-role',
        `${username} signed in with ${name}, but none of their ${provider.config.roleClaim} grants a role in Verdict (expected one of: ${Object.keys(provider.config.roles).join(', ')})`,
      );
    }
    const user = await this.#deps.users.upsertExternal({
      issuer: provider.config.issuer,
      subject,
      username,
      displayName: typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name : username,
      roles,
    });
    const session = await this.#deps.sessions.start({ userId: user.id }, address);
    return { ...session, username };
  }

  #provider(id: string): Provider {
    const provider = this.#providers.get(id);
    if (provider === undefined) throw new ServiceError('sso-unknown-provider', `No single sign-on provider with id ${JSON.stringify(id.slice(0, 40))} is configured`);
    return provider;
  }

  async #client(provider: Provider): Promise<oidc.Configuration> {
    try {
      return await provider.client();
    } catch (err) {
      this.#log.warn({ provider: provider.config.id, issuer: provider.config.issuer, err }, 'single sign-on: discovery failed');
      throw new ServiceError('sso-unavailable', `${provider.config.name} cannot be reached now; retry later`);
    }
  }
}

/** The grants of a claim value (a string or a list of them); the highest role per space wins. */
export function grantsOf(config: OidcProviderConfig, value: unknown): RoleGrant[] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const best = new Map<string, Role>();
  for (const item of values) {
    if (typeof item !== 'string') continue;
    // Keycloak's group mapper may give full paths (`/verdict-editors`): match the name with or without it.
    const grant = config.roles[item] ?? config.roles[item.replace(/^\//, '')];
    if (grant === undefined) continue;
    const held = best.get(grant.space);
    if (held === undefined || ROLES.indexOf(grant.role) > ROLES.indexOf(held)) best.set(grant.space, grant.role);
  }
  return [...best].map(([space, role]) => ({ space, role }));
}

/** The username a provider suggests: preferred_username, else email, else the subject. */
function usernameOf(claims: Record<string, unknown>): string {
  for (const candidate of [claims.preferred_username, claims.email, claims.sub]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim().slice(0, 100);
  }
  return 'user';
}
