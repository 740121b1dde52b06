// What dmn-js's DMN reader (dmn-moddle, DMN 1.3) is given to read and write a DMN 1.4 or 1.5 model in its own
// namespaces: the server's DMN 1.5 description (src/rules/dmn/moddle-package.ts: 1.3 plus the boxed conditional,
// iterators, filter and type constraints) under the namespaces the model itself uses, so a model is saved in the
// version it was written in and elements the editors do not show are kept as they are.
import { DMN15_PACKAGES } from '../../../src/rules/dmn/moddle-package.ts';
import type { DmnNamespaces } from './model.ts';

const DMN13_MODEL = 'https://www.omg.org/spec/DMN/20191111/MODEL/';
const DMN13_DIAGRAM = 'https://www.omg.org/spec/DMN/20191111/DMNDI/';

/** dmn-js's `moddleExtensions` for a model; undefined for a DMN 1.3 model, which dmn-js reads as it is. */
export function moddleExtensionsFor(namespaces: DmnNamespaces): Record<string, unknown> | undefined {
  if (namespaces.model === DMN13_MODEL && (namespaces.diagram ?? DMN13_DIAGRAM) === DMN13_DIAGRAM) return undefined;
  return {
    dmn: { ...DMN15_PACKAGES.dmn, uri: namespaces.model },
    dmndi: { ...DMN15_PACKAGES.dmndi, uri: namespaces.diagram ?? DMN15_PACKAGES.dmndi.uri },
  };
}
