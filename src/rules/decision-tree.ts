// Decision-tree bodies (spec/rule-format.md §5.1). Which node may contain which is one table; leaf nodes
// carry a path and a condition or value.
import { at, describe, expectArray, expectObject, isObject, listOf, quote, text } from './check.ts';
import { normaliseOperator } from './operators.ts';
import type { JsonObject, Problems } from './check.ts';
import { checkOutputScalarValue, checkScalarCondition } from './scalar-values.ts';

export const TREE_NODE_TYPES = ['if', 'else', 'then', 'logic_or', 'logic_group', 'condition', 'result'] as const;
export type TreeNodeType = (typeof TREE_NODE_TYPES)[number];

/** Allowed children per node type; leaves (condition, result) have none (the Studio's tree designer offers these). */
export const TREE_CHILDREN: Record<TreeNodeType, readonly TreeNodeType[]> = {
  if: ['condition', 'logic_or', 'then', 'if', 'else'],
  else: ['then', 'if', 'else'],
  then: ['result'],
  logic_or: ['logic_group'],
  logic_group: ['condition'],
  condition: [],
  result: [],
};

export const ROOT_CHILDREN: readonly TreeNodeType[] = ['if', 'else', 'then'];

/** Trees deeper than this are not authored by people; the bound keeps validation off the stack limit. */
const MAX_TREE_DEPTH = 100;

export function checkDecisionTree(doc: JsonObject, out: Problems): void {
  if (doc.nodes === undefined || doc.nodes === null) {
    out.add('nodes', 'is required for a decision tree (it may be empty)');
    return;
  }
  if (!expectArray(doc.nodes, 'nodes', out)) return;
  checkChildren(doc.nodes, 'nodes', 'the top level of a tree', ROOT_CHILDREN, out, 0);
}

function checkChildren(
  nodes: unknown[],
  path: string,
  parent: string,
  allowed: readonly TreeNodeType[],
  out: Problems,
  depth: number,
): void {
  if (depth >= MAX_TREE_DEPTH) {
    out.add(path, `is nested deeper than ${MAX_TREE_DEPTH} levels`);
    return;
  }
  nodes.forEach((node, i) => checkNode(node, at(path, i), parent, allowed, out, depth));
}

function checkNode(
  node: unknown,
  path: string,
  parent: string,
  allowed: readonly TreeNodeType[],
  out: Problems,
  depth: number,
): void {
  if (!expectObject(node, path, out)) return;
  const type = node.type;
  const typePath = at(path, 'type');
  if (type === undefined || type === null) {
    out.add(typePath, `is required (one of ${listOf(TREE_NODE_TYPES)})`);
    return;
  }
  if (!(TREE_NODE_TYPES as readonly unknown[]).includes(type)) {
    out.add(typePath, `unknown node type ${typeof type === 'string' ? quote(type) : describe(type)} (expected ${listOf(TREE_NODE_TYPES)})`);
    return;
  }
  const nodeType = type as TreeNodeType;
  if (!allowed.includes(nodeType)) {
    out.add(typePath, `a ${quote(nodeType)} node cannot appear in ${parent} (allowed: ${listOf(allowed)})`);
    return;
  }
  if (nodeType === 'condition') return checkConditionNode(node, path, out);
  if (nodeType === 'result') return checkResultNode(node, path, out);
  if (node.nodes === undefined || node.nodes === null) return;
  const childrenPath = at(path, 'nodes');
  if (!expectArray(node.nodes, childrenPath, out)) return;
  const article = /^[aeiou]/.test(nodeType) ? 'an' : 'a';
  checkChildren(node.nodes, childrenPath, `${article} ${quote(nodeType)} node`, TREE_CHILDREN[nodeType], out, depth + 1);
}

function checkConditionNode(node: JsonObject, path: string, out: Problems): void {
  const condition = node.scalarCondition;
  const conditionPath = at(path, 'scalarCondition');
  if (condition === undefined || condition === null) out.add(conditionPath, 'is required in a condition node');
  else checkScalarCondition(condition, conditionPath, out);
  // A function condition reads its own variables; every other operator tests the value at modelVariablePath.
  const isFunction = isObject(condition) && normaliseOperator(condition.operator) === 'function';
  checkModelPath(node, path, isFunction ? undefined : 'the input path this condition tests', out);
}

function checkResultNode(node: JsonObject, path: string, out: Problems): void {
  checkModelPath(node, path, 'the output path this result writes', out);
  const value = node.outputScalarValue;
  const valuePath = at(path, 'outputScalarValue');
  if (value === undefined || value === null) out.add(valuePath, 'is required in a result node');
  else checkOutputScalarValue(value, valuePath, out);
}

function checkModelPath(node: JsonObject, path: string, requiredAs: string | undefined, out: Problems): void {
  const value = node.modelVariablePath;
  const fieldPath = at(path, 'modelVariablePath');
  if (value === undefined || value === null || value === '') {
    if (requiredAs) out.add(fieldPath, `is required (${requiredAs})`);
    return;
  }
  text({ nonEmpty: true })(value, fieldPath, out);
}
