import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/engine/errors.ts';
import { describeRule, joinPaths, readContainer, ruleIdOf, validateContainer } from '../../src/rules/containers.ts';
import { fixture } from './helpers.ts';

test('a single rule is a container of one rule at the root', () => {
  const rule = fixture('pricing-table.json');
  const container = readContainer(rule);
  assert.equal(container.kind, 'rule');
  assert.deepEqual(container.rules, [{ path: '', document: rule }]);
  assert.equal(container.structure, undefined);
});

test('a rule-flow export is an array: the flow first, then its rules', () => {
  const container = readContainer(fixture('pricing-flow-export.json'));
  assert.equal(container.kind, 'rule-list');
  assert.deepEqual(container.rules.map((r) => [r.path, r.document.type]), [['[0]', 'composition'], ['[1]', 'decision-table']]);
  assert.deepEqual(container.rules.map((r) => ruleIdOf(r.document)), ['a3e1c9d0-7b6a-4f5e-9d8c-0b1a2c3d4e04', '7d1f0a52-5c1e-4b8e-9a64-3f0c2b7e1a01']);
});

test('a folder export gives its rules and its folder tree', () => {
  const container = readContainer(fixture('regions-folder-export.json'));
  assert.equal(container.kind, 'folder');
  assert.deepEqual(container.rules.map((r) => r.path), ['export.data.rules[0]', 'export.data.rules[1]', 'export.data.rules[2]']);
  assert.deepEqual(container.structure, {
    type: 'FOLDER',
    id: 'f-regions',
    name: 'Regions',
    children: [
      { type: 'RULE', baseId: '0b6f3c1e-22aa-4c3d-8e57-1d2f9a0c4b02', version: 1, name: 'Region Segment', ruleAlias: 'region-segment' },
      { type: 'FOLDER', id: 'f-sub', name: 'Reference data', children: [{ type: 'RULE', baseId: '5c0d9e7a-1b2c-4d3e-8f90-a1b2c3d4e503', version: 1 }] },
      { type: 'RULE', baseId: 'e4f5a6b7-c8d9-4e0f-a1b2-c3d4e5f6a705', version: 1, name: 'Segmentation', ruleAlias: 'segmentation' },
    ],
  });
});

test('a folder export without structure still gives its rules', () => {
  const container = readContainer({ export: { data: { rules: [fixture('banks-lookup.json')] } } });
  assert.equal(container.rules.length, 1);
  assert.equal(container.structure, undefined);
});

function shapeProblems(value: unknown): unknown {
  try {
    readContainer(value);
    return 'no error';
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    return error.problems;
  }
}

test('malformed containers are rejected with the path of the problem', () => {
  assert.deepEqual(shapeProblems(42), [{ path: '', message: 'not a DecisionRules export: Verdict reads a rule object (with its "type", e.g. "decision-table"), an array of rules (a rule-flow export) or a folder export ({"export": {"data": {"rules": [...]}}}); this is a number' }]);
  assert.deepEqual(shapeProblems([fixture('banks-lookup.json'), 'x', null]), [
    { path: '[1]', message: 'must be a rule object (got a string)' },
    { path: '[2]', message: 'must be a rule object (got null)' },
  ]);
  assert.deepEqual(shapeProblems({ export: { data: {} } }), [{ path: 'export.data.rules', message: 'is required (the exported rules)' }]);
  assert.deepEqual(shapeProblems({ export: [] }), [{ path: 'export', message: 'must be an object (got an array)' }]);
  assert.deepEqual(shapeProblems({ export: { data: { rules: [], structure: { type: 'FOLDER', children: [{ type: 'RULE' }, { type: 'LINK' }] } } } }), [
    { path: 'export.data.structure.children[0].baseId', message: 'is required (the rule this leaf places in the folder)' },
    { path: 'export.data.structure.children[1].type', message: 'must be FOLDER, ROOT or RULE (got "LINK")' },
  ]);
});

test('validateContainer checks every rule and prefixes paths with the rule\'s place', () => {
  const folder = fixture('regions-folder-export.json');
  folder.export.data.rules[0].decisionTable.rows[0].cells[0].scalarCondition.operator = 'betwen';
  folder.export.data.rules[1].primaryKeyColumn = 'nope';
  assert.deepEqual(validateContainer(readContainer(folder)), [
    { path: 'export.data.rules[0].decisionTable.rows[0].cells[0].scalarCondition.operator', message: 'unknown operator "betwen" (did you mean "between"?)' },
    { path: 'export.data.rules[1].primaryKeyColumn', message: 'names no column: "nope" is not the alias of any column' },
  ]);
  const list = fixture('pricing-flow-export.json');
  list[0].status = 'draft';
  assert.deepEqual(validateContainer(readContainer(list)), [{ path: '[0].status', message: 'unknown status "draft" (expected published or pending)' }]);
  assert.deepEqual(validateContainer(readContainer({ type: 'decision-tree' })).map((p) => p.path), ['name', 'status', 'inputSchema', 'outputSchema', 'nodes']);
});

test('path joining and rule descriptions for messages', () => {
  assert.equal(joinPaths('', 'name'), 'name');
  assert.equal(joinPaths('[2]', 'name'), '[2].name');
  assert.equal(joinPaths('export.data.rules[1]', '["odd key"]'), 'export.data.rules[1]["odd key"]');
  assert.equal(joinPaths('[0]', ''), '[0]');
  assert.equal(describeRule(fixture('banks-lookup.json')), '"Bank Directory" (alias bank-directory, version 1)');
  assert.equal(describeRule({ name: 'Plain' }), '"Plain"');
});

test('a file that is not a rule export says so once, naming the formats, and a non-rule "version" is not read', () => {
  const packageJson = { name: 'my-app', version: '1.0.0', dependencies: { react: '^19.0.0' } };
  const [problem, ...others] = shapeProblems(packageJson) as Array<{ path: string; message: string }>;
  assert.deepEqual(others, [], 'one problem, not one per missing rule field');
  assert.equal(problem!.path, '');
  assert.match(problem!.message, /^not a DecisionRules export: Verdict reads a rule object .* an array of rules .* or a folder export/);
  assert.match(problem!.message, /this is an object with none of a rule's fields \(it has name, version, dependencies\)$/);
  assert.doesNotMatch(problem!.message, /must be an integer/, 'the package version is not taken for a rule version');
  assert.match((shapeProblems([1, 'x', { a: 1 }]) as Array<{ message: string }>)[0]!.message, /this is an array of 3 items, none of them a rule$/);
  assert.equal((shapeProblems([{ foo: 1 }]) as unknown[]).length, 1);
  assert.match((shapeProblems({}) as Array<{ message: string }>)[0]!.message, /\(it is empty\)$/);
  // Something rule-like, however broken, is still a rule whose problems are listed field by field.
  assert.deepEqual(validateContainer(readContainer({ type: 'decision-tree' })).map((p) => p.path), ['name', 'status', 'inputSchema', 'outputSchema', 'nodes']);
  assert.equal(readContainer([]).rules.length, 0);
});
