// The Studio, the browser rule editor (studio/), served by Verdict itself: its built files (studio/dist, made by
// `npm run build`) at /studio/, and / redirects there. Hashed assets are cached for a year; index.html is never
// cached, so a new build reaches browsers at once. Every other path under /studio/ is a route of the single-page
// app and answers index.html. Without a build the Studio answers 503 saying how to make one. Not in either OpenAPI
// document: these are not API routes. STUDIO_ENABLED=false registers none of it (docs/decisions/studio-serving.md).
// Every answer carries the Content-Security-Policy; the page gets a fresh style nonce each time
// (docs/decisions/browser-hardening.md).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../service/index.ts';
import { contentSecurityPolicy, nonceSource } from '../csp.ts';
import { notFoundHandler } from '../errors.ts';

/** Where `npm run build` puts the Studio. */
export const STUDIO_DIST = fileURLToPath(new URL('../../../studio/dist/', import.meta.url));

export const STUDIO_PREFIX = '/studio';

/** Vite names built assets by content hash: a file there never changes, so it may be cached for good. */
const ASSETS = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Verdict Studio is not built</title></head>
<body><h1>Verdict Studio is not built</h1>
<p>Run <code>npm run build</code> (or start the server with <code>./dev start</code>, which builds it), then restart the server.</p>
<p>The APIs work without it: <a href="/api/docs">management API</a>, <a href="/api/solver/docs">solver API</a>.</p>
</body></html>
`;

/** What Vite writes where the page's nonce goes (studio/vite.config.ts `html.cspNonce`). */
export const STUDIO_NONCE_PLACEHOLDER = 'VERDICT_CSP_NONCE';

/**
 * Headers of every Studio page and file: the CSP (src/http/csp.ts; with the page's style nonce on pages), no MIME sniffing, no framing
 * (X-Frame-Options for browsers without frame-ancestors), no referrer beyond the origin.
 */
function securityHeaders(reply: FastifyReply, nonce?: string): void {
  void reply
    .header('content-security-policy', contentSecurityPolicy(nonce === undefined ? undefined : nonceSource(nonce)))
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
}

/** index.html with a fresh nonce in place of the placeholder; revalidated on every load, so each load has its own nonce. */
async function sendPage(dir: string, reply: FastifyReply): Promise<FastifyReply> {
  const nonce = randomBytes(16).toString('base64');
  const html = (await readFile(join(dir, 'index.html'), 'utf8')).replaceAll(STUDIO_NONCE_PLACEHOLDER, nonce);
  securityHeaders(reply, nonce);
  return reply.header('cache-control', NO_CACHE).type('text/html; charset=utf-8').send(html);
}

export interface StudioOptions {
  services: Services;
  /** The built Studio; default STUDIO_DIST. */
  dir?: string;
}

export async function studioPlugin(app: FastifyInstance, options: StudioOptions): Promise<void> {
  if (!options.services.config.studioEnabled) return;
  const dir = options.dir ?? STUDIO_DIST;

  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(`${STUDIO_PREFIX}/`, 302));

  await app.register(async (scope) => {
    // Checked once at start: `./dev start` builds before the server starts, and a half-written build must not be served.
    if (!existsSync(join(dir, 'index.html'))) {
      const notBuilt = (_request: FastifyRequest, reply: FastifyReply): FastifyReply => {
        securityHeaders(reply);
        return reply.code(503).header('cache-control', NO_CACHE).type('text/html; charset=utf-8').send(NOT_BUILT);
      };
      scope.get('/', { schema: { hide: true } }, notBuilt);
      scope.get('/*', { schema: { hide: true } }, notBuilt);
      return;
    }
    // The page itself is answered by sendPage (its nonce is per answer); fastify-static serves the files.
    scope.get('/', { schema: { hide: true } }, (_request, reply) => sendPage(dir, reply));
    scope.get('/index.html', { schema: { hide: true } }, (_request, reply) => sendPage(dir, reply));
    await scope.register(fastifyStatic, {
      root: dir,
      prefix: '/',
      index: false,
      // Cache-Control is set per file below instead of one max-age for all.
      cacheControl: false,
      setHeaders: (reply, path) => {
        securityHeaders(reply);
        void reply.header('cache-control', relative(dir, path).startsWith(`${ASSETS}${sep}`) ? IMMUTABLE : NO_CACHE);
      },
    });
    // A path that is no file is a route of the app (/studio/rules/x): the app's page answers and routes itself. A
    // missing hashed asset stays a 404: HTML in place of a script would only hide the cause (a stale page).
    scope.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if ((request.method !== 'GET' && request.method !== 'HEAD') || path.startsWith(`${STUDIO_PREFIX}/${ASSETS}/`)) {
        notFoundHandler(request, reply);
        return;
      }
      return sendPage(dir, reply);
    });
  }, { prefix: STUDIO_PREFIX });
}
