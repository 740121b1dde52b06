// The Studio is a single-page app served by Verdict itself at /studio/ (no CDN): Vite builds it into
// studio/dist, which the server serves as static files.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { dmnJsWithoutInlineStyles } from './vite-dmn-csp.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/studio/',
  plugins: [react(), dmnJsWithoutInlineStyles()],
  // The server replaces the placeholder with a fresh nonce per page (src/http/plugins/studio.ts STUDIO_NONCE_PLACEHOLDER).
  html: { cspNonce: 'VERDICT_CSP_NONCE' },
  build: { outDir: fileURLToPath(new URL('./dist', import.meta.url)), emptyOutDir: true, sourcemap: true },
  // The engine's lexer and parser (src/engine/expression) are imported by the Studio's expression editor.
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
