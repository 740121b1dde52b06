// The session cookie over HTTP (docs/decisions/users-and-sessions.md): reading it (@fastify/cookie's parser, run
// only on requests that get here, not on every solve), setting it at sign-in (HttpOnly, SameSite=Lax, Path=/,
// Secure behind TLS), clearing it at sign-out, and authenticateSession, the cookie step of the management
// authentication chain (src/http/auth.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../service/index.ts';
import type { Principal } from '../service/keys.ts';

export const SESSION_COOKIE = 'verdict_session';
export const SPACE_HEADER = 'x-verdict-space';
export const CSRF_HEADER = 'x-csrf-token';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The session id the request's cookie carries, if any. */
export function sessionIdOf(request: FastifyRequest): string | undefined {
  const cookies = request.headers.cookie;
  if (cookies === undefined || !cookies.includes(SESSION_COOKIE)) return undefined;
  const value = request.server.parseCookie(cookies)[SESSION_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

export function hasSessionCookie(request: FastifyRequest): boolean {
  return sessionIdOf(request) !== undefined;
}

/** Secure when configured so, or (COOKIE_SECURE=auto) when the request came over TLS; Fastify's `protocol` honours X-Forwarded-Proto only with TRUST_PROXY. */
export function cookieSecure(services: Services, request: FastifyRequest): boolean {
  const setting = services.config.sessions.cookieSecure;
  return setting === 'auto' ? request.protocol === 'https' : setting;
}

export function setSessionCookie(services: Services, request: FastifyRequest, reply: FastifyReply, sessionId: string): void {
  void reply.setCookie(SESSION_COOKIE, sessionId, { httpOnly: true, sameSite: 'lax', path: '/', secure: cookieSecure(services, request) });
}

export function clearSessionCookie(services: Services, request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: cookieSecure(services, request) });
}

/**
 * The principal of a request made with the session cookie: the session live, on POST/PUT/PATCH/DELETE the
 * X-CSRF-Token header equal to the session's token (403 csrf), the space from X-Verdict-Space (absent: the user's
 * only space, or the first by name; one the user is no member of: 403).
 */
export function authenticateSession(services: Services, request: FastifyRequest): Promise<Principal> {
  return services.sessions.authenticate(sessionIdOf(request), {
    space: header(request, SPACE_HEADER),
    stateChanging: STATE_CHANGING.has(request.method),
    csrfToken: header(request, CSRF_HEADER),
  });
}
