// Result cells: the simple-value cast (§2.10), dotted nesting in outputSchema key order (§1.3, §11 T2),
// `{var}` references to rule variables, input paths and earlier outputs, and the debug trace (§10.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { castSimpleValueText as castSimpleValue } from '../../src/engine/expression/index.ts';
import { common, compileTable, cond, run, solveJson, tableDoc } from './table-helpers.ts';

test('the simple-value cast reproduces the documented table', () => {
  assert.equal(castSimpleValue('true'), true);
  assert.equal(castSimpleValue('false'), false);
  assert.equal(castSimpleValue('"true"'), 'true');
  assert.equal(castSimpleValue('25'), 25);
  assert.equal(castSimpleValue('25.0'), 25);
  assert.equal(castSimpleValue('25.01'), 25.01);
  assert.equal(castSimpleValue('""'), '');
  assert.equal(castSimpleValue(''), '');
  assert.equal(castSimpleValue('hello world'), 'hello world');
  assert.deepEqual(castSimpleValue('{}'), {});
  assert.deepEqual(castSimpleValue('{"data":123}'), { data: 123 });
  assert.deepEqual(castSimpleValue('{"data":"123"}'), { data: '123' });
  assert.deepEqual(castSimpleValue('[12,36,"542"]'), [12, 36, '542']);
  assert.deepEqual(castSimpleValue('[12, 36, "542", [1,2] ]'), [12, 36, '542', [1, 2]]);
  assert.equal(castSimpleValue('[12,36,"542"'), '[12,36,"542"');
  assert.equal(castSimpleValue('0001'), '0001', 'not JSON: stays text');
  assert.equal(castSimpleValue('null'), null);
});

function single(cell: unknown, extra: { userVariables?: unknown[] } = {}): unknown {
  const table = compileTable(
    tableDoc({
      ...extra,
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'o', kind: 'output', target: 'out' },
      ],
      rows: [{ cells: { c: cond('anything'), o: cell } }],
    }),
  );
  return (solveJson(table, { client: { name: 'Ada', tags: ['a', 'b'] }, n: 7 }) as { out: unknown }[])[0]!.out;
}

test('result cells are cast on the way out, typed or legacy untyped', () => {
  assert.equal(single(common('8')), 8);
  assert.equal(single(common('')), '');
  assert.deepEqual(single(common('{"a":[1]}')), { a: [1] });
  assert.equal(single({ value: 'Hello' }), 'Hello', 'untyped, not an AST: a simple value');
  assert.equal(single({ value: 0 }), 0, 'untyped number');
  assert.equal(single({ type: 'common', value: null }), '');
});

test('result text resolves rule variables, input paths and mixed text; unknown references stay literal', () => {
  const vars = { userVariables: [{ name: 'PromoDiscount', value: 30 }, { name: 'Label', value: { x: 1 } }, {}] };
  assert.equal(single(common('{PromoDiscount}% discount'), vars), '30% discount');
  assert.equal(single(common('{PromoDiscount}'), vars), 30);
  assert.deepEqual(single(common('{Label}'), vars), { x: 1 }, 'a whole reference keeps the value\'s type');
  assert.equal(single(common('label: {Label}'), vars), 'label: {"x":1}');
  assert.equal(single(common('{client.name}')), 'Ada');
  assert.deepEqual(single(common('{client.tags}')), ['a', 'b']);
  assert.equal(single(common('{n}')), 7);
  assert.equal(single(common('{client.name} has {n}')), 'Ada has 7');
  assert.equal(single(common('{nothing.here}')), '{nothing.here}');
  assert.deepEqual(single(common('{"key":"value"}')), { key: 'value' }, 'JSON text is not a reference');
});

test('dotted output paths nest and follow the outputSchema key order, not the column order', () => {
  const table = compileTable(
    tableDoc({
      outputSchema: { prices: { finalPrice: {}, crudePrice: {} }, message: {} },
      columns: [
        { id: 'c', kind: 'input', target: 'productType' },
        { id: 'msg', kind: 'output', target: 'message' },
        { id: 'crude', kind: 'output', target: 'prices.crudePrice' },
        { id: 'final', kind: 'output', target: 'prices.finalPrice' },
        { id: 'extra', kind: 'output', target: 'debug.note' },
      ],
      rows: [{ cells: { c: cond('=', 'basic'), msg: common('30% discount'), crude: common('8'), final: common('5.6'), extra: common('n') } }],
    }),
  );
  const text = JSON.stringify(run(table, { productType: 'basic' }).result);
  assert.equal(text, '[{"prices":{"finalPrice":5.6,"crudePrice":8},"message":"30% discount","debug":{"note":"n"}}]');
});

test('a later result cell reads an output written earlier in the row; one to its right is not yet visible', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'before', kind: 'output', target: 'copyOfLater' },
        { id: 'crude', kind: 'output', target: 'prices.crudePrice' },
        { id: 'final', kind: 'output', target: 'prices.finalPrice' },
        { id: 'all', kind: 'output', target: 'snapshot' },
        { id: 'later', kind: 'output', target: 'later' },
      ],
      rows: [
        {
          cells: {
            c: cond('anything'),
            before: common('{later}'),
            crude: common('8'),
            final: common('{prices.crudePrice}'),
            all: common('{prices}'),
            later: common('L'),
          },
        },
      ],
    }),
  );
  assert.deepEqual(solveJson(table, {}), [{ copyOfLater: '{later}', prices: { crudePrice: 8, finalPrice: 8 }, snapshot: { crudePrice: 8, finalPrice: 8 }, later: 'L' }]);
});

