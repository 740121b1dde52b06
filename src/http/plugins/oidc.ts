// Single sign-on routes (OIDC_PROVIDERS, src/service/sso.ts): /api/auth/oidc/:id/login sends the browser to the
// provider with a fresh state, nonce and PKCE challenge, kept in a short-lived cookie; the provider sends it back to
// /api/auth/oidc/:id/callback, which completes the sign-in, sets the session cookie and opens the Studio.
// Both are public (they are how one signs in) and never cached.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../service/index.ts';
import { classify } from '../../service/errors.ts';
import { PENDING_SIGN_IN_SECONDS } from '../../service/sso.ts';
import type { PendingSignIn } from '../../service/sso.ts';
import { NO_STORE } from '../auth.ts';
import { cookieSecure, setSessionCookie } from '../session-auth.ts';

export const OIDC_COOKIE = 'verdict_oidc';
const OIDC_PATH = '/api/auth/oidc/';

const params = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 40, description: 'The provider id of OIDC_PROVIDERS' } },
} as const;

function encode(pending: PendingSignIn): string {
  return Buffer.from(JSON.stringify(pending)).toString('base64url');
}

/** The pending sign-in of the cookie; undefined when absent or not one of ours (the service then refuses). */
function decode(request: FastifyRequest): PendingSignIn | undefined {
  const cookies = request.headers.cookie;
  if (cookies === undefined || !cookies.includes(OIDC_COOKIE)) return undefined;
  const value = request.server.parseCookie(cookies)[OIDC_COOKIE];
  if (value === undefined || value.length > 4096) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
    const fields = ['provider', 'state', 'nonce', 'verifier', 'redirectUri'] as const;
    return fields.every((field) => typeof parsed[field] === 'string') ? (parsed as unknown as PendingSignIn) : undefined;
  } catch {
    return undefined;
  }
}

/** This server's base URL as the browser reached it (Host, and X-Forwarded-* only with TRUST_PROXY). */
function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export async function oidcPlugin(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const cookieOptions = (request: FastifyRequest) => ({ httpOnly: true, sameSite: 'lax' as const, path: OIDC_PATH, secure: cookieSecure(services, request) });
  // Sign-in answers (redirects carrying state, refusals) are never kept by a browser or a proxy cache.
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.header('cache-control', NO_STORE);
    done();
  });

  app.get<{ Params: { id: string } }>('/api/auth/oidc/:id/login', {
    config: { public: true },
    schema: {
      tags: ['Sign-in'],
      summary: 'Start single sign-on with a configured OpenID Connect provider',
      description: `302 to the provider's sign-in page (authorization code with PKCE, state and nonce). Sets the \`${OIDC_COOKIE}\` cookie (HttpOnly, SameSite=Lax, ${PENDING_SIGN_IN_SECONDS / 60} minutes) that the callback checks.`,
      params,
    },
    handler: async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const { id } = request.params;
      const redirectUri = services.sso.redirectUri(id, `${origin(request)}${OIDC_PATH}${encodeURIComponent(id)}/callback`);
      const { authorizationUrl, pending } = await services.sso.begin(id, redirectUri);
      void reply.setCookie(OIDC_COOKIE, encode(pending), { ...cookieOptions(request), maxAge: PENDING_SIGN_IN_SECONDS });
      return reply.header('cache-control', 'no-store').redirect(authorizationUrl, 302);
    },
  });

  app.get<{ Params: { id: string } }>('/api/auth/oidc/:id/callback', {
    config: { public: true },
    schema: {
      tags: ['Sign-in'],
      summary: "The provider's redirect back: completes single sign-on",
      description: 'Checks state, exchanges the code (PKCE), checks the ID token and its nonce, creates or updates the user with the roles of the configured claim, sets the `verdict_session` cookie and answers 302 to /studio/. 401 when the sign-in cannot be verified, 403 when the claim grants no role.',
      params,
    },
    handler: async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const pending = decode(request);
      // Used once, whatever the outcome.
      void reply.clearCookie(OIDC_COOKIE, cookieOptions(request));
      reply.header('cache-control', 'no-store');
      const callbackUrl = new URL(request.url, origin(request));
      let sessionId: string;
      try {
        ({ sessionId } = await services.sso.complete(request.params.id, callbackUrl, pending, request.ip));
      } catch (err) {
        // A person's browser lands on the Studio's sign-in page, which says why; API clients get the error itself.
        const refusal = classify(err);
        if (refusal === undefined || refusal.kind === 'internal' || !(request.headers.accept ?? '').includes('text/html')) throw err;
        return reply.redirect(`/studio/?signInError=${encodeURIComponent(refusal.message)}`, 302);
      }
      setSessionCookie(services, request, reply, sessionId);
      return reply.redirect('/studio/', 302);
    },
  });
}
