// The tree designer's model (studio/src/tree): adding, deleting, moving and reordering nodes within their lane,
// the outline with collapsed branches, node labels, and the overlays (problems of a save, the path of a bench
// run) read from the real validator and the real engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addNode, allowedChildren, blankTree, branchKeys, canMove, conditionPaths, deleteNode, makeNode, moveNode, nodeAt, nodeLabel, outlineRows,
  reorderNode, updateNode,
} from '../../studio/src/tree/model.ts';
import type { NodePath, TreeNode } from '../../studio/src/tree/model.ts';
import { locateTreeProblems, outcomeOf, outcomeText, readTreeTrace } from '../../studio/src/tree/overlay.ts';
import type { RuleDocument } from '../../studio/src/api/types.ts';
import { validateRuleDocument } from '../../src/rules/validate.ts';
import { compileRule, solveSync } from '../../src/index.ts';

function must<T>(value: T | undefined): T {
  assert.ok(value !== undefined);
  return value;
}

function add(rule: RuleDocument, parent: NodePath, type: Parameters<typeof makeNode>[0]) {
  return must(addNode(rule, parent, makeNode(type)));
}

function setCondition(rule: RuleDocument, path: NodePath, modelVariablePath: string, operator: string, value: unknown) {
  return updateNode(rule, path, (n) => ({ ...n, modelVariablePath, scalarCondition: { operator, value, type: 'general' } }));
}
function setResult(rule: RuleDocument, path: NodePath, modelVariablePath: string, value: string) {
  return updateNode(rule, path, (n) => ({ ...n, modelVariablePath, outputScalarValue: { type: 'common', value, stringValue: null } }));
}

/** IF age >= 18 { IF country = CZ THEN tier = adult-cz; ELSE THEN tier = adult } ELSE THEN tier = minor */
function twoLevelTree(): RuleDocument {
  let rule = blankTree('Tiers');
  let step = add(rule, [], 'if');
  rule = setCondition(step.rule, [0, 0], 'age', '>=', '18');
  rule = deleteNode(rule, [0, 1]); // the IF's own THEN: the nested IF and ELSE decide instead
  step = add(rule, [0], 'if');
  rule = setCondition(step.rule, [0, 1, 0], 'country', '=', 'CZ');
  rule = setResult(rule, [0, 1, 1, 0], 'tier', 'adult-cz');
  step = add(rule, [0], 'else');
  rule = setResult(step.rule, [0, 2, 0, 0], 'tier', 'adult');
  step = add(rule, [], 'else');
  rule = setResult(step.rule, [1, 0, 0], 'tier', 'minor');
  return rule;
}

test('a blank tree is valid for the server and has no node', () => {
  const rule = blankTree('New tree');
  assert.deepEqual(validateRuleDocument(rule), []);
  assert.deepEqual(rule.nodes, []);
});

test('new nodes come filled as an author starts them, and each node type goes only where the format allows', () => {
  const rule = add(blankTree('T'), [], 'if').rule;
  const block = must(nodeAt(rule, [0]));
  assert.deepEqual(block.nodes!.map((n: TreeNode) => n.type), ['condition', 'then']);
  assert.deepEqual(block.nodes![1]!.nodes!.map((n: TreeNode) => n.type), ['result']);
  assert.equal(addNode(rule, [], makeNode('condition')), undefined, 'a condition cannot sit at the top level');
  assert.equal(addNode(rule, [0, 1], makeNode('if')), undefined, 'a THEN holds results only');
  assert.equal(addNode(rule, [7], makeNode('then')), undefined, 'no parent there');
  assert.deepEqual([...allowedChildren(undefined)], ['if', 'else', 'then']);
  assert.deepEqual([...allowedChildren('if')], ['condition', 'logic_or', 'then', 'if', 'else']);
  assert.equal(new Set([block.id, block.nodes![0]!.id, block.nodes![1]!.id]).size, 3, 'every node gets its own id');
});

