// The decision tree as the designer edits it (spec/rule-format.md §5.1): a rule's `nodes`, addressed by the list
// of child positions from the top (`[0, 2]` is `nodes[0].nodes[2]`). Every edit returns a new document that
// shares the untouched parts, so the shell sees the change by identity and undo keeps cheap snapshots. Which
// node may hold which comes from the validator's own table (src/rules/decision-tree.ts), so the designer never
// builds a tree the server refuses for its shape. Pure: no DOM, no React.
import { ROOT_CHILDREN, TREE_CHILDREN } from '../../../src/rules/decision-tree.ts';
import type { TreeNodeType } from '../../../src/rules/decision-tree.ts';
import type { RuleDocument } from '../api/types.ts';
import { conditionText, resultText } from '../designer/model/cells.ts';

export type { TreeNodeType };
export type TreeNode = Record<string, any> & { type: string; nodes?: TreeNode[] };
export type NodePath = readonly number[];

/** Children of an `if` come in two lanes: its conditions first, then the blocks it runs when they hold. */
export type Lane = 'conditions' | 'blocks' | 'results' | 'groups';

const CONDITION_LANE = new Set(['condition', 'logic_or']);

export function laneOf(type: string, parentType: string | undefined): Lane {
  if (parentType === 'then') return 'results';
  if (parentType === 'logic_or') return 'groups';
  if (parentType === 'logic_group' || (parentType === 'if' && CONDITION_LANE.has(type))) return 'conditions';
  return 'blocks';
}

export function treeNodes(rule: RuleDocument | undefined): TreeNode[] {
  return Array.isArray(rule?.nodes) ? (rule.nodes as TreeNode[]) : [];
}

export function childrenOf(node: TreeNode | undefined): TreeNode[] {
  return Array.isArray(node?.nodes) ? node.nodes : [];
}

export function nodeAt(rule: RuleDocument, path: NodePath): TreeNode | undefined {
  let list = treeNodes(rule);
  let node: TreeNode | undefined;
  for (const i of path) {
    node = list[i];
    if (!node) return undefined;
    list = childrenOf(node);
  }
  return node;
}

/** The JSON path of a node as the server's problems and the engine's id-less trace entries name it. */
export function jsonPath(path: NodePath): string {
  return path.map((i) => `nodes[${i}]`).join('.');
}

/** A node's identity for collapse state, problems and the trace: its `id`, else its JSON path (as the engine does). */
export function nodeKey(node: TreeNode, path: NodePath): string {
  return typeof node.id === 'string' || typeof node.id === 'number' ? String(node.id) : jsonPath(path);
}

/** The node types a parent may hold (`undefined`: the top level). */
export function allowedChildren(parentType: string | undefined): readonly TreeNodeType[] {
  if (parentType === undefined) return ROOT_CHILDREN;
  return TREE_CHILDREN[parentType as TreeNodeType] ?? [];
}

// ---- new nodes -------------------------------------------------------------------------------------------

function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** A new node of `type` filled the way an author starts it: an IF with one condition and a THEN, and so on. */
export function makeNode(type: TreeNodeType): TreeNode {
  switch (type) {
    case 'if':
      return { id: newId(), type: 'if', operandText: 'If', nodes: [makeNode('condition'), makeNode('then')] };
    case 'else':
      return { id: newId(), type: 'else', operandText: 'Else', nodes: [makeNode('then')] };
    case 'then':
      return { id: newId(), type: 'then', operandText: 'Then', nodes: [makeNode('result')] };
    case 'logic_or':
      return { id: newId(), type: 'logic_or', operandText: 'Or', nodes: [makeNode('logic_group'), makeNode('logic_group')] };
    case 'logic_group':
      return { id: newId(), type: 'logic_group', nodes: [makeNode('condition')] };
    case 'condition':
      return { id: newId(), type: 'condition', modelVariablePath: '', scalarCondition: { operator: '=', value: '', type: 'general' } };
    case 'result':
      return { id: newId(), type: 'result', modelVariablePath: '', outputScalarValue: { type: 'common', value: '', stringValue: null } };
  }
}

/** A valid new tree (the server accepts it on create): no node yet, empty models. */
export function blankTree(name: string): RuleDocument {
  return { type: 'decision-tree', name, status: 'pending', inputSchema: {}, outputSchema: {}, nodes: [] };
}

// ---- edits -----------------------------------------------------------------------------------------------

