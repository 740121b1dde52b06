// Calc columns, function cells and their ordering (§2.4, §2.5), with a test double of the expression compiler
// so these tests are about the table, not the expression language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RuleError, TimeoutError, ValidationError } from '../../src/engine/errors.ts';
import { solveSync } from '../../src/engine/index.ts';
import { common, compileTable, context, cond, fn, fnCondition, ref, run, solveJson, stubExpressions, tableDoc } from './table-helpers.ts';

/** Loyalty discount (E3 shape): conditions, calc `discount`, finalPrice from the calc, message with the calc. */
function loyalty(): Record<string, unknown> {
  return tableDoc({
    userVariables: [{ name: 'regularDiscount', value: 10 }, {}],
    columns: [
      { id: 'price', kind: 'input', target: 'basicPrice' },
      { id: 'class', kind: 'input', target: 'customer.loyaltyClass' },
      { id: 'discount', kind: 'calc', target: 'discount' },
      { id: 'final', kind: 'output', target: 'finalPrice' },
      { id: 'message', kind: 'output', target: 'message' },
    ],
    rows: [
      { cells: { price: cond('<=', '120'), class: cond('=', 'REGULAR'), discount: fn('{regularDiscount}+5'), final: fn('{basicPrice}*(1-{discount}/100)'), message: common('You get {discount}% discount!') } },
      { cells: { price: cond('ELSE'), class: cond('ELSE'), discount: fn('0'), final: fn('{basicPrice}*(1-{discount}/100)'), message: common('Thank you for your order!') } },
    ],
  });
}

const loyaltyStubs = () =>
  stubExpressions({
    '{regularDiscount}+5': (scope) => Number(ref(scope, 'regularDiscount')) + 5,
    '0': () => 0,
    '{basicPrice}*(1-{discount}/100)': (scope) => Number(ref(scope, 'basicPrice')) * (1 - Number(ref(scope, 'discount')) / 100),
  });

test('a calc variable is computed per row and visible to the result columns on its right', () => {
  const stubs = loyaltyStubs();
  const table = compileTable(loyalty(), { compileExpression: stubs.compileExpression });
  assert.deepEqual(solveJson(table, { basicPrice: 100, customer: { loyaltyClass: 'REGULAR' } }), [{ finalPrice: 85, message: 'You get 15% discount!' }]);
  assert.deepEqual(solveJson(table, { basicPrice: 500, customer: { loyaltyClass: 'REGULAR' } }), [{ finalPrice: 500, message: 'Thank you for your order!' }]);
});

test('nothing right of a failed condition is evaluated, except under EVALUATE_ALL', () => {
  const stubs = loyaltyStubs();
  const table = compileTable(loyalty(), { compileExpression: stubs.compileExpression });
  run(table, { basicPrice: 500, customer: { loyaltyClass: 'REGULAR' } });
  assert.equal(stubs.calls.get('{regularDiscount}+5'), undefined, 'row 1 failed at its first condition');
  assert.equal(stubs.calls.get('0'), 1);
  stubs.calls.clear();
  const all = solveJson(table, { basicPrice: 500, customer: { loyaltyClass: 'REGULAR' } }, { strategy: 'EVALUATE_ALL' });
  assert.equal(stubs.calls.get('{regularDiscount}+5'), 1);
  assert.deepEqual(all, [
    { finalPrice: 425, message: 'You get 15% discount!', _match: false },
    { finalPrice: 500, message: 'Thank you for your order!', _match: true },
  ]);
});

test('a calc column left of a condition runs first, and a condition column can be bound to the calc variable', () => {
  const stubs = stubExpressions({ 'double': (scope) => Number(ref(scope, 'amount')) * 2 });
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'calc', kind: 'calc', target: 'doubled' },
        { id: 'c', kind: 'input', target: 'doubled' },
        { id: 'o', kind: 'output', target: 'size' },
      ],
      rows: [
        { cells: { calc: fn('double'), c: cond('>', '10'), o: common('big') } },
        { cells: { calc: fn('double'), c: cond('ELSE'), o: common('small') } },
      ],
    }),
    { compileExpression: stubs.compileExpression },
  );
  assert.deepEqual(solveJson(table, { amount: 6 }), [{ size: 'big' }]);
  assert.deepEqual(solveJson(table, { amount: 5, doubled: 100 }), [{ size: 'small' }], 'the calc variable, not the input of the same name');
});

test('a variable defined to the right of a cell is not visible to it; the input of that name is', () => {
  const stubs = stubExpressions({ 'read-rate': (scope) => ref(scope, 'rate') ?? null, 'make-rate': () => 0.5 });
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'early', kind: 'output', target: 'early' },
        { id: 'calc', kind: 'calc', target: 'rate' },
        { id: 'late', kind: 'output', target: 'late' },
      ],
      rows: [{ cells: { c: cond('anything'), early: fn('read-rate'), calc: fn('make-rate'), late: fn('read-rate') } }],
    }),
    { compileExpression: stubs.compileExpression },
  );
  assert.deepEqual(solveJson(table, {}), [{ early: null, late: 0.5 }]);
  assert.deepEqual(solveJson(table, { rate: 0.1 }), [{ early: 0.1, late: 0.5 }]);
});

