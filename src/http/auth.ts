// Authentication hooks: a route group declares which key type it needs; the principal is attached to the request.
// Runs in onRequest, before the body is read, so an unauthenticated request never costs a body parse.
// Callback-style on purpose: a key already in the in-memory cache is checked without a promise or a tick.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Principal, Services } from '../service/index.ts';
import { MESSAGES, ServiceError } from '../service/errors.ts';
import { bearerToken } from '../service/keys.ts';
import type { KeyType } from '../store/ports.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

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
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    // A JWT access token of a configured issuer (TOKEN_ISSUERS) is checked before keys; any role may solve, a token
    // with role solver may do nothing else.
    if (services.machineTokens.enabled) {
      const token = bearerToken(request.headers.authorization);
      if (token !== undefined && services.machineTokens.accepts(token)) {
        services.machineTokens.authenticate(token).then(
          (principal) => {
            if (type === 'management' && principal.role === 'solver') done(new ServiceError('invalid-token', MESSAGES.solverTokenOnManagement));
            else done(admit(request, principal));
          },
          (err: unknown) => done(err as Error),
        );
        return;
      }
    }
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

/** The principal set by requireKey (routes only run after it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route is missing its requireKey hook');
  return request.principal;
}
