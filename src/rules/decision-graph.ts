// The `decision-graph` rule type: a GoRules JDM decision graph held as it is written (nodes, edges, settings) in
// the usual envelope. This module types the JDM content and reports what is malformed with JSON paths
// (`decisionGraph.nodes[3].content.rules[2]`); unknown JDM fields are kept and ignored. Expression syntax is the
// engine's to check (src/engine/graph), which reports it the same way.
import { Problems, at, describe, expectArray, expectObject, isObject, listOf, quote } from './check.ts';
import type { JsonObject } from './check.ts';

export const JDM_NODE_TYPES = [
  'inputNode',
  'outputNode',
  'decisionTableNode',
  'expressionNode',
  'switchNode',
  'decisionNode',
  'functionNode',
  'customNode',
] as const;
export type JdmNodeType = (typeof JDM_NODE_TYPES)[number];

/** inputField / outputPath / executionMode / passThrough of tables, expressions and sub-decisions. */
export interface JdmTransformAttributes {
  inputField?: string | null;
  outputPath?: string | null;
  executionMode?: 'single' | 'loop';
  passThrough?: boolean;
}

export interface JdmSchemaContent {
  /** A JSON schema, as JSON text (GoRules' form) or as an object; empty means none. */
  schema?: string | JsonObject | null;
}

export interface JdmTableInput {
  id: string;
  name?: string;
  /** The expression whose value a unary cell tests as `$`; absent: cells are full boolean expressions. */
  field?: string | null;
}
export interface JdmTableOutput {
  id: string;
  name?: string;
  /** Dotted path written; a trailing `[]` collects every matching row's value (first hit policy). */
  field: string;
}
export interface JdmDecisionTableContent extends JdmTransformAttributes {
  hitPolicy: 'first' | 'collect';
  inputs: JdmTableInput[];
  outputs: JdmTableOutput[];
  /** One object per row: column id -> cell text (empty: any / nothing); `_id`, `_description` kept for traces. */
  rules: Record<string, string>[];
}

export interface JdmExpression {
  id: string;
  key: string;
  value: string;
}
export interface JdmExpressionContent extends JdmTransformAttributes {
  expressions: JdmExpression[];
}

export interface JdmSwitchStatement {
  id: string;
  condition: string;
}
export interface JdmSwitchContent {
  hitPolicy?: 'first' | 'collect';
  statements: JdmSwitchStatement[];
}

export interface JdmDecisionContent extends JdmTransformAttributes {
  /** Another rule of the space: alias, id, or a file name (`other.json`, `folder/other.json`). */
  key: string;
}

/** v1: the source as a string; v2: `{ source }`. */
export type JdmFunctionContent = string | { source: string };

export interface JdmCustomContent {
  kind: string;
  config?: unknown;
}

interface JdmNodeBase<T extends JdmNodeType, C> {
  id: string;
  name: string;
  type: T;
  content: C;
  position?: { x: number; y: number };
  [unknown: string]: unknown;
}

export type JdmInputNode = JdmNodeBase<'inputNode', JdmSchemaContent | undefined>;
export type JdmOutputNode = JdmNodeBase<'outputNode', JdmSchemaContent | undefined>;
export type JdmDecisionTableNode = JdmNodeBase<'decisionTableNode', JdmDecisionTableContent>;
export type JdmExpressionNode = JdmNodeBase<'expressionNode', JdmExpressionContent>;
export type JdmSwitchNode = JdmNodeBase<'switchNode', JdmSwitchContent>;
export type JdmDecisionNode = JdmNodeBase<'decisionNode', JdmDecisionContent>;
export type JdmFunctionNode = JdmNodeBase<'functionNode', JdmFunctionContent>;
export type JdmCustomNode = JdmNodeBase<'customNode', JdmCustomContent>;

export type JdmNode =
  | JdmInputNode
  | JdmOutputNode
  | JdmDecisionTableNode
  | JdmExpressionNode
  | JdmSwitchNode
  | JdmDecisionNode
  | JdmFunctionNode
  | JdmCustomNode;

export interface JdmEdge {
  id: string;
  sourceId: string;
  targetId: string;
  /** The switch statement id whose branch this edge is. */
  sourceHandle?: string | null;
  [unknown: string]: unknown;
}

export interface DecisionGraphContent {
  nodes: JdmNode[];
  edges: JdmEdge[];
  settings?: JsonObject;
  [unknown: string]: unknown;
}

/** The `decisionGraph` of a valid document, typed (call after checkDecisionGraph found no problem). */
export function readDecisionGraph(document: Record<string, unknown>): DecisionGraphContent {
  return document.decisionGraph as DecisionGraphContent;
}

/**
 * The text of a JDM schema field as a JSON schema object: undefined when there is none (absent or empty text,
 * as GoRules reads it), or a string saying why it is not one.
 */
export function parseJdmSchema(schema: unknown): JsonObject | undefined | string {
  if (schema === undefined || schema === null) return undefined;
  if (isObject(schema)) return schema;
  if (typeof schema !== 'string') return `must be JSON schema text or an object (got ${describe(schema)})`;
  if (schema.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(schema);
    return isObject(parsed) ? parsed : `must be a JSON schema object (got ${describe(parsed)})`;
  } catch (error) {
    return `is not valid JSON (${(error as Error).message})`;
  }
}

