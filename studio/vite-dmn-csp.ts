// dmn-js writes a few inline style attributes in HTML it parses (the bpmn.io logo and its lightbox, the decision
// table's drag image). The Studio's Content-Security-Policy refuses inline styles (docs/decisions/browser-hardening.md),
// so the build takes those attributes out and studio/src/dmn/dmn.css gives the same elements the same look by
// class: the logo stays where dmn-js's license wants it, visible and linked (docs/decisions/studio-dmn.md).
import type { Plugin } from 'vite';

const FILES = /node_modules\/(dmn-js-shared\/lib\/util\/PoweredByUtil|dmn-js-decision-table\/lib\/features\/drag-and-drop\/DragAndDrop)\.js$/;

export function dmnJsWithoutInlineStyles(): Plugin {
  return {
    name: 'verdict-dmn-js-without-inline-styles',
    enforce: 'pre',
    transform(code, id) {
      if (!FILES.test(id.replace(/\\/g, '/').split('?')[0]!)) return null;
      const named = code.replace('<span style="', '<span class="dmn-drag-image" style="');
      const stripped = named.replace(/\s?style="[^"]*"/g, '');
      if (/style="/.test(stripped)) this.error(`${id}: an inline style attribute is left; the Studio's CSP would refuse it`);
      return { code: stripped, map: null };
    },
  };
}
