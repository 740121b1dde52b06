// Decision-tree bodies (spec/rule-format.md §5.1). Which node may contain which is one table; leaf nodes
// carry a path and a condition or value. The same pass reads the tree into its typed model
// (model/decision-tree.ts), which is what the engine compiles.
import { at, describe, expectArray, expectObject, isObject, listOf, quote, text } from './check.ts';
import { normaliseOperator } from './operators.ts';
import type { JsonObject, Problems } from './check.ts';
import { checkOutputScalarValue, checkScalarCondition } from './scalar-values.ts';
import type { OutputScalarValue, ScalarCondition } from './model/cells.ts';
import type { DecisionTreeModel, TreeBlock, TreeCondition, TreeResult } from './model/decision-tree.ts';

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

/** Checks a decision tree's body and reads its model (whole only when `out` got no problem from it). */
export function readDecisionTree(doc: JsonObject, out: Problems): DecisionTreeModel {
  const model = { type: 'decision-tree' as const, document: doc, blocks: [] as TreeBlock[] };
  if (doc.nodes === undefined || doc.nodes === null) {
    out.add('nodes', 'is required for a decision tree (it may be empty)');
    return model;
  }
  if (!expectArray(doc.nodes, 'nodes', out)) return model;
  model.blocks = readChildren(doc.nodes, 'nodes', 'the top level of a tree', ROOT_CHILDREN, out, 0).filter(isBlock);
  return model;
}

type TreeNode = TreeBlock | TreeCondition | TreeResult;

function isBlock(node: TreeNode): node is TreeBlock {
  return node.kind === 'if' || node.kind === 'else' || node.kind === 'then';
}

function isCondition(node: TreeNode): node is TreeCondition {
  return node.kind === 'condition' || node.kind === 'or' || node.kind === 'group';
}

function isResult(node: TreeNode): node is TreeResult {
  return node.kind === 'result';
}

function readChildren(
  nodes: unknown[],
  path: string,
  parent: string,
  allowed: readonly TreeNodeType[],
  out: Problems,
  depth: number,
): TreeNode[] {
  if (depth >= MAX_TREE_DEPTH) {
    out.add(path, `is nested deeper than ${MAX_TREE_DEPTH} levels`);
    return [];
  }
  const read: TreeNode[] = [];
  nodes.forEach((node, i) => {
    const model = readNode(node, at(path, i), parent, allowed, out, depth);
    if (model !== undefined) read.push(model);
  });
  return read;
}

function readNode(
  node: unknown,
  path: string,
  parent: string,
  allowed: readonly TreeNodeType[],
  out: Problems,
  depth: number,
): TreeNode | undefined {
  if (!expectObject(node, path, out)) return undefined;
  const type = node.type;
  const typePath = at(path, 'type');
  if (type === undefined || type === null) {
    out.add(typePath, `is required (one of ${listOf(TREE_NODE_TYPES)})`);
    return undefined;
  }
  if (!(TREE_NODE_TYPES as readonly unknown[]).includes(type)) {
    out.add(typePath, `unknown node type ${typeof type === 'string' ? quote(type) : describe(type)} (expected ${listOf(TREE_NODE_TYPES)})`);
    return undefined;
  }
  const nodeType = type as TreeNodeType;
  if (!allowed.includes(nodeType)) {
    out.add(typePath, `a ${quote(nodeType)} node cannot appear in ${parent} (allowed: ${listOf(allowed)})`);
    return undefined;
  }
  const id = typeof node.id === 'string' || typeof node.id === 'number' ? String(node.id) : path;
  if (nodeType === 'condition') return readConditionNode(node, id, path, out);
  if (nodeType === 'result') return readResultNode(node, id, path, out);
  let children: TreeNode[] = [];
  if (node.nodes !== undefined && node.nodes !== null) {
    const childrenPath = at(path, 'nodes');
    if (expectArray(node.nodes, childrenPath, out)) {
      const article = /^[aeiou]/.test(nodeType) ? 'an' : 'a';
      children = readChildren(node.nodes, childrenPath, `${article} ${quote(nodeType)} node`, TREE_CHILDREN[nodeType], out, depth + 1);
    }
  }
  switch (nodeType) {
    case 'if':
      return { kind: 'if', id, path, conditions: children.filter(isCondition), body: children.filter(isBlock) };
    case 'else':
      return { kind: 'else', id, path, body: children.filter(isBlock) };
    case 'then':
      return { kind: 'then', id, path, results: children.filter(isResult) };
    default:
      return { kind: nodeType === 'logic_or' ? 'or' : 'group', id, path, items: children.filter(isCondition) };
  }
}

function readConditionNode(node: JsonObject, id: string, path: string, out: Problems): TreeCondition {
  const condition = node.scalarCondition;
  const conditionPath = at(path, 'scalarCondition');
  if (condition === undefined || condition === null) out.add(conditionPath, 'is required in a condition node');
  else checkScalarCondition(condition, conditionPath, out);
  // A function condition reads its own variables; every other operator tests the value at modelVariablePath.
  const isFunction = isObject(condition) && normaliseOperator(condition.operator) === 'function';
  checkModelPath(node, path, isFunction ? undefined : 'the input path this condition tests', out);
  return { kind: 'condition', id, path, modelVariablePath: trimmedText(node.modelVariablePath), scalarCondition: condition as ScalarCondition };
}

function readResultNode(node: JsonObject, id: string, path: string, out: Problems): TreeResult {
  checkModelPath(node, path, 'the output path this result writes', out);
  const value = node.outputScalarValue;
  const valuePath = at(path, 'outputScalarValue');
  if (value === undefined || value === null) out.add(valuePath, 'is required in a result node');
  else checkOutputScalarValue(value, valuePath, out);
  return { kind: 'result', id, path, modelVariablePath: trimmedText(node.modelVariablePath), outputScalarValue: value as OutputScalarValue };
}

function trimmedText(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
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
