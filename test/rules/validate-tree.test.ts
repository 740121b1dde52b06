import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, problems } from './helpers.ts';

test('unknown node types and misplaced nodes are reported with their path', () => {
  const doc = fixture('shipping-tree.json');
  doc.nodes[0].type = 'iff';
  doc.nodes[1].nodes.push({ id: 'r', type: 'result', modelVariablePath: 'x', outputScalarValue: { type: 'common', value: '1' } });
  doc.nodes.push({ id: 'c', type: 'condition', modelVariablePath: 'x', scalarCondition: { operator: 'anything', value: '' } });
  assert.deepEqual(problems(doc), [
    'nodes[0].type: unknown node type "iff" (expected if, else, then, logic_or, logic_group, condition or result)',
    'nodes[1].nodes[1].type: a "result" node cannot appear in an "else" node (allowed: then, if or else)',
    'nodes[3].type: a "condition" node cannot appear in the top level of a tree (allowed: if, else or then)',
  ]);
});

test('OR groups hold logic_group nodes, which hold conditions', () => {
  const doc = fixture('shipping-tree.json');
  const or = doc.nodes[0].nodes[1];
  or.nodes[0].type = 'condition';
  or.nodes[1].nodes.push({ id: 'x', type: 'then', nodes: [] });
  assert.deepEqual(problems(doc), [
    'nodes[0].nodes[1].nodes[0].type: a "condition" node cannot appear in a "logic_or" node (allowed: logic_group)',
    'nodes[0].nodes[1].nodes[1].nodes[1].type: a "then" node cannot appear in a "logic_group" node (allowed: condition)',
  ]);
});

test('conditions need a path and a valid scalarCondition; function conditions need no path', () => {
  const doc = fixture('shipping-tree.json');
  const condition = doc.nodes[0].nodes[0];
  delete condition.modelVariablePath;
  condition.scalarCondition.operator = 'betweeen';
  doc.nodes[0].nodes[1].nodes[1].nodes[0] = {
    id: 'f',
    type: 'condition',
    scalarCondition: { operator: 'function', type: 'function', stringValue: 'GT({parcel.weight}, 5)' },
  };
  assert.deepEqual(problems(doc), [
    'nodes[0].nodes[0].scalarCondition.operator: unknown operator "betweeen" (did you mean "between"?)',
    'nodes[0].nodes[0].modelVariablePath: is required (the input path this condition tests)',
  ]);
});

test('results need an output path and a value', () => {
  const doc = fixture('shipping-tree.json');
  const then = doc.nodes[0].nodes[2];
  then.nodes[0].modelVariablePath = '';
  delete then.nodes[1].outputScalarValue;
  doc.nodes[1].nodes[0].nodes[0].outputScalarValue = 'thirty';
  assert.deepEqual(problems(doc), [
    'nodes[0].nodes[2].nodes[0].modelVariablePath: is required (the output path this result writes)',
    'nodes[0].nodes[2].nodes[1].outputScalarValue: is required in a result node',
    'nodes[1].nodes[0].nodes[0].outputScalarValue: must be an object (got a string)',
  ]);
});

test('a tree needs a nodes array, which may be empty', () => {
  const doc = fixture('shipping-tree.json');
  doc.nodes = [];
  assert.deepEqual(problems(doc), []);
  delete doc.nodes;
  assert.deepEqual(problems(doc), ['nodes: is required for a decision tree (it may be empty)']);
  doc.nodes = { if: true };
  assert.deepEqual(problems(doc), ['nodes: must be an array (got an object)']);
  doc.nodes = [{ id: 'n', type: 'if', nodes: 'none' }, 3];
  assert.deepEqual(problems(doc), ['nodes[0].nodes: must be an array (got a string)', 'nodes[1]: must be an object (got a number)']);
});

test('pathologically deep trees are reported, not a stack overflow', () => {
  const doc = fixture('shipping-tree.json');
  let node: any = { id: 'leaf', type: 'if', nodes: [] };
  for (let i = 0; i < 5000; i++) node = { id: `n${i}`, type: 'else', nodes: [node] };
  doc.nodes = [node];
  const list = problems(doc);
  assert.equal(list.length, 1);
  assert.match(list[0]!, /^nodes(\[0\]\.nodes){100}: is nested deeper than 100 levels$/);
});
