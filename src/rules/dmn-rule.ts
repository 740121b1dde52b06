// The `dmn` rule type's body: the DMN XML (`dmn`, the source of truth an editor edits and export returns) and the
// typed model read from it (`dmnModel`, src/rules/dmn/model.ts). Reading XML is async (dmn-moddle), readRule is
// sync: the service derives `dmnModel` from `dmn` on every write (src/service/dmn-documents.ts), so this check only
// needs the XML to be text and the model to have the shape the engine compiles. docs/decisions/dmn-rule-type.md.
import { Problems, describe, isObject } from './check.ts';
import type { JsonObject } from './check.ts';
import type { DmnModel } from './dmn/model.ts';

/** The field holding the model's XML. */
export const DMN_XML_FIELD = 'dmn';
/** The field holding the typed model the service derives from the XML. */
export const DMN_MODEL_FIELD = 'dmnModel';

/** The DMN namespaces (1.1 to 1.5): what tells a DMN file from other XML. */
export const DMN_NAMESPACE_PATTERN = /https?:\/\/www\.omg\.org\/spec\/DMN\/\d{8}\/MODEL\/?/;

const MODEL_LISTS = ['imports', 'itemDefinitions', 'inputData', 'decisions', 'businessKnowledgeModels', 'decisionServices'] as const;

/** Checks the body; answers the typed model when it has the shape the engine compiles. */
export function checkDmnBody(doc: JsonObject, out: Problems): DmnModel | undefined {
  const xml = doc[DMN_XML_FIELD];
  if (typeof xml !== 'string' || xml.trim() === '') {
    out.add(DMN_XML_FIELD, `must be the DMN model's XML as a string (got ${describe(xml)})`);
    return undefined;
  }
  if (!DMN_NAMESPACE_PATTERN.test(xml)) {
    out.add(DMN_XML_FIELD, 'is not a DMN model: no DMN 1.1-1.5 namespace (http://www.omg.org/spec/DMN/.../MODEL/)');
    return undefined;
  }
  const model = doc[DMN_MODEL_FIELD];
  if (model === undefined) {
    out.add(DMN_MODEL_FIELD, 'missing: it is read from `dmn` when the rule is saved through Verdict (the API, `verdict import`)');
    return undefined;
  }
  if (!isObject(model)) {
    out.add(DMN_MODEL_FIELD, `must be an object (got ${describe(model)})`);
    return undefined;
  }
  const before = out.count;
  if (typeof model.name !== 'string') out.add(`${DMN_MODEL_FIELD}.name`, `must be a string (got ${describe(model.name)})`);
  if (typeof model.namespace !== 'string') out.add(`${DMN_MODEL_FIELD}.namespace`, `must be a string (got ${describe(model.namespace)})`);
  for (const list of MODEL_LISTS) {
    if (!Array.isArray(model[list])) out.add(`${DMN_MODEL_FIELD}.${list}`, `must be an array (got ${describe(model[list])})`);
  }
  return out.count === before ? (model as unknown as DmnModel) : undefined;
}

/** The field where the service records which rule of the space holds each model the model imports. */
export const DMN_IMPORTS_FIELD = 'dmnImports';

/** One `<import>` of the model, resolved to the rule of the space whose model has its namespace. */
export interface DmnImportLink {
  /** The import's name (the prefix of imported elements). */
  name: string;
  namespace: string;
  ruleId: string;
}

/** The resolved imports recorded on a document; malformed entries are left out (the service writes the field). */
export function dmnImportsOf(doc: JsonObject): DmnImportLink[] {
  const links = doc[DMN_IMPORTS_FIELD];
  if (!Array.isArray(links)) return [];
  return links.filter((l): l is DmnImportLink => isObject(l) && typeof l.name === 'string' && typeof l.namespace === 'string' && typeof l.ruleId === 'string');
}

/** Imports of this type are DMN models (others, XSD or PMML, are not resolved). */
const DMN_IMPORT_TYPE = /omg\.org\/spec\/DMN\//i;

/** The DMN models a model imports, as its `<import>`s name them. */
export function dmnModelImports(model: DmnModel): { name: string; namespace: string }[] {
  return model.imports.filter((i) => DMN_IMPORT_TYPE.test(i.importType)).map((i) => ({ name: i.name, namespace: i.namespace }));
}