/** The rule key a decisionNode names: a file name loses its folder and `.json` suffix. */
export function decisionKeyToRef(key: string): string {
  const base = key.trim().split('/').pop() ?? '';
  return base.toLowerCase().endsWith('.json') ? base.slice(0, -'.json'.length) : base;
}

function requiredText(obj: JsonObject, key: string, path: string, out: Problems, nonEmpty = false): void {
  const value = obj[key];
  if (typeof value !== 'string') out.add(at(path, key), value === undefined ? 'is required (a string)' : `must be a string (got ${describe(value)})`);
  else if (nonEmpty && value.trim() === '') out.add(at(path, key), 'must not be empty');
}

function optionalText(obj: JsonObject, key: string, path: string, out: Problems): void {
  const value = obj[key];
  if (value !== undefined && value !== null && typeof value !== 'string') out.add(at(path, key), `must be a string (got ${describe(value)})`);
}

function checkTransform(content: JsonObject, path: string, out: Problems): void {
  optionalText(content, 'inputField', path, out);
  optionalText(content, 'outputPath', path, out);
  const mode = content.executionMode;
  if (mode !== undefined && mode !== null && mode !== 'single' && mode !== 'loop') {
    out.add(at(path, 'executionMode'), `unknown execution mode ${typeof mode === 'string' ? quote(mode) : describe(mode)} (expected single or loop)`);
  }
  const pass = content.passThrough;
  if (pass !== undefined && pass !== null && typeof pass !== 'boolean') out.add(at(path, 'passThrough'), `must be true or false (got ${describe(pass)})`);
}

function checkHitPolicy(content: JsonObject, path: string, out: Problems, required: boolean): void {
  const policy = content.hitPolicy;
  if (policy === undefined && !required) return;
  if (policy !== 'first' && policy !== 'collect') {
    out.add(at(path, 'hitPolicy'), policy === undefined ? 'is required (first or collect)' : `unknown hit policy ${typeof policy === 'string' ? quote(policy) : describe(policy)} (expected first or collect)`);
  }
}

/** Checks each element is an object with unique string `id`s; calls `each` on the objects. */
function checkIdList(list: unknown, path: string, out: Problems, each: (item: JsonObject, path: string) => void): void {
  if (!expectArray(list, path, out)) return;
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const itemPath = at(path, i);
    if (!expectObject(item, itemPath, out)) return;
    requiredText(item, 'id', itemPath, out, true);
    if (typeof item.id === 'string') {
      if (seen.has(item.id)) out.add(at(itemPath, 'id'), `duplicate id ${quote(item.id)}`);
      seen.add(item.id);
    }
    each(item, itemPath);
  });
}

function checkTable(content: JsonObject, path: string, out: Problems): void {
  checkHitPolicy(content, path, out, true);
  checkTransform(content, path, out);
  checkIdList(content.inputs, at(path, 'inputs'), out, (input, p) => optionalText(input, 'field', p, out));
  checkIdList(content.outputs, at(path, 'outputs'), out, (output, p) => requiredText(output, 'field', p, out));
  const rulesPath = at(path, 'rules');
  if (!expectArray(content.rules, rulesPath, out)) return;
  content.rules.forEach((row, r) => {
    const rowPath = at(rulesPath, r);
    if (!expectObject(row, rowPath, out)) return;
    for (const [key, cell] of Object.entries(row)) {
      if (typeof cell !== 'string') out.add(at(rowPath, key), `a cell must be text (got ${describe(cell)})`);
    }
  });
}

function checkExpressions(content: JsonObject, path: string, out: Problems): void {
  checkTransform(content, path, out);
  checkIdList(content.expressions, at(path, 'expressions'), out, (expression, p) => {
    requiredText(expression, 'key', p, out);
    requiredText(expression, 'value', p, out);
  });
}

function checkSwitch(content: JsonObject, path: string, out: Problems): void {
  checkHitPolicy(content, path, out, false);
  checkIdList(content.statements, at(path, 'statements'), out, (statement, p) => requiredText(statement, 'condition', p, out));
}

function checkSchemaContent(content: unknown, path: string, out: Problems): void {
  if (content === undefined || content === null) return;
  if (!expectObject(content, path, out)) return;
  const schema = parseJdmSchema(content.schema);
  if (typeof schema === 'string') out.add(at(path, 'schema'), schema);
}

function checkContent(node: JsonObject, type: JdmNodeType, path: string, out: Problems): void {
  const contentPath = at(path, 'content');
  const content = node.content;
  switch (type) {
    case 'inputNode':
    case 'outputNode':
      return checkSchemaContent(content, contentPath, out);
    case 'functionNode':
      if (typeof content === 'string') return;
      if (isObject(content) && typeof content.source === 'string') return;
      return out.add(contentPath, `must be the function's source: a string (v1) or {"source": "..."} (v2) (got ${describe(content)})`);
    default:
      break;
  }
  if (!expectObject(content, contentPath, out)) return;
  if (type === 'decisionTableNode') checkTable(content, contentPath, out);
  else if (type === 'expressionNode') checkExpressions(content, contentPath, out);
  else if (type === 'switchNode') checkSwitch(content, contentPath, out);
  else if (type === 'decisionNode') {
    requiredText(content, 'key', contentPath, out, true);
    checkTransform(content, contentPath, out);
  } else requiredText(content, 'kind', contentPath, out);
}

