// The Content-Security-Policy of the pages Verdict serves to browsers (docs/decisions/browser-hardening.md): the
// Studio and the API docs. Scripts and styles only from this origin, no inline script and no eval; images also as
// data: URLs (the Studio's favicon, swagger-ui's icons); no framing, no plugins, no <base>, forms only to us.
// A page whose code creates style elements at run time passes its nonce (the Studio: src/http/plugins/studio.ts).
export function contentSecurityPolicy(styleNonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    styleNonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
