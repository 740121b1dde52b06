// Decision trees (§5): IF / THEN / ELSE, OR groups, evaluation order, ELSE scope, the lowest THEN winning,
// strategies and the trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileRule, solveSync } from '../../src/index.ts';
import { ValidationError } from '../../src/engine/errors.ts';
import { compileDecisionTreeWith } from '../../src/engine/tree/compile.ts';
import type { CompiledRule, SolveOptions } from '../../src/engine/types.ts';
import { compileOptions, context, FIXED_NOW, modelOf, ref, stubExpressions } from './table-helpers.ts';

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../fixtures/tables/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

function compileTree(doc: Record<string, unknown>, options: Parameters<typeof compileDecisionTreeWith>[2] = {}): CompiledRule {
  return compileDecisionTreeWith(modelOf(doc, 'decision-tree'), compileOptions(), options);
}

function solve(tree: CompiledRule, input: unknown, options: SolveOptions = {}): unknown {
  const result = tree.evaluate(input, context(options));
  if (result instanceof Promise) throw new Error('expected a synchronous tree');
  return JSON.parse(JSON.stringify(result.result));
}

// Small builders for hand-written trees.
let ids = 0;
const id = (): string => `n${++ids}`;
const condition = (path: string, operator: string, value: unknown = ''): Record<string, unknown> => ({
  id: id(),
  type: 'condition',
  modelVariablePath: path,
  scalarCondition: { operator, value, type: 'general' },
});
const result = (path: string, value: unknown): Record<string, unknown> => ({
  id: id(),
  type: 'result',
  modelVariablePath: path,
  outputScalarValue: { type: 'common', value, stringValue: null },
});
const then = (...results: Record<string, unknown>[]): Record<string, unknown> => ({ id: id(), type: 'then', operandText: 'Then', nodes: results });
const ifBlock = (...nodes: Record<string, unknown>[]): Record<string, unknown> => ({ id: id(), type: 'if', operandText: 'If', nodes });
const elseBlock = (...nodes: Record<string, unknown>[]): Record<string, unknown> => ({ id: id(), type: 'else', operandText: 'Else', nodes });
const tree = (nodes: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'decision-tree',
  name: 'tree',
  status: 'published',
  inputSchema: {},
  outputSchema: {},
  nodes,
  ...extra,
});

test('the sample tree: IF between THEN …, ELSE THEN … (§5.3)', () => {
  const sample = compileTree(
    tree(
      [
        ifBlock(condition('package.weight', 'between', ['10', '30']), then(result('price', '28'), result('currency', 'USD'), result('deliveryInHours', '24 Hours'))),
        elseBlock(then(result('price', '99'), result('currency', 'USD'), result('deliveryInHours', '48 Hours'))),
      ],
      { outputSchema: { price: {}, currency: {}, deliveryInHours: {} } },
    ),
  );
  assert.deepEqual(solve(sample, { package: { weight: 20 } }), [{ price: 28, currency: 'USD', deliveryInHours: '24 Hours' }]);
  assert.deepEqual(solve(sample, { package: { weight: 45 } }), [{ price: 99, currency: 'USD', deliveryInHours: '48 Hours' }]);
  assert.deepEqual(solve(sample, {}), [{ price: 99, currency: 'USD', deliveryInHours: '48 Hours' }]);
});

test('the notice-period tree: isNull, >=, < with nested outputs in schema order', () => {
  const notice = compileRule(fixture('notice-period-tree.json'));
  assert.equal(notice.type, 'decision-tree');
  const out = (input: unknown): string => JSON.stringify(solveSync(notice, input, { now: FIXED_NOW }).result);
  assert.equal(out({ notice_period_days: 45 }), '[{"validation":"passed"}]');
  assert.equal(out({ notice_period_days: '12' }), '[{"validation":"failed, it requires notice in less than 30 days"}]');
  assert.equal(
    out({}),
    '[{"error":{"rule":"ERROR IN NOTICE PERIOD","message":"No enough information to determine the notice period in days"}}]',
  );
});

