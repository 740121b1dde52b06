// The column index (table/column-index.ts) must never change an answer: a property test compares indexed and
// scanned evaluation on random tables and inputs; unit tests check that large tables visit few rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DecisionTable } from '../../src/engine/table/evaluate.ts';
import type { SolveOptions } from '../../src/engine/types.ts';
import {
  compileStoredExpression,
  type CompiledExpression,
  type ExpressionCompileOptions,
  type StoredExpression,
} from '../../src/engine/expression/index.ts';
import { common, compileTable, cond, context, fn, fnCondition, run, tableDoc, type ColumnSpec, type RowSpec } from './table-helpers.ts';

const PATHS = ['a', 'b', 'c.d'];
const CELL_TEXT = ['0', '1', '2', '3', '5', '10', '2.5', '-1', '1e1', 'abc', 'x', 'true', 'false', '', ' 3 ', '[1]', '{"a":1}'];

const cellText = fc.constantFrom(...CELL_TEXT);
const numericText = fc.constantFrom('0', '1', '2', '3', '5', '10', '2.5', '-1');

/**
 * Function cells: a few expressions shared by many rows (the index groups them and evaluates each once per
 * solve), distinct ones, and ones that must not be shared: reading the calc variable `k` (left of every
 * condition column when present, different per row) or an output column (right of them, so never written when
 * the condition runs).
 */
const SHARED_EXPRESSIONS = [
  'GT({a}, 2)',
  'EQ({b}, "x")',
  'IS_NULL({c.d})',
  'EQ(RIGHT({other}, 1), "c")',
  'OR(EQ({a}, {b}), LT(NOW(), "2000-01-01 00:00"))',
  'GT({row}, 0)',
  'EQ({k}, "even")',
  'NE({k}, "even")',
  'EQ(CONCAT({k}, {b}), "oddx")',
];
const distinctFunctionCell = fc.integer({ min: -1, max: 12 }).map((n) => fnCondition(`GTE({a}, ${n})`));
const functionCell = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SHARED_EXPRESSIONS).map(fnCondition) },
  { weight: 1, arbitrary: distinctFunctionCell },
);

const cell: fc.Arbitrary<Record<string, unknown> | undefined> = fc.oneof(
  { weight: 5, arbitrary: functionCell },
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

function scenarioOf(cell: fc.Arbitrary<Record<string, unknown> | undefined>, inputValue: fc.Arbitrary<unknown>): fc.Arbitrary<Scenario> {
  return fc
  .record({
    conditionPaths: fc.oneof(fc.constantFrom<string[]>(['a'], ['c.d']), fc.array(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 3 })),
    rowCells: fc.array(fc.tuple(fc.array(cell, { minLength: 3, maxLength: 3 }), fc.boolean(), fc.integer({ min: 0, max: 9 })), { minLength: 0, maxLength: 70 }),
    inputs: fc.array(fc.tuple(inputValue, inputValue, inputValue, inputValue), { minLength: 1, maxLength: 6 }),
    strategy: fc.constantFrom('STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'),
    include: fc.option(fc.subarray(['a', 'b', 'c.d', 'col-0', 'col-1', 'col-2', 'zzz']), { nil: undefined }),
    exclude: fc.option(fc.subarray(['a', 'b', 'c.d', 'col-0', 'col-1', 'col-2', 'zzz']), { nil: undefined }),
    // Without range cells the hash index also answers text and boolean inputs.
    withRanges: fc.boolean(),
    // A calc column `k` before the conditions: function cells reading it change per row.
    withCalc: fc.boolean(),
    trace: fc.boolean(),
  })
  .map(({ conditionPaths, rowCells, inputs, strategy, include, exclude, withRanges, withCalc, trace }) => {
    const columns: ColumnSpec[] = conditionPaths.map((path, i) => ({ id: `c${i}`, kind: 'input', target: path, alias: `col-${i}` }));
    if (withCalc) columns.unshift({ id: 'k', kind: 'calc', target: 'k' });
    columns.push({ id: 'row', kind: 'output', target: 'row' }, { id: 'tag', kind: 'output', target: 'meta.tag' });
    const rows: RowSpec[] = rowCells.map(([cells, active, window], r) => {
      const spec: Record<string, unknown> = { row: common(String(r + 1)), tag: common(`t${r % 3}`) };
      if (withCalc) spec.k = r % 3 === 0 ? common('even') : fn(`IF(EQ(${r % 2}, 0), "even", "odd")`);
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
    const options: SolveOptions = { strategy, trace };
    if (include) options.includedConditionCols = include;
    if (exclude) options.excludedConditionCols = exclude;
    return { columns, rows, inputs: builtInputs, options };
  });
}

const scenario = scenarioOf(cell, inputValue);

/** Tables made mostly of function cells from a small pool whose truth varies with the input. */
const FUNCTION_POOL = [
  'EQ({a}, 1)',
  'GT({a}, 1)',
  'LT({a}, 3)',
  'IS_NULL({b})',
  'EQ({b}, "x")',
  'EQ({k}, "even")',
  'NE({k}, "even")',
  'GT({row}, 0)',
  // Lambda parameters are the expression's own: `k` below is the parameter, then the calc variable.
  'ARRAY_OR(ARRAY_MAP([1, 2, 3], "x", EQ({x}, {a})))',
  'ARRAY_OR(ARRAY_MAP(["even"], "k", EQ({k}, {b})))',
  'ARRAY_OR(ARRAY_MAP(["x"], "y", EQ({k}, "odd")))',
];
const functionHeavyScenario = scenarioOf(
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...FUNCTION_POOL).map(fnCondition) },
    { weight: 1, arbitrary: distinctFunctionCell },
    { weight: 2, arbitrary: numericText.map((v) => cond('=', v)) },
    { weight: 1, arbitrary: fc.constant(cond('anything')) },
    { weight: 1, arbitrary: fc.constant(cond('ELSE')) },
  ),
  fc.constantFrom<unknown>(undefined, 0, 1, 2, 3, '1', 'x', 'y'),
);

