// Machine tokens (issue 32, item 5): OAuth 2.0 JWT access tokens from configured issuers (TOKEN_ISSUERS), verified
// with jose against the issuer's JWKS: signature, issuer, audience, exp and nbf within a bounded clock skew. Two
// claims map a token to a space and a role. docs/decisions/identity-providers.md; docs/security-sso-tokens.md.
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import type { TokenIssuerConfig } from '../config.ts';
import { ServiceError } from './errors.ts';
import type { ServiceLogger } from './logger.ts';
import type { Principal } from './keys.ts';
import { isRole, ROLES } from './roles.ts';

/**
 * Signature algorithms accepted: asymmetric only, so a token can never be "signed" with a public key used as an
 * HMAC secret, and never `none`. A key of the JWKS that names its `alg` narrows this further (jose checks it).
 */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** A compact JWS: three base64url segments, the header a JSON object (`{"` is `eyJ`). API keys never look like it. */
const JWT_SHAPE = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;

export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

/** A claim value quoted for a message: bounded, so a token cannot fill a log line or an answer. */
function quoted(value: unknown): string {
  if (Array.isArray(value)) return value.slice(0, 10).map(quoted).join(', ');
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}...` : text);
}

function refused(message: string): ServiceError {
  return new ServiceError('invalid-token', message);
}

type KeySet = ReturnType<typeof createRemoteJWKSet>;

class TrustedIssuer {
  readonly config: TokenIssuerConfig;
  #keys: Promise<KeySet> | undefined;

  constructor(config: TokenIssuerConfig) {
    this.config = config;
  }

  /** The issuer's key set; its URL from the configuration or, once, from the issuer's discovery document. */
  keys(): Promise<KeySet> {
    this.#keys ??= this.#jwksUri().then((uri) => createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, cooldownDuration: 30_000 }));
    // A failed discovery is tried again by the next token instead of being remembered.
    this.#keys.catch(() => {
      this.#keys = undefined;
    });
    return this.#keys;
  }

  async #jwksUri(): Promise<string> {
    if (this.config.jwksUri !== undefined) return this.config.jwksUri;
    const discovery = `${this.config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(discovery, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`${discovery} answered HTTP ${response.status}`);
    const document = (await response.json()) as { jwks_uri?: unknown };
    if (typeof document.jwks_uri !== 'string') throw new Error(`${discovery} names no jwks_uri`);
    return document.jwks_uri;
  }
}

export class MachineTokenService {
  readonly #issuers = new Map<string, TrustedIssuer>();
  readonly #log: ServiceLogger;

  constructor(issuers: readonly TokenIssuerConfig[], log: ServiceLogger) {
    for (const issuer of issuers) this.#issuers.set(issuer.issuer, new TrustedIssuer(issuer));
    this.#log = log;
  }

  /** True when TOKEN_ISSUERS names at least one issuer. */
  get enabled(): boolean {
    return this.#issuers.size > 0;
  }

  /** True when `token` should be checked here rather than as an API key. */
  accepts(token: string): boolean {
    return this.#issuers.size > 0 && looksLikeJwt(token);
  }

  /**
   * The principal of a valid token. A refused token is ServiceError `invalid-token` (401) whose message says what
   * is wrong; an issuer whose keys cannot be fetched is `token-issuer-unavailable` (503), details in the log.
   */
  async authenticate(token: string): Promise<Principal> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    let unverified: JWTPayload;
    try {
      header = decodeProtectedHeader(token);
      unverified = decodeJwt(token);
    } catch {
      throw refused('Token is not a well-formed JWT');
    }
    if (typeof header.alg !== 'string' || header.alg.toLowerCase() === 'none') {
      throw refused('Token is not signed (alg "none"); tokens must be signed by their issuer');
    }
    if (typeof unverified.iss !== 'string') throw refused('Token has no issuer (iss claim)');
    const issuer = this.#issuers.get(unverified.iss);
    if (issuer === undefined) throw refused(`Token issuer ${quoted(unverified.iss)} is not trusted by this server`);
    const { config } = issuer;
    let payload: JWTPayload;
    try {
      const verified = await jwtVerify(token, await issuer.keys(), {
        issuer: config.issuer,
        audience: config.audience,
        clockTolerance: config.clockSkewSeconds,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
      });
      payload = verified.payload;
    } catch (error) {
      throw this.#explain(error, config, unverified);
    }
    return principalOf(payload, config);
  }

  /** The refusal for a jose failure, in words a client can act on; faults of the issuer are logged instead. */
  #explain(error: unknown, config: TokenIssuerConfig, unverified: JWTPayload): ServiceError {
    if (error instanceof errors.JWTExpired) {
      return refused(`Token expired at ${typeof unverified.exp === 'number' ? new Date(unverified.exp * 1000).toISOString() : 'an unknown time'}`);
    }
    if (error instanceof errors.JWTClaimValidationFailed) {
      switch (error.claim) {
        case 'aud':
          return refused(`Token audience ${quoted(unverified.aud ?? null)} does not include ${quoted(config.audience)}`);
        case 'nbf':
          return refused(`Token is not valid before ${typeof unverified.nbf === 'number' ? new Date(unverified.nbf * 1000).toISOString() : 'its nbf claim'}`);
        case 'iss':
          return refused(`Token issuer ${quoted(unverified.iss)} is not trusted by this server`);
        default:
          return refused(`Token claim ${quoted(error.claim)} is missing or invalid`);
      }
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) return refused("Token signature does not verify against the issuer's keys");
    if (error instanceof errors.JOSEAlgNotAllowed) return refused('Token signature algorithm is not allowed (asymmetric algorithms only)');
    if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
      return refused('Token was signed with a key the issuer does not publish');
    }
    if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return refused('Token is not a well-formed JWT');
    this.#log.warn({ issuer: config.issuer, err: error }, 'machine token: the issuer keys could not be fetched');
    return new ServiceError('token-issuer-unavailable', `The keys of token issuer ${quoted(config.issuer)} cannot be fetched now; retry later`);
  }
}

/**
 * The principal of a verified token: actor kind token, id `<iss>|<sub>`, named by its client (azp, client_id) or
 * its subject; the rate-limit bucket `token:<iss>|<sub>`.
 */
function principalOf(payload: JWTPayload, config: TokenIssuerConfig): Principal {
  const space = payload[config.spaceClaim];
  if (typeof space !== 'string' || space.trim() === '') throw refused(`Token has no ${config.spaceClaim} claim naming its space`);
  const role = payload[config.roleClaim];
  if (!isRole(role)) {
    throw refused(`Token claim ${config.roleClaim} is ${role === undefined ? 'missing' : quoted(role)}; expected one of ${ROLES.join(', ')}`);
  }
  const id = `${config.issuer}|${payload.sub!}`;
  const client = typeof payload.azp === 'string' ? payload.azp : typeof payload.client_id === 'string' ? payload.client_id : undefined;
  const name = client ?? payload.sub!;
  return Object.freeze({
    keyId: `token:${id}`,
    space,
    type: role === 'solver' ? 'solver' : 'management',
    keyName: name,
    role,
    actor: Object.freeze({ kind: 'token' as const, id, name }),
  });
}
