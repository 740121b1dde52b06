import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateRuleDocument } from '../../src/rules/validate.ts';
import { fixture, problems } from './helpers.ts';

test('every project fixture is a valid rule document', () => {
  for (const name of ['pricing-table.json', 'segment-table.json', 'shipping-tree.json', 'banks-lookup.json']) {
    assert.deepEqual(problems(fixture(name)), [], name);
  }
});

test('a document that is not an object is one problem at the root', () => {
  assert.deepEqual(validateRuleDocument([]), [{ path: '', message: 'a rule document must be a JSON object (got an array)' }]);
  assert.deepEqual(validateRuleDocument(null), [{ path: '', message: 'a rule document must be a JSON object (got null)' }]);
  assert.deepEqual(validateRuleDocument('x'), [{ path: '', message: 'a rule document must be a JSON object (got a string)' }]);
});

test('an empty object lists every required envelope field at once', () => {
  assert.deepEqual(problems({}), [
    'type: is required (one of decision-table, decision-tree, complex-rule, lookup-table, composition, workflow, integration-flow, decision-graph or dmn)',
    'name: is required',
    'status: is required (published or pending)',
    'inputSchema: is required (the input model, e.g. {"age":{}})',
    'outputSchema: is required (the output model, e.g. {"result":{}})',
  ]);
});

test('type, name and status are checked against the format', () => {
  const doc = fixture('pricing-table.json');
  doc.type = 'decision-tabel';
  doc.name = 'x'.repeat(101);
  doc.status = 'draft';
  assert.deepEqual(problems(doc), [
    'type: unknown rule type "decision-tabel" (expected decision-table, decision-tree, complex-rule, lookup-table, composition, workflow, integration-flow, decision-graph or dmn)',
    'name: must be at most 100 characters (got 101)',
    'status: unknown status "draft" (expected published or pending)',
  ]);
});

test('a name of 100 characters is accepted, an empty one is not', () => {
  const doc = fixture('pricing-table.json');
  doc.name = 'n'.repeat(100);
  assert.deepEqual(problems(doc), []);
  doc.name = '  ';
  assert.deepEqual(problems(doc), ['name: must not be empty']);
});

test('models are trees of objects: scalars and arrays are reported with their path', () => {
  const doc = fixture('pricing-table.json');
  doc.inputSchema = { client: { age: 'number' }, 'order items': [] };
  doc.outputSchema = 'result';
  assert.deepEqual(problems(doc), [
    'inputSchema.client.age: must be an object (a model\'s leaves are empty objects; got a string)',
    'inputSchema["order items"]: must be an object (a model\'s leaves are empty objects; got an array)',
    'outputSchema: must be an object (a model\'s leaves are empty objects; got a string)',
  ]);
});

test('alias: letters, digits and "-", at most 100 characters; an empty alias means "generate one"', () => {
  const doc = fixture('pricing-table.json');
  doc.ruleAlias = 'my alias!';
  assert.deepEqual(problems(doc), ['ruleAlias: may contain only letters, digits and "-" (got "my alias!")']);
  doc.ruleAlias = 'a'.repeat(101);
  assert.deepEqual(problems(doc), ['ruleAlias: must be at most 100 characters (got 101)']);
  doc.ruleAlias = '';
  assert.deepEqual(problems(doc), []);
});

test('auditLog.ttl must be a positive number; the 2022 form with a boolean debug flag is accepted', () => {
  const doc = fixture('pricing-table.json');
  doc.auditLog = { active: true, debug: { active: 'yes' }, ttl: 0 };
  assert.deepEqual(problems(doc), [
    'auditLog.ttl: must be a whole number of days from 1 to 3650 (got 0)',
    'auditLog.debug.active: must be true or false (got a string)',
  ]);
  doc.auditLog = { active: true, debug: true, lastModifiedBy: 'u1', timestamp: '2022-06-15T15:59:04.716Z' };
  assert.deepEqual(problems(doc), []);
  doc.auditLog = { ttl: '14' };
  assert.deepEqual(problems(doc), ['auditLog.ttl: must be a whole number of days from 1 to 3650 (got a string)']);
});

test('rule variables: nameless entries are ignored, duplicate names are reported', () => {
  const doc = fixture('pricing-table.json');
  doc.userVariables = [{ name: 'Rate', value: 1 }, {}, { name: '' }, 'oops', { name: 'Rate', value: 2 }, { name: 7 }];
  assert.deepEqual(problems(doc), [
    'userVariables[3]: must be an object (got a string)',
    'userVariables[4].name: duplicate rule variable "Rate" (first defined at userVariables[0].name)',
    'userVariables[5].name: must be a string (got a number)',
  ]);
});

test('optional envelope fields are type-checked, and null counts as absent', () => {
  const doc = fixture('pricing-table.json');
  doc.version = 0;
  doc.tags = ['a', 3];
  doc.locked = 'no';
  assert.deepEqual(problems(doc), [
    'version: must be an integer from 1 to 2147483647 (got 0)',
    'tags[1]: must be a string (got a number)',
    'locked: must be true or false (got a string)',
  ]);
  const nulls = fixture('pricing-table.json');
  Object.assign(nulls, { version: null, tags: null, description: null, ruleAlias: null, auditLog: null, userVariables: null });
  assert.deepEqual(problems(nulls), []);
});

test('unknown fields are ignored (tolerant reader)', () => {
  const doc = fixture('pricing-table.json');
  Object.assign(doc, { visualData: { zoom: 2 }, _id: 'abc', sessionId: 1, futureField: [1, 2] });
  doc.decisionTable.columns[0].validValues = [{ type: 'GENERAL', value: 'x' }];
  doc.decisionTable.rows[0].tableRowId = 4;
  doc.decisionTable.rows[0].cells[0].scalarCondition.note = 'kept';
  assert.deepEqual(problems(doc), []);
});

test('versions are integers from 1 to 2^31-1 and audit TTLs whole days from 1 to 3650 (hostile-input regressions)', () => {
  const doc = fixture('pricing-table.json');
  // 9007199254740993 arrives as 9007199254740992 after JSON.parse; it is out of range either way.
  for (const version of [1e300, 99999999999, JSON.parse('9007199254740993') as number, 2147483648, 1.5, Infinity]) {
    doc.version = version;
    assert.deepEqual(problems(doc), [`version: must be an integer from 1 to 2147483647 (got ${version})`]);
  }
  doc.version = 2147483647;
  assert.deepEqual(problems(doc), []);
  for (const ttl of [1e9, 3651, 1.5, Infinity]) {
    doc.auditLog = { active: true, ttl };
    assert.deepEqual(problems(doc), [`auditLog.ttl: must be a whole number of days from 1 to 3650 (got ${ttl})`]);
  }
  doc.auditLog = { active: true, ttl: 3650 };
  assert.deepEqual(problems(doc), []);
});

test('a number that overflows to Infinity (1e400 in the JSON text) is refused wherever it is, naming the path', () => {
  const doc = JSON.parse(JSON.stringify(fixture('pricing-table.json')).replace(/^\{/, '{"description":"x","limits":{"max":[1,1e400]},')) as Record<string, unknown>;
  assert.deepEqual(problems(doc), ['limits.max[1]: is a number too large to represent (it reads as Infinity); send a smaller number, or a string']);
  doc.limits = { max: -Infinity };
  assert.deepEqual(problems(doc), ['limits.max: is a number too large to represent (it reads as Infinity); send a smaller number, or a string']);
});
