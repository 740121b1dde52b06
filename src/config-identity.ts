// The identity providers of the configuration (issue 32): OIDC_PROVIDERS (single sign-on for people) and
// TOKEN_ISSUERS (JWT access tokens for machines), each a JSON array. Read by src/config.ts; a problem stops start-up
// with one line naming the variable and the entry. docs/decisions/identity-providers.md has the claims format.
import { z } from 'zod';
import { MEMBER_ROLES } from './service/roles.ts';
import type { Role } from './service/roles.ts';

/** Issuers, JWKS and redirect URLs are http(s) URLs; plain http is for a provider on the same host or a test. */
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });
const name = z.string().trim().min(1, 'must not be empty').max(200);

export interface TokenIssuerConfig {
  /** The `iss` the tokens carry, exactly. */
  issuer: string;
  /** An `aud` the tokens must carry. */
  audience: string;
  /** Where the issuer publishes its keys; default: `jwks_uri` of the issuer's OpenID discovery document. */
  jwksUri: string | undefined;
  /** The claim naming the token's space (default `verdict_space`). */
  spaceClaim: string;
  /** The claim naming the token's role (default `verdict_role`): viewer, editor, publisher, admin or solver. */
  roleClaim: string;
  /** Clock difference tolerated on exp and nbf, seconds (0-300, default 30). */
  clockSkewSeconds: number;
}

const tokenIssuer = z
  .strictObject({
    issuer: httpUrl,
    audience: name,
    jwksUri: httpUrl.optional(),
    spaceClaim: name.default('verdict_space'),
    roleClaim: name.default('verdict_role'),
    clockSkewSeconds: z.int().min(0).max(300).default(30),
  })
  .transform((entry): TokenIssuerConfig => ({ ...entry, jwksUri: entry.jwksUri }));

/** What a provider's claim value grants: a role (a member role: viewer, editor, publisher, admin) in a space. */
export interface RoleGrant {
  space: string;
  role: Role;
}

const memberRole = z.string().refine((role) => (MEMBER_ROLES as readonly string[]).includes(role), { error: `must be one of ${MEMBER_ROLES.join(', ')}` }).transform((role) => role as Role);

export interface OidcProviderConfig {
  /** In the URLs: /api/auth/oidc/<id>/login. */
  id: string;
  /** Shown on the sign-in page. */
  name: string;
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only). */
  clientSecret: string | undefined;
  /** The claim of the ID token (or userinfo) whose values map to roles, e.g. `groups`. */
  roleClaim: string;
  /** Claim value -> the space and role it grants. A user gets every grant their values match (highest per space). */
  roles: Record<string, RoleGrant>;
  /** The callback URL registered at the provider; default: this server's /api/auth/oidc/<id>/callback as requested. */
  redirectUri: string | undefined;
}

const oidcProvider = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be 1-40 lower-case letters, digits or dashes'),
    name,
    issuer: httpUrl,
    clientId: name,
    clientSecret: z.string().min(1).optional(),
    roleClaim: name.default('groups'),
    roles: z.record(z.string().min(1), z.strictObject({ space: name, role: memberRole })),
    redirectUri: httpUrl.optional(),
  })
  .transform((entry): OidcProviderConfig => ({ ...entry, clientSecret: entry.clientSecret, redirectUri: entry.redirectUri }));

/** The problem of a parse, as `[0].audience: must not be empty`. */
function problemOf(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  return `${path === '' ? '' : `${path}: `}${issue.message}`;
}

function jsonArray<T>(value: string | undefined, schema: z.ZodType<T>, fail: (problem: string) => Error): T[] {
  if (value === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw fail(`is not valid JSON (${(error as Error).message})`);
  }
  const result = z.array(schema).safeParse(parsed);
  if (!result.success) throw fail(`is invalid: ${problemOf(result.error)}`);
  return result.data;
}

export function tokenIssuers(value: string | undefined, fail: (problem: string) => Error): TokenIssuerConfig[] {
  const issuers = jsonArray(value, tokenIssuer, fail);
  const seen = new Set<string>();
  for (const entry of issuers) {
    if (seen.has(entry.issuer)) throw fail(`names issuer ${entry.issuer} twice`);
    seen.add(entry.issuer);
  }
  return issuers;
}

export function oidcProviders(value: string | undefined, fail: (problem: string) => Error): OidcProviderConfig[] {
  const providers = jsonArray(value, oidcProvider, fail);
  const seen = new Set<string>();
  for (const entry of providers) {
    if (seen.has(entry.id)) throw fail(`names provider id ${entry.id} twice`);
    seen.add(entry.id);
  }
  return providers;
}