/** Replaces the child list at `parent` (`[]`: the top level) through `change`, copying only the nodes on the way. */
function withChildren(rule: RuleDocument, parent: NodePath, change: (children: TreeNode[]) => TreeNode[]): RuleDocument {
  const rebuild = (list: TreeNode[], depth: number): TreeNode[] => {
    if (depth === parent.length) return change(list.slice());
    const i = parent[depth]!;
    const node = list[i];
    if (!node) throw new Error(`no tree node at ${jsonPath(parent.slice(0, depth + 1))}`);
    const copy = list.slice();
    copy[i] = { ...node, nodes: rebuild(childrenOf(node), depth + 1) };
    return copy;
  };
  return { ...rule, nodes: rebuild(treeNodes(rule), 0) };
}

function parentType(rule: RuleDocument, parent: NodePath): string | undefined {
  return parent.length === 0 ? undefined : nodeAt(rule, parent)?.type;
}

/**
 * Adds `node` under `parent` (`[]`: the top level) and answers the new document with the new node's path, or
 * undefined when the parent may not hold that type. Conditions go after the IF's last condition, so they stay
 * ahead of its blocks; anything else goes last.
 */
export function addNode(rule: RuleDocument, parent: NodePath, node: TreeNode): { rule: RuleDocument; path: number[] } | undefined {
  const type = parentType(rule, parent);
  if (parent.length > 0 && type === undefined) return undefined;
  if (!allowedChildren(type).includes(node.type as TreeNodeType)) return undefined;
  const siblings = parent.length === 0 ? treeNodes(rule) : childrenOf(nodeAt(rule, parent));
  let at = siblings.length;
  if (laneOf(node.type, type) === 'conditions' && type === 'if') {
    at = 0;
    siblings.forEach((s, i) => { if (laneOf(s.type, type) === 'conditions') at = i + 1; });
  }
  return { rule: withChildren(rule, parent, (list) => { list.splice(at, 0, node); return list; }), path: [...parent, at] };
}

export function deleteNode(rule: RuleDocument, path: NodePath): RuleDocument {
  if (path.length === 0 || !nodeAt(rule, path)) return rule;
  return withChildren(rule, path.slice(0, -1), (list) => { list.splice(path[path.length - 1]!, 1); return list; });
}

/** Changes one node's own fields (not its children). */
export function updateNode(rule: RuleDocument, path: NodePath, change: (node: TreeNode) => TreeNode): RuleDocument {
  if (path.length === 0 || !nodeAt(rule, path)) return rule;
  const i = path[path.length - 1]!;
  return withChildren(rule, path.slice(0, -1), (list) => { list[i] = change(list[i]!); return list; });
}

/** Positions among the siblings of `path` that a node may move to: its own lane (an IF's conditions stay first). */
export function lanePositions(rule: RuleDocument, path: NodePath): number[] {
  const parent = path.slice(0, -1);
  const type = parentType(rule, parent);
  const siblings = parent.length === 0 ? treeNodes(rule) : childrenOf(nodeAt(rule, parent));
  const self = siblings[path[path.length - 1]!];
  if (!self) return [];
  const lane = laneOf(self.type, type);
  return siblings.flatMap((s, i) => (laneOf(s.type, type) === lane ? [i] : []));
}

/**
 * Moves the node at `path` to sibling position `to` (drag and drop); a position outside the node's lane is
 * clamped to it. Answers the document and the node's new path (unchanged when nothing moves).
 */
export function reorderNode(rule: RuleDocument, path: NodePath, to: number): { rule: RuleDocument; path: number[] } {
  const from = path[path.length - 1]!;
  const lane = lanePositions(rule, path);
  if (lane.length === 0) return { rule, path: [...path] };
  const target = Math.min(Math.max(to, lane[0]!), lane[lane.length - 1]!);
  if (target === from) return { rule, path: [...path] };
  const parent = path.slice(0, -1);
  const next = withChildren(rule, parent, (list) => {
    const [node] = list.splice(from, 1);
    list.splice(target, 0, node!);
    return list;
  });
  return { rule: next, path: [...parent, target] };
}

/** Move up (-1) or down (+1) one place among the siblings of its lane. */
export function moveNode(rule: RuleDocument, path: NodePath, delta: -1 | 1): { rule: RuleDocument; path: number[] } {
  return reorderNode(rule, path, path[path.length - 1]! + delta);
}

export function canMove(rule: RuleDocument, path: NodePath, delta: -1 | 1): boolean {
  const lane = lanePositions(rule, path);
  const at = lane.indexOf(path[path.length - 1]!);
  return at >= 0 && lane[at + delta] !== undefined;
}

// ---- what the outline shows ------------------------------------------------------------------------------

export interface OutlineRow {
  path: number[];
  key: string;
  node: TreeNode;
  /** 1 at the top level (aria-level). */
  level: number;
  hasChildren: boolean;
  collapsed: boolean;
  /** Position among its siblings, 1-based, and their count (aria-posinset / aria-setsize). */
  position: number;
  siblings: number;
}