/** The expression compiler without footprints: every function cell runs in every row that reaches it (no sharing). */
function compileUnshared(stored: StoredExpression, where: string, options?: ExpressionCompileOptions): CompiledExpression {
  const e = compileStoredExpression(stored, where, options);
  return {
    source: e.source,
    async: e.async,
    ruleRefs: e.ruleRefs,
    evaluateOutput: (scope, ctx) => e.evaluateOutput(scope, ctx),
    evaluateCondition: (scope, ctx) => e.evaluateCondition(scope, ctx),
    evaluateRaw: (scope, ctx) => e.evaluateRaw(scope, ctx),
  };
}

/** Compares indexed evaluation with the reference scan; returns in how many solves the index left rows out. */
function checkAgainstScan({ columns, rows, inputs, options }: Scenario): number {
  let narrowed = 0;
  const doc = tableDoc({ columns, rows, outputSchema: { row: {}, meta: { tag: {} } } });
  // The reference: a plain scan, each function cell evaluated by every row that reaches it.
  const scanned = compileTable(doc, { index: 'off', compileExpression: compileUnshared });
  const indexed = compileTable(doc, { index: 'always' }) as DecisionTable;
  for (const input of inputs) {
    if (indexed.rowsToVisit(input, context(options)) < rows.length) narrowed++;
    const fromIndex = run(indexed, input, options);
    const fromScan = run(scanned, input, options);
    assert.deepEqual(fromIndex.result, fromScan.result);
    assert.deepEqual(fromIndex.trace, fromScan.trace);
  }
  return narrowed;
}

test('indexed and scanned evaluation give identical results on random tables and inputs', () => {
  let narrowed = 0;
  fc.assert(
    fc.property(scenario, (s) => {
      narrowed += checkAgainstScan(s);
    }),
    { numRuns: 1000 },
  );
  assert.ok(narrowed > 400, `the index narrowed the rows in only ${narrowed} solves`);
});

