import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, problems } from './helpers.ts';

const envelope = { name: 'R', status: 'published', inputSchema: {}, outputSchema: {} };

function composition(): any {
  return fixture('pricing-flow-export.json')[0];
}

function workflow(): any {
  return fixture('regions-folder-export.json').export.data.rules[2];
}

test('a scripting rule needs its script as a string', () => {
  assert.deepEqual(problems({ ...envelope, type: 'complex-rule', script: 'return output;' }), []);
  assert.deepEqual(problems({ ...envelope, type: 'complex-rule' }), ['script: is required for a scripting rule (JavaScript source as a string)']);
  assert.deepEqual(problems({ ...envelope, type: 'complex-rule', script: {} }), ['script: must be a string (got an object)']);
});

test('the rule-flow fixture is valid', () => {
  assert.deepEqual(problems(composition()), []);
});

test('a rule flow needs a dataTree whose rule nodes name their rule', () => {
  const doc = composition();
  delete doc.dataTree;
  assert.deepEqual(problems(doc), ['dataTree: is required for a rule flow (its start node with the rule nodes as children)']);
  const noRule = composition();
  delete noRule.dataTree.children[0].baseId;
  noRule.dataTree.children[0].version = 'v2';
  assert.deepEqual(problems(noRule), [
    'dataTree.children[0].baseId: is required (the id of the rule this node solves)',
    'dataTree.children[0].version: must be a version number (an integer from 1 to 2147483647), -1 or "latest" (got a string)',
  ]);
});

test('rule-flow mappings read from nodes of the same flow', () => {
  const doc = composition();
  const end = doc.dataTree.children[0].children[0];
  end.mapping[0].source = 'Pricng';
  end.mapping[1] = { key: 'message' };
  delete end.globalVariable;
  assert.deepEqual(problems(doc), [
    'dataTree.children[0].children[0].globalVariable: is required (the node\'s name)',
    'dataTree.children[0].children[0].mapping[0].source: unknown node "Pricng" (no node of this flow has that globalVariable)',
    'dataTree.children[0].children[0].mapping[1].source: is required (the node whose output is read, or "start")',
  ]);
});

test('the decision-flow fixture is valid, also as an integration flow', () => {
  assert.deepEqual(problems(workflow()), []);
  assert.deepEqual(problems({ ...workflow(), type: 'integration-flow' }), []);
});

test('unknown decision-flow node types are rejected with the list of supported ones', () => {
  const doc = workflow();
  doc.workflowData.nodes[2].type = 'JOIN';
  assert.deepEqual(problems(doc), [
    'workflowData.nodes[2].type: unknown node type "JOIN"; Verdict runs START, END, VARIABLES, DATA_MANIPULATION, FOREACH, BUSINESS_RULE, IF_STATEMENT, ARRAY_APPEND or HTTP_CLIENT',
  ]);
});

test('decision-flow nodes: ids, names, one START, and the data each type needs', () => {
  const doc = workflow();
  const [start, rule, assign, end] = doc.workflowData.nodes;
  start.type = 'END';
  rule.data.rule = { version: 'newest' };
  assign.data.mapping[0].target = {};
  assign.name = 'segments';
  end.id = 'n-rule';
  assert.deepEqual(problems(doc), [
    'workflowData.nodes[1].data.rule: needs the rule to solve (ruleAlias or baseId)',
    'workflowData.nodes[1].data.rule.version: must be a version number (an integer from 1 to 2147483647), -1, "latest" or null (got a string)',
    'workflowData.nodes[2].name: duplicate node name "segments" (also workflowData.nodes[1]); expressions address nodes by name',
    'workflowData.nodes[2].data.mapping[0].target.path: is required',
    'workflowData.nodes[3].id: duplicate node id "n-rule" (also workflowData.nodes[1])',
    'workflowData.nodes: a decision flow needs exactly one START node (found 0)',
  ]);
});

test('switch nodes: cases, their conditions and strategy', () => {
  const doc = workflow();
  doc.workflowData.nodes.push({
    id: 'n-switch',
    type: 'IF_STATEMENT',
    name: 'switch',
    data: {
      evaluationStrategy: 'SOME_WINNING',
      cases: [
        { name: 'Big', type: 'CASE', connectorId: 'k1', conditions: [{ variable: 'input.revenue', decisionNode: { type: 0, scalarCondition: { operator: 'greater', value: '10' } } }] },
        { name: 'Default', type: 'OTHERWISE' },
      ],
    },
  });
  assert.deepEqual(problems(doc), [
    'workflowData.nodes[4].data.cases[0].conditions[0].decisionNode.scalarCondition.operator: unknown operator "greater"',
    'workflowData.nodes[4].data.cases[1].type: unknown case type "OTHERWISE" (expected CASE or DEFAULT)',
    'workflowData.nodes[4].data.cases[1].connectorId: is required (the connector this case fires)',
    'workflowData.nodes[4].data.evaluationStrategy: unknown evaluation strategy "SOME_WINNING" (expected ALL_WINNING or FIRST_WINNING)',
  ]);
});

test('connections join existing connectors', () => {
  const doc = workflow();
  doc.workflowData.connections[1].target = 'k-missing';
  doc.workflowData.connections.push({ id: 'x9', source: 'k-assign-out' });
  doc.workflowData.nodes[3].connectors.push({ id: 'k-start-out', type: 'sideways' });
  assert.deepEqual(problems(doc), [
    'workflowData.nodes[3].connectors[1].type: unknown connector type "sideways" (expected in or out)',
    'workflowData.nodes[3].connectors[1].id: duplicate connector id "k-start-out" (also workflowData.nodes[0].connectors[0])',
    'workflowData.connections[1].target: unknown connector "k-missing" (no node has a connector with that id)',
    'workflowData.connections[3].target: is required (an in-connector id)',
  ]);
});

test('a decision flow needs workflowData with nodes and connections', () => {
  const doc = workflow();
  delete doc.workflowData;
  assert.deepEqual(problems(doc), ['workflowData: is required for a decision flow ({"nodes": [...], "connections": [...]})']);
  doc.workflowData = { nodes: [] };
  assert.deepEqual(problems(doc), [
    'workflowData.nodes: a decision flow needs exactly one START node (found 0)',
    'workflowData.connections: is required (it may be empty)',
  ]);
});
