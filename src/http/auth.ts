// Authentication hooks: a route group declares which key type it needs; the principal is attached to the request.
// Runs in onRequest, before the body is read, so an unauthenticated request never costs a body parse.
// Callback-style on purpose: a key already in the in-memory cache is checked without a promise or a tick.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Principal, Services } from '../service/index.ts';
import { ServiceError } from '../service/errors.ts';
import { forbidden, roleAllows } from '../service/roles.ts';
import type { Permission } from '../service/roles.ts';
import type { KeyType } from '../store/ports.ts';
import { authenticateSession, hasSessionCookie } from './session-auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** What a caller's role must allow to call the route (every /api/ route names one: route-table.ts checks). */
    permission?: Permission;
    /** A route anyone may call (signing in, the sign-in page's settings). */
    public?: boolean;
  }
}

/** Cache-Control of every answer that needed management credentials. */
export const NO_STORE = 'no-store';

export function requireKey(services: Services, type: KeyType) {
  /** Attaches the principal and counts the request against the key's rate limit; an error when refused. */
  const admit = (request: FastifyRequest, principal: Principal): ServiceError | undefined => {
    request.principal = principal;
    const limiter = services.rateLimiter;
    if (limiter) {
      const retryAfter = limiter.take(principal.keyId);
      if (retryAfter !== undefined) {
        return new ServiceError(
          'rate-limited',
          `Rate limit of ${limiter.limit} requests per second exceeded for this key; retry after ${retryAfter} s`,
          { retryAfter },
        );
      }
    }
    return undefined;
  };
  // Management answers (rules, keys, audit records, MCP) are the space's own data: never kept by a browser or a
  // proxy cache, refusals included. The solver's answers are left alone (docs/decisions/browser-hardening.md).
  const noStore = type === 'management';
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (noStore) void reply.header('cache-control', NO_STORE);
    let cached: Principal | undefined;
    try {
      cached = services.keys.authenticateCached(request.headers.authorization, type, request.raw.socket);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (cached !== undefined) {
      const refused = admit(request, cached);
      if (refused) done(refused);
      else done();
      return;
    }
    services.keys.authenticate(request.headers.authorization, type).then(
      (principal) => {
        const refused = admit(request, principal);
        if (refused) done(refused);
        else done();
      },
      (err: unknown) => done(err as Error),
    );
  };
}

/**
 * The management API's guard: authenticates the caller, then refuses (403) a role that lacks the permission the
 * route declares in `config.permission`.
 */
export function requireManagement(services: Services) {
  const byKey = requireKey(services, 'management');
  // A request with credentials in Authorization uses them; one without, but with the session cookie, the session.
  const authenticate = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    if (request.headers.authorization !== undefined || !hasSessionCookie(request)) {
      byKey(request, reply, done);
      return;
    }
    authenticateSession(services, request).then(
      (principal) => {
        request.principal = principal;
        done();
      },
      (err: unknown) => done(err as Error),
    );
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    // Set here too, for sessions: requireKey sets it for keys, before a refusal.
    void reply.header('cache-control', NO_STORE);
    authenticate(request, reply, (err?: Error) => {
      if (err) {
        done(err);
        return;
      }
      const permission = request.routeOptions.config.permission;
      const principal = request.principal!;
      // route-table.ts refuses to start with a route that names no permission; this only guards a gap in that.
      if (permission === undefined) done(new Error(`route ${request.routeOptions.url} declares no permission`));
      else if (!roleAllows(principal.role, permission)) done(forbidden(principal, permission));
      else done();
    });
  };
}

/** The principal set by requireKey (routes only run after it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route is missing its requireKey hook');
  return request.principal;
}
