// The page's Content-Security-Policy nonce (docs/decisions/browser-hardening.md). The server writes a fresh one into
// each index.html it answers (Vite's html.cspNonce placeholder: `<meta property="csp-nonce" nonce>`); style elements
// the Studio creates at run time (CodeMirror's theme, the analysis row marks) carry it, since the policy allows no
// other inline style. Read once: the page's nonce does not change while it lives.
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';

let nonce: string | undefined;

export function cspNonce(): string {
  nonce ??= document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
  return nonce;
}

/** For every CodeMirror editor: its theme's style element carries the page's nonce. */
export function editorNonce(): Extension {
  return EditorView.cspNonce.of(cspNonce());
}
