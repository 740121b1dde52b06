// The column index (table/column-index.ts) must never change an answer: a property test compares indexed and
// scanned evaluation on random tables and inputs; unit tests check that large tables visit few rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DecisionTable } from '../../src/engine/table/evaluate.ts';
import type { SolveOptions } from '../../src/engine/types.ts';
import { common, compileTable, cond, context, run, tableDoc, type ColumnSpec, type RowSpec } from './table-helpers.ts';

const PATHS = ['a', 'b', 'c.d'];
const CELL_TEXT = ['0', '1', '2', '3', '5', '10', '2.5', '-1', '1e1', 'abc', 'x', 'true', 'false', '', ' 3 ', '[1]', '{"a":1}'];

const cellText = fc.constantFrom(...CELL_TEXT);
const numericText = fc.constantFrom('0', '1', '2', '3', '5', '10', '2.5', '-1');

const cell: fc.Arbitrary<Record<string, unknown> | undefined> = fc.oneof(
  { weight: 6, arbitrary: cellText.map((v) => cond('=', v)) },
  { weight: 4, arbitrary: fc.array(cellText, { maxLength: 3 }).map((v) => cond('IN', v)) },
  { weight: 2, arbitrary: fc.constant(cond('anything')) },
  { weight: 1, arbitrary: fc.constant(cond('ELSE')) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('<', '<=', '>', '>='), numericText).map(([op, v]) => cond(op, v)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('<', '>='), cellText).map(([op, v]) => cond(op, v)) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('between', 'betweenLeftOpen', 'betweenRightOpen', 'notBetween'), numericText, numericText)
      .map(([op, lo, hi]) => cond(op, [lo, hi])),
  },
  { weight: 1, arbitrary: cellText.map((v) => cond('<>', v)) },
  { weight: 1, arbitrary: fc.array(cellText, { maxLength: 2 }).map((v) => cond('NOT IN', v)) },
  { weight: 1, arbitrary: fc.constantFrom(cond('isNull'), cond('isNotNull')) },
  { weight: 1, arbitrary: fc.constant(cond('=', '{other}')) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const inputConstant = fc.constantFrom<unknown>(
  undefined, null, 0, 1, 2, 3, 5, 10, 2.5, -1, 7, '3', '3.0', ' 3 ', '10', '2.5', 'abc', 'x', '', 'true', 'false', true, false, { a: 1 }, [1],
  Number.POSITIVE_INFINITY, 'Infinity',
);
/** Inputs often equal some cell's text, so that rows actually match. */
const inputValue = fc.oneof(inputConstant, cellText);

interface Scenario {
  columns: ColumnSpec[];
  rows: RowSpec[];
  inputs: Record<string, unknown>[];
  options: SolveOptions;
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    conditionPaths: fc.oneof(fc.constantFrom<string[]>(['a'], ['c.d']), fc.array(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 3 })),
    rowCells: fc.array(fc.tuple(fc.array(cell, { minLength: 3, maxLength: 3 }), fc.boolean(), fc.integer({ min: 0, max: 9 })), { minLength: 0, maxLength: 70 }),
    inputs: fc.array(fc.tuple(inputValue, inputValue, inputValue, inputValue), { minLength: 1, maxLength: 6 }),
    strategy: fc.constantFrom('STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'),
    include: fc.option(fc.subarray(['a', 'b', 'c.d', 'col-0', 'col-1', 'col-2', 'zzz']), { nil: undefined }),
    exclude: fc.option(fc.subarray(['a', 'b', 'c.d', 'col-0', 'col-1', 'col-2', 'zzz']), { nil: undefined }),
    // Without range cells the hash index also answers text and boolean inputs.
    withRanges: fc.boolean(),
  })
  .map(({ conditionPaths, rowCells, inputs, strategy, include, exclude, withRanges }) => {
    const columns: ColumnSpec[] = conditionPaths.map((path, i) => ({ id: `c${i}`, kind: 'input', target: path, alias: `col-${i}` }));
    columns.push({ id: 'row', kind: 'output', target: 'row' }, { id: 'tag', kind: 'output', target: 'meta.tag' });
    const rows: RowSpec[] = rowCells.map(([cells, active, window], r) => {
      const spec: Record<string, unknown> = { row: common(String(r + 1)), tag: common(`t${r % 3}`) };
      conditionPaths.forEach((_, i) => {
        const chosen = cells[i];
        if (chosen === undefined) return;
        const isRange = ['<', '<=', '>', '>=', 'between', 'betweenLeftOpen', 'betweenRightOpen'].includes(chosen.operator as string);
        spec[`c${i}`] = isRange && !withRanges ? cond('=', Array.isArray(chosen.value) ? chosen.value[0] : chosen.value) : chosen;
      });
      const row: RowSpec = { cells: spec, active: active || r % 5 !== 0 };
      // A few rows with time windows, some of them closed at the fixed solve time.
      if (window === 0) row.timeValidation = { to: '2020-01-01 00:00 +00:00' };
      if (window === 1) row.timeValidation = { from: '2020-01-01 00:00 +00:00' };
      return row;
    });
    const builtInputs = inputs.map(([a, b, d, other]) => {
      const input: Record<string, unknown> = {};
      if (a !== undefined) input.a = a;
      if (b !== undefined) input.b = b;
      if (d !== undefined) input.c = { d };
      if (other !== undefined) input.other = other;
      return input;
    });
    const options: SolveOptions = { strategy };
    if (include) options.includedConditionCols = include;
    if (exclude) options.excludedConditionCols = exclude;
    return { columns, rows, inputs: builtInputs, options };
  });

