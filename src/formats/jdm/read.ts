// Reading a GoRules JDM file (`{contentType?, nodes, edges, settings?, tests?}`) into a `decision-graph` rule
// document: the graph is kept exactly as written (unknown fields too, so writing it back is a round trip), the
// envelope is filled from the file (name from the file name or given, input/output models from the input and
// output nodes' JSON schemas), and the embedded tests are returned beside it. What Verdict cannot run is listed
// in `unsupported` with its path; malformed files get `problems`, never a crash.
import type { Problem } from '../../rules/problems.ts';
import type { Unsupported } from './table-spec.ts';

export const JDM_CONTENT_TYPE = 'application/vnd.gorules.decision';

/** The top-level fields of a JDM file that are not the graph's: everything else is kept in `decisionGraph`. */
const FILE_FIELDS = new Set(['contentType', 'tests']);

export interface JdmTest {
  input: unknown;
  output: unknown;
}

export interface ReadJdmOptions {
  /** The rule's name; default: the file name without `.json`, else "Decision graph". */
  name?: string;
  /** The file name (`folder/pricing.json`): gives the name and the alias when `name` is not given. */
  fileName?: string;
  /** The status the document gets (a JDM file has none): omitted leaves it to the importer. */
  status?: 'published' | 'pending';
}

export interface ReadJdmResult {
  document: Record<string, unknown>;
  tests: JdmTest[];
  problems: Problem[];
  unsupported: Unsupported[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `folder/Loan pricing.json` -> `Loan pricing`. */
export function baseName(fileName: string): string {
  const last = fileName.split(/[\\/]/).pop() ?? fileName;
  return last.replace(/\.json$/i, '');
}

/** `pricing.json` -> `pricing` when that is a valid alias (letters, digits, "-"), so decision nodes find it by file name. */
function aliasOf(fileName: string | undefined): string | undefined {
  if (fileName === undefined) return undefined;
  const base = baseName(fileName);
  return /^[A-Za-z0-9-]{1,100}$/.test(base) ? base : undefined;
}

/** A JSON schema's object properties as a DecisionRules model (objects nest, every other leaf is `{}`). */
function modelOf(schema: unknown, depth = 0): Json {
  if (!isObject(schema) || depth > 32) return {};
  const properties = schema.properties;
  if (!isObject(properties)) return {};
  const model: Json = {};
  for (const [key, value] of Object.entries(properties)) model[key] = modelOf(value, depth + 1);
  return model;
}

/** The schema of an input or output node: JSON text (GoRules' form) or an object; none when empty or unreadable. */
function nodeSchema(node: Json | undefined): unknown {
  const content = node?.content;
  const schema = isObject(content) ? content.schema : undefined;
  if (typeof schema === 'string') {
    if (schema.trim() === '') return undefined;
    try {
      return JSON.parse(schema) as unknown;
    } catch {
      return undefined;
    }
  }
  return schema;
}

export function readJdm(json: unknown, options: ReadJdmOptions = {}): ReadJdmResult {
  const problems: Problem[] = [];
  const unsupported: Unsupported[] = [];
  if (!isObject(json)) {
    problems.push({ path: '', message: 'a JDM file must be an object {"nodes": [...], "edges": [...]}' });
    return { document: {}, tests: [], problems, unsupported };
  }
  if (!Array.isArray(json.nodes)) problems.push({ path: 'nodes', message: 'must be an array of JDM nodes' });
  if (!Array.isArray(json.edges)) problems.push({ path: 'edges', message: 'must be an array of JDM edges' });
  if (json.contentType !== undefined && json.contentType !== JDM_CONTENT_TYPE) {
    problems.push({ path: 'contentType', message: `must be ${JDM_CONTENT_TYPE} (got ${JSON.stringify(json.contentType)})` });
  }
  const graph: Json = {};
  for (const [key, value] of Object.entries(json)) if (!FILE_FIELDS.has(key)) graph[key] = value;
  const nodes = Array.isArray(json.nodes) ? json.nodes : [];
  nodes.forEach((node, i) => {
    if (isObject(node) && node.type === 'customNode') {
      unsupported.push({ path: `decisionGraph.nodes[${i}]`, reason: `custom node "${String(node.name ?? node.id)}" needs a handler of the GoRules host; solving the graph fails at this node` });
    }
  });
  const tests: JdmTest[] = [];
  if (json.tests !== undefined) {
    if (!Array.isArray(json.tests)) problems.push({ path: 'tests', message: 'must be an array of {"input", "output"}' });
    else {
      json.tests.forEach((test, i) => {
        if (!isObject(test) || !isObject(test.input)) problems.push({ path: `tests[${i}]`, message: 'must be {"input": {...}, "output": ...}' });
        else tests.push({ input: test.input, output: test.output });
      });
    }
  }
  const byType = (type: string) => nodes.find((n): n is Json => isObject(n) && n.type === type);
  const name = options.name ?? (options.fileName !== undefined ? baseName(options.fileName) : undefined) ?? 'Decision graph';
  const alias = options.name === undefined ? aliasOf(options.fileName) : undefined;
  const document: Json = {
    type: 'decision-graph',
    name: name.trim() === '' ? 'Decision graph' : name,
    ...(alias !== undefined ? { ruleAlias: alias } : {}),
    ...(options.status !== undefined ? { status: options.status } : {}),
    description: '',
    tags: [],
    inputSchema: modelOf(nodeSchema(byType('inputNode'))),
    outputSchema: modelOf(nodeSchema(byType('outputNode'))),
    decisionGraph: graph,
  };
  return { document, tests, problems, unsupported };
}