test('an output written earlier shadows an input of the same name; the input is read when no output exists', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'first', kind: 'output', target: 'price' },
        { id: 'second', kind: 'output', target: 'echo' },
        { id: 'third', kind: 'output', target: 'fromInput' },
      ],
      rows: [{ cells: { c: cond('anything'), first: common('10'), second: common('{price}'), third: common('{x}') } }],
    }),
  );
  assert.deepEqual(solveJson(table, { price: 99, x: 'in' }), [{ price: 10, echo: 10, fromInput: 'in' }]);
});

test('two result columns writing one path: the later column wins (§11 T3)', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'a', kind: 'output', target: 'out' },
        { id: 'b', kind: 'output', target: 'out' },
      ],
      rows: [{ cells: { c: cond('anything'), a: common('first'), b: common('second') } }],
    }),
  );
  assert.deepEqual(solveJson(table, {}), [{ out: 'second' }]);
});

test('object results are fresh per solve: changing one result never changes the next', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'o', kind: 'output', target: 'config' },
      ],
      rows: [{ cells: { c: cond('anything'), o: common('{"limits":[1,2]}') } }],
    }),
  );
  const first = run(table, {}).result[0] as { config: { limits: number[] } };
  first.config.limits.push(3);
  assert.deepEqual(run(table, {}).result, [{ config: { limits: [1, 2] } }]);
  const arrayResult = run(table, {}, { strategy: 'ARRAY' }).result[0] as { config: { limits: number[] }[] };
  arrayResult.config[0]!.limits.push(4);
  assert.deepEqual(run(table, {}, { strategy: 'ARRAY' }).result, [{ config: [{ limits: [1, 2] }] }]);
});

test('an output path named __proto__ is an ordinary key and never touches prototypes', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'x' },
        { id: 'o', kind: 'output', target: '__proto__.polluted' },
      ],
      rows: [{ cells: { c: cond('anything'), o: common('true') } }],
    }),
  );
  const result = run(table, {}).result[0] as Record<string, unknown>;
  assert.equal(JSON.stringify(result), '{"__proto__":{"polluted":true}}');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('trace: true lists each evaluated row with its conditions in the debug shape of §10.1', () => {
  const table = compileTable(
    tableDoc({
      userVariables: [{ name: 'PromoCode', value: 'SUMMER SALE' }],
      columns: [
        { id: 'type', kind: 'input', target: 'productType' },
        { id: 'promo', kind: 'input', target: 'promoCode', alias: 'col-promo' },
        { id: 'o', kind: 'output', target: 'message' },
      ],
      rows: [
        { cells: { type: cond('=', 'basic'), promo: cond('<>', '{PromoCode}'), o: common('no promo') } },
        { cells: { type: cond('=', 'basic'), promo: cond('=', '{PromoCode}'), o: common('promo') } },
        { active: false, cells: { type: cond('anything'), promo: cond('anything'), o: common('never') } },
        { cells: { type: cond('ELSE'), promo: cond('ELSE'), o: common('else') } },
      ],
    }),
  );
  const { result, trace } = run(table, { productType: 'basic', promoCode: 'SUMMER SALE' }, { trace: true });
  assert.deepEqual(result, [{ message: 'promo' }]);
  assert.deepEqual(trace, [
    {
      rowNumber: 1,
      conditions: [
        { columnId: 'type', inputProperty: 'productType', inputValue: 'basic', evaluationResult: true, operator: '=', value: 'basic' },
        { columnId: 'promo', inputProperty: 'promoCode', inputValue: 'SUMMER SALE', evaluationResult: false, operator: '<>', value: 'SUMMER SALE' },
      ],
      evaluationResult: false,
    },
    {
      rowNumber: 2,
      conditions: [
        { columnId: 'type', inputProperty: 'productType', inputValue: 'basic', evaluationResult: true, operator: '=', value: 'basic' },
        { columnId: 'promo', inputProperty: 'promoCode', inputValue: 'SUMMER SALE', evaluationResult: true, operator: '=', value: 'SUMMER SALE' },
      ],
      evaluationResult: true,
    },
    {
      rowNumber: 4,
      conditions: [{ columnId: 'type', inputProperty: 'productType', inputValue: 'basic', evaluationResult: false, operator: 'ELSE', value: '' }],
      evaluationResult: false,
    },
  ]);
  assert.equal(run(table, { productType: 'basic' }).trace, undefined, 'no trace unless asked for');
});

test('trace marks columns switched off by the options', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'a', kind: 'input', target: 'a', alias: 'col-a' },
        { id: 'o', kind: 'output', target: 'out' },
      ],
      rows: [{ cells: { a: cond('=', '1'), o: common('x') } }],
    }),
  );
  const { trace } = run(table, { a: 2 }, { trace: true, excludedConditionCols: ['col-a'] });
  assert.deepEqual(trace, [
    {
      rowNumber: 1,
      conditions: [{ columnId: 'a', inputProperty: 'a', inputValue: 2, evaluationResult: true, operator: '=', value: '1', skipped: true }],
      evaluationResult: true,
    },
  ]);
});

test('a path written together with a deeper one keeps the later column, as sequential writes would', () => {
  const build = (first: string, second: string): unknown =>
    solveJson(
      compileTable(
        tableDoc({
          columns: [
            { id: 'c', kind: 'input', target: 'x' },
            { id: 'one', kind: 'output', target: first },
            { id: 'two', kind: 'output', target: second },
          ],
          rows: [{ cells: { c: cond('anything'), one: common(first === 'a' ? '5' : '1'), two: common(second === 'a' ? '5' : '1') } }],
        }),
      ),
      {},
    );
  assert.deepEqual(build('a', 'a.b'), [{ a: { b: 1 } }]);
  assert.deepEqual(build('a.b', 'a'), [{ a: 5 }]);
});
