// The Content-Security-Policy of the pages Verdict serves to browsers (docs/decisions/browser-hardening.md): the
// Studio and the API docs. Scripts and styles only from this origin, no inline script and no eval; images also as
// data: URLs (the Studio's favicon, swagger-ui's icons); no framing, no plugins, no <base>, forms only to us. A page
// whose code creates a style element at run time names it with one more style source: the Studio its per-page nonce
// (src/http/plugins/studio.ts), the API docs the hash of swagger-ui's one style element.
export function contentSecurityPolicy(styleSource?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    styleSource === undefined ? "style-src 'self'" : `style-src 'self' ${styleSource}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The style element swagger-ui's bundle (@fastify/swagger-ui 6, swagger-ui-dist 5.34) injects when it starts, by hash. When an upgrade
 * changes it, test/studio/csp.test.ts fails with Chromium's message naming the new hash.
 */
export const SWAGGER_UI_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

export function nonceSource(nonce: string): string {
  return `'nonce-${nonce}'`;
}