test('logic_or is an OR of logic_group ANDs, ANDed with the other conditions of the IF; ELSE otherwise', () => {
  const orders = compileTree(fixture('order-acceptance-tree.json'));
  assert.deepEqual(solve(orders, { permission: true, credit: 12 }), [{ order_accepted: true, reason: 'credit 12' }]);
  assert.deepEqual(solve(orders, { permission: 'true', credit: 3, subscription: 'A1', subscription_active: 'true' }), [
    { order_accepted: true, reason: 'credit 3' },
  ]);
  assert.deepEqual(solve(orders, { permission: true, credit: 3, subscription: 'A1', subscription_active: false }), [{ order_accepted: false }]);
  assert.deepEqual(solve(orders, { permission: false, credit: 50 }), [{ order_accepted: false }]);
  assert.deepEqual(solve(orders, {}), [{ order_accepted: false }]);
});

test('an ELSE looks only at the IFs since the previous ELSE of its list (§11 Tr1)', () => {
  const t = compileTree(
    tree([
      ifBlock(condition('a', '=', 'yes'), then(result('first', 'a'))),
      elseBlock(then(result('first', 'not a'))),
      ifBlock(condition('b', '=', 'yes'), then(result('second', 'b'))),
      elseBlock(then(result('second', 'not b'))),
      elseBlock(then(result('third', 'else after else'))),
    ]),
  );
  assert.deepEqual(solve(t, { a: 'yes', b: 'no' }), [{ first: 'a', second: 'not b', third: 'else after else' }]);
  assert.deepEqual(solve(t, { a: 'no', b: 'yes' }), [{ first: 'not a', second: 'b', third: 'else after else' }]);
});

test('an ELSE with no IF above always runs; an IF without conditions always fires', () => {
  const t = compileTree(tree([elseBlock(then(result('x', '1'))), ifBlock(then(result('y', '2')))]));
  assert.deepEqual(solve(t, {}), [{ x: 1, y: 2 }]);
});

test('IFs nest: an inner IF/ELSE runs only inside a fired outer IF', () => {
  const t = compileTree(
    tree([
      ifBlock(
        condition('country', '=', 'US'),
        then(result('region', 'NA')),
        ifBlock(condition('state', 'IN', ['CA', 'OR']), then(result('coast', 'west'))),
        elseBlock(then(result('coast', 'other'))),
      ),
      elseBlock(then(result('region', 'ROW'))),
    ]),
  );
  assert.deepEqual(solve(t, { country: 'US', state: 'CA' }), [{ region: 'NA', coast: 'west' }]);
  assert.deepEqual(solve(t, { country: 'US', state: 'NY' }), [{ region: 'NA', coast: 'other' }]);
  assert.deepEqual(solve(t, { country: 'DE', state: 'CA' }), [{ region: 'ROW' }]);
});

test('blocks run top to bottom: when two THENs set one property, the lowest wins; results read earlier outputs', () => {
  const t = compileTree(
    tree(
      [
        ifBlock(condition('vip', '=', 'true'), then(result('discount', '10'), result('note', 'vip'))),
        ifBlock(condition('amount', '>', '1000'), then(result('discount', '15'))),
        ifBlock(then(result('summary', '{note}: {discount}%'), result('rate', '{discount}'), result('limit', '{maxDiscount}'))),
      ],
      { userVariables: [{ name: 'maxDiscount', value: 20 }] },
    ),
  );
  assert.deepEqual(solve(t, { vip: true, amount: 5000 }), [{ discount: 15, note: 'vip', summary: 'vip: 15%', rate: 15, limit: 20 }]);
  assert.deepEqual(solve(t, { vip: true, amount: 5 }), [{ discount: 10, note: 'vip', summary: 'vip: 10%', rate: 10, limit: 20 }]);
  assert.deepEqual(solve(t, { vip: false, amount: 5 }), [{ summary: '{note}: {discount}%', rate: '{discount}', limit: 20 }]);
});

test('a condition may test a rule variable by name', () => {
  const t = compileTree(
    tree([ifBlock(condition('environment', '=', 'production'), then(result('mode', 'live'))), elseBlock(then(result('mode', 'test')))], {
      userVariables: [{ name: 'environment', value: 'production' }],
    }),
  );
  assert.deepEqual(solve(t, { environment: 'staging' }), [{ mode: 'live' }]);
});

test('nothing fired gives [{}]; ARRAY wraps each written leaf in a list (§11 R4); other strategies act as STANDARD', () => {
  const t = compileTree(tree([ifBlock(condition('x', '=', '1'), then(result('a.b', '5'), result('c', 'x')))]));
  assert.deepEqual(solve(t, { x: 2 }), [{}]);
  assert.deepEqual(solve(t, { x: 2 }, { strategy: 'ARRAY' }), [{}]);
  assert.deepEqual(solve(t, { x: 1 }, { strategy: 'ARRAY' }), [{ a: { b: [5] }, c: ['x'] }]);
  assert.deepEqual(solve(t, { x: 1 }, { strategy: 'FIRST_MATCH' }), [{ a: { b: 5 }, c: 'x' }]);
  assert.deepEqual(solve(t, { x: 1 }, { strategy: 'EVALUATE_ALL' }), [{ a: { b: 5 }, c: 'x' }]);
});