test('a condition added to an IF goes after its conditions, ahead of its blocks; a block goes last', () => {
  let rule = add(blankTree('T'), [], 'if').rule;
  const condition = add(rule, [0], 'condition');
  assert.deepEqual(condition.path, [0, 1]);
  rule = condition.rule;
  assert.deepEqual(nodeAt(rule, [0])!.nodes!.map((n: TreeNode) => n.type), ['condition', 'condition', 'then']);
  const nested = add(rule, [0], 'if');
  assert.deepEqual(nested.path, [0, 3]);
  const group = add(nested.rule, [0], 'logic_or');
  assert.deepEqual(group.path, [0, 2]);
});

test('edits copy only the nodes on the way and leave the old document as it was', () => {
  const before = twoLevelTree();
  const snapshot = JSON.stringify(before);
  const after = setResult(before, [1, 0, 0], 'tier', 'child');
  assert.equal(JSON.stringify(before), snapshot);
  assert.notEqual(after, before);
  assert.equal(after.nodes[0], before.nodes[0], 'the untouched branch is shared');
  assert.equal(nodeAt(after, [1, 0, 0])!.outputScalarValue.value, 'child');
});

test('move up and down stay in the lane: conditions before blocks, blocks among blocks', () => {
  let rule = twoLevelTree();
  rule = add(rule, [0], 'condition').rule; // [0,1]: second condition, blocks now at [0,2] (IF) and [0,3] (ELSE)
  assert.equal(canMove(rule, [0, 1], 1), false, 'the last condition cannot pass below a block');
  assert.equal(canMove(rule, [0, 1], -1), true);
  assert.equal(canMove(rule, [0, 2], -1), false, 'the first block cannot go above the conditions');
  const moved = moveNode(rule, [0, 3], -1);
  assert.deepEqual(moved.path, [0, 2]);
  assert.deepEqual(nodeAt(moved.rule, [0])!.nodes!.map((n: TreeNode) => n.type), ['condition', 'condition', 'else', 'if']);
  const same = moveNode(rule, [1], 1);
  assert.equal(same.rule, rule, 'the last node does not move down');
});

test('drag reorder clamps to the lane and deleting removes the whole branch', () => {
  let rule = twoLevelTree();
  rule = add(rule, [], 'then').rule; // top level: IF, ELSE, THEN
  const dragged = reorderNode(rule, [2], 0);
  assert.deepEqual(treeTypes(dragged.rule), ['then', 'if', 'else']);
  assert.deepEqual(dragged.path, [0]);
  const clamped = reorderNode(rule, [0, 1], 0); // the nested IF dragged onto the condition: first block place
  assert.deepEqual(clamped.path, [0, 1]);
  assert.equal(clamped.rule, rule);
  const deleted = deleteNode(rule, [0]);
  assert.deepEqual(treeTypes(deleted), ['else', 'then']);
  assert.equal(deleteNode(rule, []), rule);
});

function treeTypes(rule: RuleDocument): string[] {
  return rule.nodes.map((n: TreeNode) => n.type);
}

test('the outline lists nodes depth first with their level, and hides what a collapsed node holds', () => {
  const rule = twoLevelTree();
  const rows = outlineRows(rule, new Set());
  assert.deepEqual(rows.map((r) => `${r.level}:${nodeLabel(r.node)}`), [
    '1:IF age >= 18',
    '2:condition age >= 18',
    '2:IF country = CZ',
    '3:condition country = CZ',
    '3:THEN tier = adult-cz',
    '4:result tier = adult-cz',
    '2:ELSE',
    '3:THEN tier = adult',
    '4:result tier = adult',
    '1:ELSE',
    '2:THEN tier = minor',
    '3:result tier = minor',
  ]);
  const nested = rows[2]!;
  const folded = outlineRows(rule, new Set([nested.key]));
  assert.equal(folded.length, rows.length - 3);
  assert.equal(folded[2]!.collapsed, true);
  assert.equal(branchKeys(rule).length, 7);
  assert.equal(outlineRows(rule, new Set(branchKeys(rule))).length, 2, 'collapse all leaves the top level');
});

