// The table of every route with the permission it needs. A route under /api/ (or /mcp) that names neither a
// permission nor `public` stops the server at start: a new route cannot be left unguarded by forgetting it.
// The permission matrix test walks this table, so it covers every route without a list of its own.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Permission } from '../service/roles.ts';

export interface RouteEntry {
  method: string;
  url: string;
  /** Undefined only for public routes and routes outside the APIs (health, metrics, the Studio's files). */
  permission?: Permission;
  public: boolean;
}

/** Routes whose access is decided elsewhere: the OpenAPI documents and their UI are public reading. */
const DOCS = /^\/api(?:\/solver)?\/docs(?:\/|$)/;

function guarded(url: string): boolean {
  return (url.startsWith('/api/') || url === '/mcp') && !DOCS.test(url);
}

/** Records every route registered from now on; throws (the server does not start) for an unguarded API route. */
export function recordRoutes(app: FastifyInstance): RouteEntry[] {
  const table: RouteEntry[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const permission = route.config?.permission;
    const open = route.config?.public === true;
    if (guarded(route.url) && permission === undefined && !open) {
      throw new Error(`Route ${String(route.method)} ${route.url} names no permission: add config: { permission } (src/service/roles.ts) or config: { public: true }`);
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') table.push({ method, url: route.url, permission, public: open });
    }
  });
  return table;
}