/** The node ids on a cycle through `edges`, in order, or undefined (Kahn's algorithm, then one walk for the message). */
function findCycle(ids: readonly string[], edges: readonly { sourceId: string; targetId: string }[]): string[] | undefined {
  const outgoing = new Map<string, string[]>(ids.map((id) => [id, []]));
  const indegree = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const edge of edges) {
    outgoing.get(edge.sourceId)!.push(edge.targetId);
    indegree.set(edge.targetId, indegree.get(edge.targetId)! + 1);
  }
  const ready = ids.filter((id) => indegree.get(id) === 0);
  let removed = 0;
  while (ready.length > 0) {
    const id = ready.pop()!;
    removed++;
    for (const next of outgoing.get(id)!) {
      const left = indegree.get(next)! - 1;
      indegree.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (removed === ids.length) return undefined;
  // Every node left has an incoming edge from another node left: walking backwards from one must repeat.
  const left = new Set(ids.filter((id) => indegree.get(id)! > 0));
  const incoming = new Map<string, string>();
  for (const edge of edges) if (left.has(edge.sourceId) && left.has(edge.targetId)) incoming.set(edge.targetId, edge.sourceId);
  const path: string[] = [];
  const seenAt = new Map<string, number>();
  let current = [...left][0];
  while (!seenAt.has(current)) {
    seenAt.set(current, path.length);
    path.push(current);
    current = incoming.get(current)!;
  }
  return [...path.slice(seenAt.get(current)!), current].reverse();
}

/** Body check of a `decision-graph` document (validate.ts BODY_CHECKS). */
export function checkDecisionGraph(doc: JsonObject, out: Problems): void {
  const graph = doc.decisionGraph;
  if (graph === undefined || graph === null) return out.add('decisionGraph', 'is required for a decision graph ({"nodes": [...], "edges": [...]})');
  if (!expectObject(graph, 'decisionGraph', out)) return;
  if (graph.settings !== undefined && graph.settings !== null) expectObject(graph.settings, 'decisionGraph.settings', out);

  const nodesPath = 'decisionGraph.nodes';
  const nodeIds: string[] = [];
  let inputs = 0;
  if (expectArray(graph.nodes, nodesPath, out)) {
    const seen = new Set<string>();
    graph.nodes.forEach((node, i) => {
      const path = at(nodesPath, i);
      if (!expectObject(node, path, out)) return;
      requiredText(node, 'id', path, out, true);
      requiredText(node, 'name', path, out);
      if (typeof node.id === 'string' && node.id.trim() !== '') {
        if (seen.has(node.id)) out.add(at(path, 'id'), `duplicate node id ${quote(node.id)}`);
        else nodeIds.push(node.id);
        seen.add(node.id);
      }
      const type = node.type;
      if (typeof type !== 'string' || !(JDM_NODE_TYPES as readonly string[]).includes(type)) {
        out.add(at(path, 'type'), `unknown node type ${typeof type === 'string' ? quote(type) : describe(type)} (expected ${listOf(JDM_NODE_TYPES)})`);
        return;
      }
      if (type === 'inputNode') inputs++;
      checkContent(node, type as JdmNodeType, path, out);
    });
    if (inputs !== 1) out.add(nodesPath, `a decision graph needs exactly one inputNode (found ${inputs})`);
  }

  const edgesPath = 'decisionGraph.edges';
  const known = new Set(nodeIds);
  const links: { sourceId: string; targetId: string }[] = [];
  let edgesValid = true;
  if (expectArray(graph.edges, edgesPath, out)) {
    graph.edges.forEach((edge, i) => {
      const path = at(edgesPath, i);
      if (!expectObject(edge, path, out)) return void (edgesValid = false);
      requiredText(edge, 'id', path, out);
      optionalText(edge, 'sourceHandle', path, out);
      for (const end of ['sourceId', 'targetId'] as const) {
        const id = edge[end];
        if (typeof id !== 'string') {
          out.add(at(path, end), id === undefined ? 'is required (a node id)' : `must be a node id (got ${describe(id)})`);
          edgesValid = false;
        } else if (!known.has(id)) {
          out.add(at(path, end), `no node has the id ${quote(id)}`);
          edgesValid = false;
        }
      }
      if (edgesValid) links.push({ sourceId: edge.sourceId as string, targetId: edge.targetId as string });
    });
  } else edgesValid = false;

  if (edgesValid) {
    const cycle = findCycle(nodeIds, links);
    if (cycle) out.add(edgesPath, `the graph has a cycle: ${cycle.map((id) => quote(id)).join(' -> ')}`);
  }
}
