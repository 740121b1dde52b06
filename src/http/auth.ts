// Authentication hooks: a route group declares which key type it needs; the principal is attached to the request.
// Runs in onRequest, before the body is read, so an unauthenticated request never costs a body parse.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal, Services } from '../service/index.ts';
import { ServiceError } from '../service/errors.ts';
import type { KeyType } from '../store/ports.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export function requireKey(services: Services, type: KeyType) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const principal = await services.keys.authenticate(request.headers.authorization, type);
    request.principal = principal;
    const limiter = services.rateLimiter;
    if (limiter) {
      const retryAfter = limiter.take(principal.keyId);
      if (retryAfter !== undefined) {
        throw new ServiceError(
          'rate-limited',
          `Rate limit of ${limiter.limit} requests per second exceeded for this key; retry after ${retryAfter} s`,
          retryAfter,
        );
      }
    }
  };
}

/** The principal set by requireKey (routes only run after it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route is missing its requireKey hook');
  return request.principal;
}