/** The rows of the outline, depth first, without the descendants of collapsed nodes. */
export function outlineRows(rule: RuleDocument, collapsed: ReadonlySet<string>): OutlineRow[] {
  const rows: OutlineRow[] = [];
  const walk = (list: TreeNode[], parent: number[]) => {
    list.forEach((node, i) => {
      if (!node || typeof node !== 'object') return;
      const path = [...parent, i];
      const key = nodeKey(node, path);
      const kids = childrenOf(node);
      const isCollapsed = kids.length > 0 && collapsed.has(key);
      rows.push({ path, key, node, level: path.length, hasChildren: kids.length > 0, collapsed: isCollapsed, position: i + 1, siblings: list.length });
      if (!isCollapsed) walk(kids, path);
    });
  };
  walk(treeNodes(rule), []);
  return rows;
}

/** The keys of every node with children: what Collapse all folds. */
export function branchKeys(rule: RuleDocument): string[] {
  const keys: string[] = [];
  const walk = (list: TreeNode[], parent: number[]) => list.forEach((node, i) => {
    const path = [...parent, i];
    if (childrenOf(node).length > 0) {
      keys.push(nodeKey(node, path));
      walk(childrenOf(node), path);
    }
  });
  walk(treeNodes(rule), []);
  return keys;
}

/** The input paths the tree's conditions test, in tree order, once each (function conditions name none). */
export function conditionPaths(rule: RuleDocument): string[] {
  const paths = new Set<string>();
  const walk = (list: TreeNode[]) => list.forEach((node) => {
    if (node?.type === 'condition' && typeof node.modelVariablePath === 'string' && node.modelVariablePath.trim() !== '') paths.add(node.modelVariablePath.trim());
    walk(childrenOf(node));
  });
  walk(treeNodes(rule));
  return [...paths];
}

export const TYPE_WORD: Readonly<Record<string, string>> = {
  if: 'IF', else: 'ELSE', then: 'THEN', logic_or: 'ANY OF', logic_group: 'ALL OF', condition: 'condition', result: 'result',
};

/** `>= 18`, `= US`, `between [10, 30]`: the table's one-line cell text with `=` spelled out. */
export function conditionSummary(node: TreeNode): string {
  const text = conditionText(node.scalarCondition);
  if (text === '') return 'anything';
  const operator = node.scalarCondition?.operator;
  return (operator === '=' || operator === '==') && !text.startsWith('=') && !text.startsWith('DATE') ? `= ${text}` : text;
}

function pathText(node: TreeNode, empty: string): string {
  return typeof node.modelVariablePath === 'string' && node.modelVariablePath.trim() !== '' ? node.modelVariablePath.trim() : empty;
}

/** One line for a node: what it tests or writes (`age >= 18`, `price = 28`), or what it is (`ELSE`). */
export function nodeSummary(node: TreeNode): string {
  switch (node.type) {
    case 'condition':
      return node.scalarCondition?.operator === 'function' || node.scalarCondition?.type === 'function'
        ? conditionSummary(node)
        : `${pathText(node, '(no input path)')} ${conditionSummary(node)}`;
    case 'result': {
      const value = resultText(node.outputScalarValue, 'output');
      return `${pathText(node, '(no output path)')} = ${value === '' ? '""' : value}`;
    }
    case 'if': {
      const conditions = childrenOf(node).filter((c) => CONDITION_LANE.has(c.type));
      if (conditions.length === 0) return 'always';
      return conditions.map((c) => (c.type === 'condition' ? nodeSummary(c) : 'any of …')).join(' and ');
    }
    case 'then': {
      const results = childrenOf(node);
      return results.length === 0 ? 'nothing' : results.map(nodeSummary).join(', ');
    }
    default:
      return '';
  }
}

const MAX_LABEL = 60;

/** The accessible name of a node and of its buttons: `IF age >= 18`, `condition age >= 18`, `ELSE`. */
export function nodeLabel(node: TreeNode): string {
  const word = TYPE_WORD[node.type] ?? node.type;
  const summary = node.type === 'else' || node.type === 'logic_or' || node.type === 'logic_group' ? '' : nodeSummary(node);
  const full = summary ? `${word} ${summary}` : word;
  return full.length > MAX_LABEL ? `${full.slice(0, MAX_LABEL - 1)}…` : full;
}

/** What `Add` offers under a parent, in the words of the menu. */
export const ADD_LABEL: Readonly<Record<TreeNodeType, string>> = {
  if: 'IF block', else: 'ELSE branch', then: 'THEN results', condition: 'Condition', logic_or: 'OR group',
  logic_group: 'AND group', result: 'Result',
};