test('the input paths the conditions test, once each, for the bench form', () => {
  let rule = twoLevelTree();
  rule = setCondition(add(rule, [0, 1], 'condition').rule, [0, 1, 1], 'age', '<', '99');
  assert.deepEqual(conditionPaths(rule), ['age', 'country']);
  assert.deepEqual(conditionPaths(blankTree('T')), []);
});

test('labels name what a node tests or writes, in the table designer\'s cell text', () => {
  const condition = (operator: string, value: unknown) => nodeLabel({ type: 'condition', modelVariablePath: 'w', scalarCondition: { operator, value, type: 'general' } });
  assert.equal(condition('between', ['10', '30']), 'condition w BTW [10, 30]');
  assert.equal(condition('IN', ['a', 'b']), 'condition w IN a|b');
  assert.equal(condition('isNull', ''), 'condition w NULL');
  assert.equal(nodeLabel({ type: 'condition', scalarCondition: { operator: 'function', type: 'function', value: 'GT({a}, 1)', stringValue: 'GT({a}, 1)' } }), 'condition fx GT({a}, 1)');
  assert.equal(nodeLabel(makeNode('result')), 'result (no output path) = ""');
  assert.equal(nodeLabel({ type: 'if', nodes: [] }), 'IF always');
  assert.ok(nodeLabel({ type: 'then', nodes: Array.from({ length: 9 }, (_, i) => ({ type: 'result', modelVariablePath: `field${i}`, outputScalarValue: { type: 'common', value: 'x' } })) }).length <= 60);
});

test('problems from the validator land on the node whose path they name', () => {
  let rule = twoLevelTree();
  rule = updateNode(rule, [0, 1, 0], (n) => ({ ...n, modelVariablePath: '' }));
  rule = { ...rule, name: '' };
  const problems = validateRuleDocument(rule);
  assert.ok(problems.length >= 2, JSON.stringify(problems));
  const located = locateTreeProblems(rule, problems);
  const key = String(nodeAt(rule, [0, 1, 0])!.id);
  assert.match(must(located.byNode.get(key))[0]!, /^modelVariablePath: is required/);
  assert.ok(located.other.some((p) => p.path === 'name'));
  const prefixed = locateTreeProblems(rule, [{ path: 'rule.nodes[1].nodes[0].type', message: 'bad' }, { path: 'nodes[9]', message: 'gone' }]);
  assert.deepEqual(prefixed.byNode.get(String(nodeAt(rule, [1, 0])!.id)), ['type: bad']);
  assert.deepEqual(prefixed.other.map((p) => p.message), ['gone']);
});

test('the engine trace of a run marks the path taken, the branches declined and what was never reached', () => {
  const rule = twoLevelTree();
  const compiled = compileRule(rule);
  const run = solveSync(compiled, { age: 30, country: 'DE' }, { trace: true });
  assert.deepEqual(run.result, [{ tier: 'adult' }]);
  const view = must(readTreeTrace({ result: run.result, trace: run.trace, warnings: [] }));
  const at = (path: NodePath) => outcomeOf(view, String(nodeAt(rule, path)!.id));
  assert.equal(at([0]), 'taken', 'IF age >= 18');
  assert.equal(at([0, 0]), 'taken', 'its condition held');
  assert.equal(at([0, 1]), 'declined', 'IF country = CZ');
  assert.equal(at([0, 1, 0]), 'declined');
  assert.equal(at([0, 1, 1]), 'not-reached', 'its THEN');
  assert.equal(at([0, 2]), 'taken', 'the inner ELSE ran');
  assert.equal(at([0, 2, 0, 0]), 'taken', 'and wrote its result');
  assert.equal(at([1]), 'declined', 'the outer ELSE did not run');
  assert.equal(at([1, 0]), 'not-reached');
  assert.equal(outcomeText('condition', 'declined'), 'did not hold');
  assert.equal(outcomeText('else', 'taken'), 'taken');
  assert.equal(outcomeText('result', 'not-reached'), 'not reached');
  assert.equal(readTreeTrace({ result: [] }), undefined, 'no trace, no overlay');
  const bulk = must(readTreeTrace([run.trace, []]));
  assert.equal(bulk.size, view.size, 'a bulk run shows its first input');
});
