// DMN models entering Verdict (docs/decisions/dmn-rule-type.md): a `.dmn` file becomes one `dmn` rule document,
// and every write of a `dmn` rule derives its typed model (`dmnModel`) from its XML (`dmn`), since reading XML is
// async and readRule is not. The model's `<import>`s of other DMN models are resolved here to the rules of the
// space holding those namespaces (`dmnImports`), so the engine compiles the model with theirs.
import { readDmn } from '../rules/dmn/index.ts';
import type { DmnModel } from '../rules/dmn/index.ts';
import { DMN_IMPORTS_FIELD, DMN_MODEL_FIELD, DMN_XML_FIELD, dmnModelImports } from '../rules/dmn-rule.ts';
import type { DmnImportLink } from '../rules/dmn-rule.ts';
import { ValidationError } from '../rules/problems.ts';
import type { Problem } from '../rules/problems.ts';
import { baseName, isDmnXml } from '../formats/dmn/index.ts';

type Document = Record<string, unknown>;

/** The typed model of `xml`; a ValidationError under `dmn` naming each element that does not read. */
export async function readDmnModel(xml: string, path = DMN_XML_FIELD): Promise<DmnModel> {
  const read = await readDmn(xml);
  const problems: Problem[] = read.problems.map((p) => ({ path, message: p.path ? `${p.path}: ${p.message}` : p.message }));
  if (!read.model || problems.length > 0) throw new ValidationError(problems.length > 0 ? problems : [{ path, message: 'not a DMN model' }]);
  return read.model;
}

/** Whether a document is a `dmn` rule whose XML the service reads. */
export function isDmnDocument(document: unknown): document is Document & { dmn: string } {
  return document !== null && typeof document === 'object' && (document as Document).type === 'dmn' && typeof (document as Document)[DMN_XML_FIELD] === 'string';
}

/**
 * The document with `dmnModel` read from its XML (whatever `dmnModel` it came with: the XML is the truth). Other
 * documents come back as they are; a `dmn` document without XML is left for the validator to name.
 */
export async function withDmnModel<D extends Document>(document: D, path = DMN_XML_FIELD): Promise<D> {
  if (!isDmnDocument(document)) return document;
  const model = await readDmnModel(document.dmn, path);
  return { ...document, [DMN_MODEL_FIELD]: model, ...dmnSchemas(model) };
}

/**
 * The input and output models every rule has (the envelope's inputSchema / outputSchema), derived from the model:
 * its input data by name in, its decisions by name out. The Studio's bench and the rule list read them.
 */
export function dmnSchemas(model: DmnModel): { inputSchema: Document; outputSchema: Document } {
  const fields = (names: readonly { name: string }[]) => Object.fromEntries(names.map((element) => [element.name, {}]));
  return { inputSchema: fields(model.inputData), outputSchema: fields(model.decisions) };
}

/**
 * Links each DMN import of a document's model to the rule holding that namespace (`ruleOf`): `dmnImports`. An
 * import no rule holds is a ValidationError naming the import and its namespace.
 */
export function linkDmnImports(document: Document, ruleOf: (namespace: string) => string | undefined, path = DMN_XML_FIELD): Document {
  const model = document[DMN_MODEL_FIELD] as DmnModel | undefined;
  if (document.type !== 'dmn' || !model) return document;
  const wanted = dmnModelImports(model);
  const { [DMN_IMPORTS_FIELD]: _stale, ...rest } = document;
  if (wanted.length === 0) return rest;
  const problems: Problem[] = [];
  const links: DmnImportLink[] = [];
  for (const { name, namespace } of wanted) {
    const ruleId = ruleOf(namespace);
    if (ruleId === undefined) problems.push({ path, message: `import '${name}': no DMN rule of this space has the namespace ${namespace}; import that model first` });
    else links.push({ name, namespace, ruleId });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { ...rest, [DMN_IMPORTS_FIELD]: links };
}

export interface DmnFileOptions {
  /** The rule's name; default the model's name, else the file's. */
  name?: string;
  fileName?: string;
  status: 'pending' | 'published';
}

/** A `.dmn` file's text as one `dmn` rule document, its model read; a ValidationError when it does not read. */
export async function dmnRuleDocument(xml: string, options: DmnFileOptions): Promise<Document> {
  const model = await readDmnModel(xml);
  const name = options.name ?? (model.name.trim() !== '' ? model.name : options.fileName ? baseName(options.fileName) : 'DMN model');
  return { type: 'dmn', name, status: options.status, [DMN_XML_FIELD]: xml, [DMN_MODEL_FIELD]: model, ...dmnSchemas(model) };
}

/**
 * A rule file's value as every reader after this point takes it: DMN XML becomes its rule document (read), a
 * `dmn` rule inside JSON gets its model read; anything else comes back unchanged.
 */
export async function dmnFileValue(value: unknown, options: DmnFileOptions): Promise<unknown> {
  if (isDmnXml(value)) return dmnRuleDocument(value, options);
  if (isDmnDocument(value)) return withDmnModel(value);
  if (Array.isArray(value)) return withDmnModels(value, '');
  // A folder export (rule-format §9.2): its rules under data.rules.
  const data = isObject(value) && isObject(value.data) ? value.data : undefined;
  if (data && Array.isArray(data.rules)) return { ...(value as Document), data: { ...data, rules: await withDmnModels(data.rules, 'data.rules') } };
  return value;
}

function isObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** withDmnModel over a list of documents; every problem of every one at once, with its index. */
async function withDmnModels(list: unknown[], path: string): Promise<unknown[]> {
  if (!list.some(isDmnDocument)) return list;
  const problems: Problem[] = [];
  const out = await Promise.all(list.map(async (item, i) => {
    try {
      return isDmnDocument(item) ? await withDmnModel(item, `${path}[${i}].${DMN_XML_FIELD}`) : item;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...error.problems);
      return item;
    }
  }));
  if (problems.length > 0) throw new ValidationError(problems);
  return out;
}

export { isDmnXml };
