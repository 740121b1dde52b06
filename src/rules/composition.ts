// Rule-flow (`composition`) bodies (spec/rule-format.md §8.1): the `dataTree` of rule nodes and mappings.
// Mappings may read any node of the flow, so names are collected first and checked second. The same pass reads
// the flow into its typed model (model/composition.ts), which is what the engine compiles.
import { at, checkFields, describe, expectArray, expectObject, isObject, quote, text } from './check.ts';
import type { Check, FieldRule, JsonObject, Problems } from './check.ts';
import { VERSION_RANGE, isVersion } from './bounds.ts';
import type { CompositionMapping, CompositionModel, CompositionNode } from './model/composition.ts';

const MAX_FLOW_DEPTH = 100;

const version: Check = (value, path, out) => {
  // -1 (or null / missing) means latest published.
  if (isVersion(value) || value === -1 || value === 'latest') return;
  out.add(path, `must be a version number (${VERSION_RANGE}), -1 or "latest" (got ${typeof value === 'number' ? value : describe(value)})`);
};

const MAPPING_FIELDS: readonly FieldRule[] = [
  { key: 'key', required: true, hint: '(the path written in this node\'s input)', check: text({ nonEmpty: true }) },
  { key: 'source', required: true, hint: '(the node whose output is read, or "start")', check: text({ nonEmpty: true }) },
  { key: 'sourceVariable', check: text() },
];

interface FlowNode {
  node: JsonObject;
  path: string;
}

/** Checks a rule flow's body and reads its model (whole only when `out` got no problem from it). */
export function readComposition(doc: JsonObject, out: Problems): CompositionModel {
  const empty: CompositionNode = { name: '', path: 'dataTree', baseId: undefined, version: undefined, mapping: [], children: [] };
  const root = doc.dataTree;
  if (root === undefined || root === null) {
    out.add('dataTree', 'is required for a rule flow (its start node with the rule nodes as children)');
    return { type: 'composition', document: doc, root: empty };
  }
  if (!expectObject(root, 'dataTree', out)) return { type: 'composition', document: doc, root: empty };
  const nodes: FlowNode[] = [];
  const model = collectNodes(root, 'dataTree', true, nodes, out, 0);
  const names = new Set(nodes.map(({ node }) => node.globalVariable).filter((name) => typeof name === 'string'));
  for (const { node, path } of nodes) checkMappings(node, path, names, out);
  return { type: 'composition', document: doc, root: model ?? empty };
}

function collectNodes(node: JsonObject, path: string, isRoot: boolean, nodes: FlowNode[], out: Problems, depth: number): CompositionNode | undefined {
  if (depth >= MAX_FLOW_DEPTH) {
    out.add(path, `is nested deeper than ${MAX_FLOW_DEPTH} levels`);
    return undefined;
  }
  nodes.push({ node, path });
  checkFields(node, path, [{ key: 'globalVariable', required: true, hint: '(the node\'s name)', check: text({ nonEmpty: true }) }], out);
  const children = node.children === undefined || node.children === null ? [] : node.children;
  const childrenPath = at(path, 'children');
  if (!expectArray(children, childrenPath, out)) return undefined;
  const realChildren = children.filter((child) => child !== null);
  // The start node solves nothing and the end node (a leaf) only maps the output; every node between solves a rule.
  if (!isRoot && realChildren.length > 0 && (node.baseId === undefined || node.baseId === null)) {
    out.add(at(path, 'baseId'), 'is required (the id of the rule this node solves)');
  } else if (node.baseId !== undefined && node.baseId !== null) {
    text({ nonEmpty: true })(node.baseId, at(path, 'baseId'), out);
  }
  if (node.version !== undefined && node.version !== null) version(node.version, at(path, 'version'), out);
  const read: CompositionNode[] = [];
  children.forEach((child, i) => {
    // `children: [null]` occurs on end nodes.
    if (child === null) return;
    const childPath = at(childrenPath, i);
    if (!expectObject(child, childPath, out)) return;
    const model = collectNodes(child, childPath, false, nodes, out, depth + 1);
    if (model !== undefined) read.push(model);
  });
  return {
    name: typeof node.globalVariable === 'string' ? node.globalVariable : '',
    path,
    baseId: !isRoot && typeof node.baseId === 'string' && node.baseId !== '' ? node.baseId : undefined,
    version: node.version,
    mapping: Array.isArray(node.mapping) ? node.mapping.filter(isObject).map(mappingOf) : [],
    children: read,
  };
}

function mappingOf(entry: JsonObject): CompositionMapping {
  const mapping = { key: entry.key as string, source: entry.source as string };
  return typeof entry.sourceVariable === 'string' ? { ...mapping, sourceVariable: entry.sourceVariable } : mapping;
}

function checkMappings(node: JsonObject, path: string, names: Set<unknown>, out: Problems): void {
  const mapping = node.mapping;
  if (mapping === undefined || mapping === null) return;
  const mappingPath = at(path, 'mapping');
  if (!expectArray(mapping, mappingPath, out)) return;
  mapping.forEach((entry, i) => {
    const entryPath = at(mappingPath, i);
    if (!expectObject(entry, entryPath, out)) return;
    const before = out.count;
    checkFields(entry, entryPath, MAPPING_FIELDS, out);
    if (out.count === before && isObject(entry) && !names.has(entry.source)) {
      out.add(at(entryPath, 'source'), `unknown node ${quote(entry.source)} (no node of this flow has that globalVariable)`);
    }
  });
}