test('trace lists each evaluated node with its result (§10.1)', () => {
  const orders = compileTree(fixture('order-acceptance-tree.json'));
  const evaluated = orders.evaluate({ permission: true, credit: 3, subscription: 'B2' }, context({ trace: true }));
  assert.ok(!(evaluated instanceof Promise));
  assert.deepEqual(evaluated.trace, [
    { nodeId: 'n2', type: 'condition', evaluationResult: true, inputProperty: 'permission', inputValue: true, operator: '=', value: 'true' },
    { nodeId: 'n5', type: 'condition', evaluationResult: false, inputProperty: 'credit', inputValue: 3, operator: '>=', value: 10 },
    { nodeId: 'n4', type: 'logic_group', evaluationResult: false },
    { nodeId: 'n7', type: 'condition', evaluationResult: false, inputProperty: 'subscription', inputValue: 'B2', operator: '=', value: 'A1' },
    { nodeId: 'n6', type: 'logic_group', evaluationResult: false },
    { nodeId: 'n3', type: 'logic_or', evaluationResult: false },
    { nodeId: 'n1', type: 'if', evaluationResult: false },
    { nodeId: 'n12', type: 'else', evaluationResult: true },
    { nodeId: 'n13', type: 'then', evaluationResult: true },
    { nodeId: 'n14', type: 'result', evaluationResult: true, outputProperty: 'order_accepted', value: false },
  ]);
});

test('function conditions and results go through the expression compiler; async ones make an async tree', async () => {
  const stubs = stubExpressions(
    { 'GT({score},50)': (scope) => Number(ref(scope, 'score')) > 50, 'lookup()': () => 'remote value' },
    { async: ['lookup()'], ruleRefs: { 'lookup()': [{ idOrAlias: 'scores', version: 2 }] } },
  );
  const t = compileTree(
    tree([
      ifBlock(
        { id: 'f', type: 'condition', modelVariablePath: 'score', scalarCondition: { operator: 'function', type: 'function', stringValue: 'GT({score},50)', value: null } },
        then({ id: 'r', type: 'result', modelVariablePath: 'fetched', outputScalarValue: { type: 'function', stringValue: 'lookup()', value: null } }),
      ),
    ]),
    { compileExpression: stubs.compileExpression },
  );
  assert.equal(t.async, true);
  assert.deepEqual(t.dependencies, [{ idOrAlias: 'scores', version: 2 }]);
  assert.deepEqual((await t.evaluate({ score: 70 }, context())).result, [{ fetched: 'remote value' }]);
  assert.deepEqual((await t.evaluate({ score: 10 }, context())).result, [{}]);
});

test('broken trees report every problem with its path', () => {
  // Read into the model as compileRule reads it: the problems are src/rules' (the same paths the compiler named).
  const broken = tree([
    ifBlock(condition('x', 'equals', '1'), then(result('', 'y'))),
    { id: 'c', type: 'condition', modelVariablePath: 'x', scalarCondition: { operator: '=', value: '1' } },
    { id: 'w', type: 'switch' },
    ifBlock({ id: 'nc', type: 'condition', scalarCondition: { operator: '=', value: '1' } }),
  ]);
  assert.throws(
    () => compileTree(broken),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.deepEqual(error.problems, [
        { path: 'nodes[0].nodes[0].scalarCondition.operator', message: 'unknown operator "equals"' },
        { path: 'nodes[0].nodes[1].nodes[0].modelVariablePath', message: 'is required (the output path this result writes)' },
        { path: 'nodes[1].type', message: 'a "condition" node cannot appear in the top level of a tree (allowed: if, else or then)' },
        { path: 'nodes[2].type', message: 'unknown node type "switch" (expected if, else, then, logic_or, logic_group, condition or result)' },
        { path: 'nodes[3].nodes[0].modelVariablePath', message: 'is required (the input path this condition tests)' },
      ]);
      return true;
    },
  );
  assert.throws(() => compileTree(tree('nope' as unknown as unknown[])), ValidationError);
});