test('calc variables do not leak from one row into the next', () => {
  const stubs = stubExpressions({ 'set': () => 'from row 1', 'peek': (scope) => ref(scope, 'tmp') ?? 'unset' });
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'o', kind: 'output', target: 'out' },
        { id: 'calc', kind: 'calc', target: 'tmp' },
      ],
      rows: [
        { cells: { c: cond('anything'), o: fn('peek'), calc: fn('set') } },
        { cells: { c: cond('anything'), o: fn('peek'), calc: fn('set') } },
      ],
    }),
    { compileExpression: stubs.compileExpression },
  );
  assert.deepEqual(solveJson(table, {}), [{ out: 'unset' }, { out: 'unset' }]);
});

test('function conditions match only on true; their errors appear in the trace', () => {
  const stubs = stubExpressions({ 'LESS({loan},{max})': (scope) => Number(ref(scope, 'loan')) < Number(ref(scope, 'max')), broken: () => 'yes' });
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'loan', kind: 'input', target: 'loan' },
        { id: 'f', kind: 'input', target: 'flag' },
        { id: 'o', kind: 'output', target: 'message' },
      ],
      rows: [
        { cells: { loan: fnCondition('LESS({loan},{max})'), o: common('eligible') } },
        { cells: { f: fnCondition('broken'), o: common('never') } },
      ],
    }),
    { compileExpression: stubs.compileExpression },
  );
  assert.deepEqual(solveJson(table, { loan: 30000, max: 240000 }), [{ message: 'eligible' }]);
  assert.deepEqual(solveJson(table, { loan: 300000, max: 240000 }), []);
  const { trace } = run(table, { loan: 1, max: 2 }, { trace: true });
  const second = (trace as { conditions: Record<string, unknown>[] }[])[1]!.conditions[1]!;
  assert.deepEqual(second, { columnId: 'f', inputProperty: 'flag', inputValue: undefined, evaluationResult: false, operator: 'function', value: 'broken', evaluationError: 'not a boolean: "yes"' });
});

test('a table with an asynchronous expression is an async rule whose evaluate returns a promise', async () => {
  const stubs = stubExpressions({ remote: () => 'fetched', local: () => 'here' }, { async: ['remote'], ruleRefs: { remote: [{ idOrAlias: 'other-rule' }] } });
  const doc = tableDoc({
    columns: [
      { id: 'c', kind: 'input', target: 'kind' },
      { id: 'o', kind: 'output', target: 'out' },
    ],
    rows: [
      { cells: { c: cond('=', 'remote'), o: fn('remote') } },
      { cells: { c: cond('=', 'local'), o: fn('local') } },
      { cells: { c: cond('ELSE'), o: common('none') } },
    ],
  });
  const table = compileTable(doc, { compileExpression: stubs.compileExpression });
  assert.equal(table.async, true);
  assert.deepEqual(table.dependencies, [{ idOrAlias: 'other-rule' }]);
  const pending = table.evaluate({ kind: 'remote' }, context());
  assert.ok(pending instanceof Promise);
  assert.deepEqual((await pending).result, [{ out: 'fetched' }]);
  assert.deepEqual((await table.evaluate({ kind: 'local' }, context({ strategy: 'EVALUATE_ALL' }))).result, [
    { out: 'fetched', _match: false },
    { out: 'here', _match: true },
    { out: 'none', _match: false },
  ]);
  assert.throws(() => solveSync(table, { kind: 'local' }), RuleError);
});

test('every function cell that fails to compile is kept as a warning with its path, and the rule still loads', () => {
  const refuse = (_stored: unknown, where: string): never => {
    throw new ValidationError([{ path: `${where}.stringValue`, message: 'unexpected token' }]);
  };
  const table = compileTable(loyalty(), { compileExpression: refuse });
  assert.deepEqual(
    table.warnings?.map((p) => p.path),
    [2, 3].flatMap((cell) => [`decisionTable.rows[0].cells[${cell}].outputScalarValue.stringValue`]).concat(
      [2, 3].map((cell) => `decisionTable.rows[1].cells[${cell}].outputScalarValue.stringValue`),
    ),
  );
  assert.ok(table.warnings?.every((p) => p.message === 'unexpected token'));
});

test('a solve past its deadline stops with a TimeoutError naming the limit', async () => {
  const stubs = loyaltyStubs();
  const table = compileTable(loyalty(), { compileExpression: stubs.compileExpression });
  const input = { basicPrice: 100, customer: { loyaltyClass: 'REGULAR' } };
  assert.throws(() => table.evaluate(input, context({ deadline: Date.now() - 1, timeoutMs: 50 })), (error: unknown) => error instanceof TimeoutError && /50 ms/.test(error.message));
  const asyncStubs = stubExpressions({ slow: () => 'x' }, { async: ['slow'] });
  const asyncTable = compileTable(
    tableDoc({ columns: [{ id: 'c', kind: 'input', target: 'x' }, { id: 'o', kind: 'output', target: 'out' }], rows: [{ cells: { c: cond('anything'), o: fn('slow') } }] }),
    { compileExpression: asyncStubs.compileExpression },
  );
  await assert.rejects(async () => asyncTable.evaluate({}, context({ deadline: Date.now() - 1 })), TimeoutError);
});
