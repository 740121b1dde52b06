// The paths a table's columns use that its models lack (designer/model/coverage.ts), adding them to a model
// (schema.ts addPaths), and the bench's input skeleton (bench/model.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelGaps } from '../../studio/src/designer/model/coverage.ts';
import { addPaths, hasPath } from '../../studio/src/designer/model/schema.ts';
import { inputSkeleton, skeletonText, untouchedInput } from '../../studio/src/bench/model.ts';
import { pricingTable } from './tables.ts';

test('modelGaps: condition and result paths the models lack, once each; calculations and non-paths left out', () => {
  const rule = pricingTable('Gaps', { inputSchema: { customer: { tier: {} } }, outputSchema: {} });
  rule.decisionTable.columns.push(
    { columnId: 'again', type: 'input', condition: { type: 'simple', name: 'Again', inputVariable: 'customer.age' } },
    { columnId: 'calc', type: 'calc', calculation: { name: 'Calc', variable: 'total' } },
    { columnId: 'expr', type: 'input', condition: { type: 'simple', name: 'Expr', definition: { content: 'customer.age + 1', type: 'INPUT_VARIABLE' } } },
  );
  const gaps = modelGaps(rule);
  assert.deepEqual(gaps.input, ['customer.age']);
  assert.deepEqual(gaps.output, ['discount', 'note']);
  assert.deepEqual([...gaps.columns], [
    [1, 'customer.age is not in the input model'],
    [2, 'discount is not in the output model'],
    [3, 'note is not in the output model'],
    [4, 'customer.age is not in the input model'],
  ]);
  assert.deepEqual(modelGaps(pricingTable()), { input: [], output: [], columns: new Map() }, 'a complete model has no gaps');
});

test('addPaths: nested leaves {}, keeping what is there; a leaf on the way becomes an object', () => {
  const schema = { input: {}, customer: {} };
  const added = addPaths(schema, ['customer.tier', 'customer.address.city', 'input']);
  assert.deepEqual(added, { input: {}, customer: { tier: {}, address: { city: {} } } });
  assert.deepEqual(schema, { input: {}, customer: {} }, 'the model given is not changed');
  assert.ok(hasPath(added, 'customer.address') && hasPath(added, 'customer.address.city') && !hasPath(added, 'customer.age'));
});

test('inputSkeleton: the model with null leaves; the bench follows it only while untouched', () => {
  assert.deepEqual(inputSkeleton({ customer: { tier: {}, age: {} }, country: {} }), { customer: { tier: null, age: null }, country: null });
  assert.deepEqual(inputSkeleton(undefined), {});
  assert.equal(skeletonText({}), '{\n  \n}');
  assert.ok(untouchedInput(skeletonText({ customer: { tier: {} } })));
  assert.ok(untouchedInput('{ }'), 'an empty object is as good as untouched');
  assert.ok(untouchedInput('{"old": {"skeleton": null}}'), 'a skeleton of an earlier model holds no value either');
  assert.ok(!untouchedInput('{"customer": {"tier": "gold"}}'));
  assert.ok(!untouchedInput('{"customer": {"tier": null}, "age": 0}'));
  assert.ok(!untouchedInput('{"customer": '), 'text that does not parse is being typed');
  assert.ok(!untouchedInput('null') && !untouchedInput('[]'));
});