test('shared function cells give identical results, indexed or scanned, on random function-heavy tables', () => {
  let narrowed = 0;
  fc.assert(
    fc.property(functionHeavyScenario, (s) => {
      narrowed += checkAgainstScan(s);
    }),
    { numRuns: 500 },
  );
  assert.ok(narrowed > 200, `the index narrowed the rows in only ${narrowed} solves`);
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

/** The real expression compiler, counting condition evaluations per expression source. */
function countingCompiler(): { compileExpression: typeof compileStoredExpression; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const compileExpression = (stored: StoredExpression, where: string, options?: ExpressionCompileOptions): CompiledExpression => {
    const e = compileStoredExpression(stored, where, options);
    const count = (): void => void calls.set(e.source, (calls.get(e.source) ?? 0) + 1);
    return {
      ...compileUnshared(stored, where, options),
      footprint: e.footprint,
      evaluateCondition: (scope, ctx) => {
        count();
        return e.evaluateCondition(scope, ctx);
      },
    };
  };
  return { compileExpression, calls };
}

/** zen's 8k-table shape: the same function condition on every row, then a catch-all row. */
function repeatedFunctionTable(size: number, expression: string, withCalc = false): Record<string, unknown> {
  const rows: RowSpec[] = [];
  for (let i = 0; i < size; i++) {
    const cells: Record<string, unknown> = { country: cond('=', 'GB'), email: fnCondition(expression), out: common(String(i + 1)) };
    if (withCalc) cells.k = fn('{email}');
    rows.push({ cells });
  }
  rows.push({ cells: { out: common('"other"') } });
  const columns: ColumnSpec[] = [
    { id: 'country', kind: 'input', target: 'country' },
    { id: 'email', kind: 'input', target: 'email' },
    { id: 'out', kind: 'output', target: 'row' },
  ];
  if (withCalc) columns.unshift({ id: 'k', kind: 'calc', target: 'k' });
  return tableDoc({ columns, rows });
}

test('a function condition shared by every row runs once per solve, and when false the index skips its rows', () => {
  const gmail = 'EQ(RIGHT({email}, 10), "@gmail.com")';
  const { compileExpression, calls } = countingCompiler();
  const table = compileTable(repeatedFunctionTable(300, gmail), { compileExpression }) as DecisionTable;
  const other = { country: 'GB', email: 'someone@example.com' };
  assert.equal(table.rowsToVisit(other, context({ strategy: 'FIRST_MATCH' })), 1, 'only the catch-all row is left');
  calls.clear();
  assert.deepEqual(run(table, other, { strategy: 'FIRST_MATCH' }).result, [{ row: 'other' }]);
  assert.equal(calls.get(gmail), 1);
  calls.clear();
  assert.deepEqual(run(table, { country: 'GB', email: 'a@gmail.com' }, { strategy: 'FIRST_MATCH' }).result, [{ row: 1 }]);
  assert.equal(calls.get(gmail), 1);
  calls.clear();
  assert.equal(run(table, { country: 'GB', email: 'a@gmail.com' }).result.length, 301, 'STANDARD: every row and the catch-all');
  assert.equal(calls.get(gmail), 1, 'evaluated once for 300 rows');
  calls.clear();
  const traced = run(table, other, { trace: true });
  assert.equal(traced.trace?.length, 301, 'a trace lists every row');
  assert.equal(calls.get(gmail), 300, 'a trace explains the cell in every row, as a scan does');
});

test('function conditions that can differ between rows still run in every row that reaches them', () => {
  const random = 'GT(RANDOM(), -1)';
  const first = countingCompiler();
  const randomTable = compileTable(repeatedFunctionTable(50, random), { compileExpression: first.compileExpression }) as DecisionTable;
  assert.equal(run(randomTable, { country: 'GB' }).result.length, 51);
  assert.equal(first.calls.get(random), 50, 'RANDOM is not repeatable');
  assert.equal(randomTable.rowsToVisit({ country: 'GB' }, context()), 51);

  const calcRead = 'EQ(RIGHT({k}, 10), "@gmail.com")';
  const second = countingCompiler();
  const calcTable = compileTable(repeatedFunctionTable(50, calcRead, true), { compileExpression: second.compileExpression });
  assert.equal(run(calcTable, { country: 'GB', email: 'a@gmail.com' }).result.length, 51);
  assert.equal(second.calls.get(calcRead), 50, 'a calc variable to the left is recomputed per row');
  assert.deepEqual(run(calcTable, { country: 'GB', email: 'a@example.com' }).result, [{ row: 'other' }]);
});

test('text that is not numeric matches no numeric comparison but NOT BETWEEN, indexed or scanned; the index still narrows for it', () => {
  const rows: RowSpec[] = [
    { cells: { total: cond('>=', '100'), out: common('"big"') } },
    { cells: { total: cond('<', '100'), out: common('"small"') } },
    { cells: { total: cond('between', ['0', '50']), out: common('"low"') } },
    { cells: { total: cond('notBetween', ['0', '50']), out: common('"outside"') } },
    { cells: { total: cond('=', 'abc'), out: common('"text"') } },
  ];
  for (let i = 0; i < 60; i++) rows.push({ cells: { total: cond('=', String(1000 + i)), out: common(String(i)) } });
  const doc = tableDoc({ columns: [{ id: 'total', kind: 'input', target: 'total' }, { id: 'out', kind: 'output', target: 'size' }], rows });
  const indexed = compileTable(doc, { index: 'always' }) as DecisionTable;
  const scanned = compileTable(doc, { index: 'off' });
  for (const [total, expected] of [
    ['abc', [{ size: 'outside' }, { size: 'text' }]],
    [true, [{ size: 'outside' }]],
    ['150', [{ size: 'big' }, { size: 'outside' }]],
    [20, [{ size: 'small' }, { size: 'low' }]],
  ] as const) {
    const input = { total };
    assert.deepEqual(run(indexed, input).result, expected, JSON.stringify(total));
    assert.deepEqual(run(scanned, input).result, expected, JSON.stringify(total));
  }
  assert.ok(indexed.rowsToVisit({ total: 'abc' }, context()) <= 2, 'non-numeric text uses the index (its text row and the notBetween wildcard) instead of a scan');
});

/**
 * Wide, overlapping numeric bands (age bands, amount bands, `>=` thresholds) store far more segment entries than
 * rows; the range index then thins its points, and its segments list every row whose interval overlaps them.
 */
test('heavily overlapping range columns are still indexed, and give the answers of a scan', () => {
  const band = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 120 }), fc.constantFrom('between', 'betweenLeftOpen', 'betweenRightOpen', '>=', '<', 'anything'));
  let narrowed = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(band, band), { minLength: 40, maxLength: 160 }),
      fc.array(fc.tuple(fc.oneof(fc.integer({ min: -10, max: 330 }), fc.constantFrom<unknown>('150', 2.5, 'x', null)), fc.integer({ min: -10, max: 330 })), { minLength: 1, maxLength: 8 }),
      fc.constantFrom('STANDARD', 'FIRST_MATCH'),
      (bands, inputs, strategy) => {
        const cellOf = ([lo, width, op]: [number, number, string]): Record<string, unknown> =>
          op.startsWith('between') ? cond(op, [String(lo), String(lo + width)]) : op === 'anything' ? cond('anything') : cond(op, String(lo));
        const rows: RowSpec[] = bands.map(([x, y], r) => ({ cells: { x: cellOf(x), y: cellOf(y), out: common(String(r + 1)) } }));
        const doc = tableDoc({
          columns: [
            { id: 'x', kind: 'input', target: 'x' },
            { id: 'y', kind: 'input', target: 'y' },
            { id: 'out', kind: 'output', target: 'row' },
          ],
          rows,
        });
        const indexed = compileTable(doc, { index: 'always' }) as DecisionTable;
        const scanned = compileTable(doc, { index: 'off' });
        for (const [x, y] of inputs) {
          const input = { x, y };
          if (indexed.rowsToVisit(input, context({ strategy })) < rows.length) narrowed++;
          assert.deepEqual(run(indexed, input, { strategy }).result, run(scanned, input, { strategy }).result);
        }
      },
    ),
    { numRuns: 200 },
  );
  assert.ok(narrowed > 300, `the index narrowed the rows in only ${narrowed} solves`);
});