test('indexed and scanned evaluation give identical results on random tables and inputs', () => {
  let narrowed = 0;
  fc.assert(
    fc.property(scenario, ({ columns, rows, inputs, options }) => {
      const doc = tableDoc({ columns, rows, outputSchema: { row: {}, meta: { tag: {} } } });
      const scanned = compileTable(doc, { index: 'off' });
      const indexed = compileTable(doc, { index: 'always' }) as DecisionTable;
      for (const input of inputs) {
        if (indexed.rowsToVisit(input, context(options)) < rows.length) narrowed++;
        assert.deepEqual(run(indexed, input, options).result, run(scanned, input, options).result);
      }
    }),
    { numRuns: 1000 },
  );
  assert.ok(narrowed > 400, `the index narrowed the rows in only ${narrowed} solves`);
});

/** A large table: one row per product code, price bands as ranges, an ELSE row at the end. */
function catalogue(size: number): Record<string, unknown> {
  const rows: RowSpec[] = [];
  for (let i = 0; i < size; i++) {
    rows.push({
      cells: {
        code: cond('=', `P-${i}`),
        amount: i % 2 === 0 ? cond('between', [String(10 * i), String(10 * i + 5)]) : cond('betweenRightOpen', [String(10 * i), String(10 * i + 10)]),
        out: common(String(i)),
      },
    });
  }
  rows.push({ cells: { code: cond('ELSE'), amount: cond('ELSE'), out: common('"none"') } });
  return tableDoc({
    columns: [
      { id: 'code', kind: 'input', target: 'code', alias: 'col-code' },
      { id: 'amount', kind: 'input', target: 'amount', alias: 'col-amount' },
      { id: 'out', kind: 'output', target: 'id' },
    ],
    rows,
  });
}

test('on an 8k-row table a keyed solve visits a handful of rows, wherever its row sits', () => {
  const table = compileTable(catalogue(8000)) as DecisionTable;
  assert.equal(table.indexed, true);
  for (const i of [0, 3999, 7998]) {
    const input = { code: `P-${i}`, amount: 10 * i + 1 };
    assert.ok(table.rowsToVisit(input, context()) <= 2, `row ${i}`);
    assert.deepEqual(run(table, input).result, [{ id: i }]);
  }
  assert.deepEqual(run(table, { code: 'P-unknown', amount: 5 }).result, [{ id: 'none' }], 'the ELSE row is always a candidate');
});

test('the index is skipped where it could change an answer, and results stay identical', () => {
  const table = compileTable(catalogue(400)) as DecisionTable;
  const scanned = compileTable(catalogue(400), { index: 'off' });
  const cases: [Record<string, unknown>, SolveOptions][] = [
    [{ code: 'P-10', amount: 101 }, { strategy: 'EVALUATE_ALL' }],
    [{ code: 'P-10', amount: 101 }, { excludedConditionCols: ['col-code'] }],
    [{ code: 'P-10', amount: 'abc' }, { excludedConditionCols: ['code'] }],
    [{ code: { nested: true }, amount: 101 }, {}],
    [{ code: 'P-10', amount: 101 }, { trace: true }],
    [{ code: 'P-11', amount: '115' }, { strategy: 'ARRAY' }],
  ];
  for (const [input, options] of cases) {
    assert.deepEqual(run(table, input, options).result, run(scanned, input, options).result, JSON.stringify([input, options]));
  }
  assert.equal(table.rowsToVisit({ code: 'P-10', amount: 101 }, context({ strategy: 'EVALUATE_ALL' })), 401);
  assert.ok(table.rowsToVisit({ code: 'P-10', amount: 101 }, context({ excludedConditionCols: ['col-code'] })) <= 2, 'the range column still narrows');
  assert.deepEqual(run(table, { code: 'P-10', amount: 101 }, { excludedConditionCols: ['col-code'] }).result, [{ id: 10 }]);
});

test('small tables are scanned unless the index is forced', () => {
  assert.equal((compileTable(catalogue(10)) as DecisionTable).indexed, false);
  assert.equal((compileTable(catalogue(10), { index: 'always' }) as DecisionTable).indexed, true);
  assert.equal((compileTable(catalogue(100), { index: 'off' }) as DecisionTable).indexed, false);
});
