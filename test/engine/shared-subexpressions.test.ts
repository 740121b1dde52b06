// Differential fuzz test of the shared subexpressions (expression/per-solve.ts): random decision tables whose
// function cells are random expressions, solved for random inputs twice, once compiled with the sharing (what
// compileRule does) and once with the plain compile mode, where every node of every cell evaluates each time it
// is reached. Results and traces must be identical under every strategy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DecisionTable } from '../../src/engine/table/evaluate.ts';
import type { SolveOptions } from '../../src/engine/types.ts';
import { compileStoredExpression, PerSolveSlots, type CompiledExpression, type ExpressionCompileOptions, type StoredExpression } from '../../src/engine/expression/index.ts';
import { getAt, type PathSegment } from '../../src/engine/path.ts';
import { OutputLayout } from '../../src/engine/cells/output-layout.ts';
import { compileTable, cond, context, fn, fnCondition, run, tableDoc, type ColumnSpec, type RowSpec } from './table-helpers.ts';

/**
 * References: input paths, the calc variable `k` (left of every condition), the outputs `o1` (between the two
 * condition columns: shadowed in the second, an input path in the first) and `o2` (right of everything), a
 * missing one, and the lambda parameter `x` (only meaningful inside ARRAY_MAP, invalid elsewhere).
 */
const REFS = ['{a}', '{b}', '{c.d}', '{k}', '{o1}', '{o2}', '{missing}', '{x}'];
const LITERALS = ['0', '1', '2.5', '-3', '10', '"x"', '"10"', '""', 'true', 'null'];

const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: fc.constantFrom(...REFS) },
    { weight: 2, arbitrary: fc.constantFrom(...LITERALS) },
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/'), tie('e')).map(([l, op, r]) => `(${l} ${op} ${r})`),
    tie('e').map((e) => `-(${e})`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, t, f]) => `IF(${c}, ${t}, ${f})`),
    fc.tuple(fc.constantFrom('AND', 'OR', 'EQ', 'GT', 'NVL', 'CONCAT', 'MAX'), tie('e'), tie('e')).map(([name, l, r]) => `${name}(${l}, ${r})`),
    fc.tuple(fc.constantFrom('NOT', 'IS_NULL', 'UPPER_CASE', 'LEN', 'RAW_VALUE', 'ABS'), tie('e')).map(([name, e]) => `${name}(${e})`),
    tie('e').map((e) => `ROUND(${e}, 1)`),
    fc.tuple(tie('e'), tie('e')).map(([l, body]) => `ARRAY_MAP([${l}, 2], "x", (${body} + {x}))`),
    fc.tuple(tie('e'), tie('e')).map(([l, r]) => `SUM([${l}, ${r}])`),
    fc.constantFrom('RANDOM()', 'NOW()'),
  ),
})).e;

/** A few expressions many cells repeat, so that sharing between cells, rows and columns really happens. */
const POOL = ['(({a} * {b}) + 1)', 'UPPER_CASE(CONCAT({c.d}, "-", {a}))', 'GT({a}, {o1})', 'NVL({k}, {b})', 'ROUND(({a} / 3), 1)'];
/** Whole cells that recur: RAW_VALUE in the result's position must mark every evaluation, shared or not. */
const RECURRING = ['RAW_VALUE(CONCAT({a}, "1"))', 'IF(GT({a}, 1), RAW_VALUE("10"), "7")', ...POOL];
const cellExpression = fc.oneof(
  { weight: 3, arbitrary: expression },
  { weight: 1, arbitrary: fc.constantFrom(...RECURRING) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...POOL), expression, fc.constantFrom('GT', 'EQ', 'CONCAT', 'IF')).map(([shared, e, name]) => (name === 'IF' ? `IF(${e}, ${shared}, ${e})` : `${name}(${shared}, ${e})`)) },
);

const value = fc.constantFrom<unknown>(undefined, null, 0, 1, 2, 3.5, -1, '3', '2.5', 'abc', 'x', '', true, false, [1, 2], { d: 1 }, 1e308, Number.POSITIVE_INFINITY);

/** The plain compile mode: the same expression compiler with no sharing of subexpressions. */
function compilePlain(stored: StoredExpression, where: string, options?: ExpressionCompileOptions): CompiledExpression {
  return compileStoredExpression(stored, where, { associativity: options?.associativity });
}

/** Different every call but the same sequence for both compilations of a solve: RANDOM() is never shared. */
function counter(): () => number {
  let n = 0;
  return () => (n++ % 10) / 10;
}

const COLUMNS: ColumnSpec[] = [
  { id: 'k', kind: 'calc', target: 'k' },
  { id: 'c0', kind: 'input', target: 'a' },
  { id: 'o1', kind: 'output', target: 'o1' },
  { id: 'c1', kind: 'input', target: 'b' },
  { id: 'o2', kind: 'output', target: 'o2' },
];

test('shared subexpressions give the results and traces of the plain compile mode on random tables and inputs', () => {
  let sharedTables = 0;
  let unsharedTables = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(cellExpression, cellExpression, cellExpression, cellExpression, cellExpression, fc.boolean()), { minLength: 1, maxLength: 8 }),
      fc.array(fc.tuple(value, value, value, value, value), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'),
      fc.boolean(),
      (cells, inputs, strategy, trace) => {
        const rows: RowSpec[] = cells.map(([k, c0, o1, c1, o2, anything]) => ({
          cells: { k: fn(k), c0: fnCondition(c0), o1: fn(o1), c1: anything ? cond('anything') : fnCondition(c1), o2: fn(o2) },
        }));
        const doc = tableDoc({ columns: COLUMNS, rows });
        const shared = compileTable(doc) as DecisionTable;
        const plain = compileTable(doc, { compileExpression: compilePlain });
        if ((shared as unknown as { perSolveCount: number }).perSolveCount > 0) sharedTables++;
        if (unsharedSlots(doc) > 0) unsharedTables++;
        for (const [a, b, d, o1, k] of inputs) {
          const input: Record<string, unknown> = { a, b, c: { d }, o1, k };
          const options = (): SolveOptions => ({ strategy, trace, random: counter() });
          const expected = run(plain, input, options());
          const actual = run(shared, input, options());
          assert.deepEqual(actual.result, expected.result);
          assert.deepEqual(actual.trace, expected.trace);
        }
      },
    ),
    { numRuns: 600 },
  );
  assert.ok(sharedTables > 400, `only ${sharedTables} tables shared a subexpression`);
  assert.ok(unsharedTables > 400, `only ${unsharedTables} tables left a subexpression of one place unshared`);
});

/**
 * Subexpressions evaluated at one place only (PerSolveSlots.finish) get no slot: how many a table compiled with
 * every slot kept (a registry whose finish does nothing) has more than the table itself.
 */
function unsharedSlots(doc: Record<string, unknown>): number {
  const everySlot = compileTable(doc, { keepEverySlot: true }) as unknown as { perSolveCount: number };
  return everySlot.perSolveCount - (compileTable(doc) as unknown as { perSolveCount: number }).perSolveCount;
}

/**
 * Which subexpressions keep a slot: those evaluated at more than one place (two cells, a cell and the rows that
 * reuse it, a lambda body run per element); the others are evaluated where they are, and the per-solve array
 * holds only the slots kept, numbered densely.
 */
test('only subexpressions evaluated at more than one place keep a per-solve slot', () => {
  const columns: ColumnSpec[] = [
    { id: 'c0', kind: 'input', target: 'a' },
    { id: 'o1', kind: 'output', target: 'o1' },
    { id: 'o2', kind: 'output', target: 'o2' },
  ];
  const slots = (rows: RowSpec[]): number => (compileTable(tableDoc({ columns, rows })) as unknown as { perSolveCount: number }).perSolveCount;
  const row = (o1: string, o2: string): RowSpec => ({ cells: { c0: cond('anything'), o1: fn(o1), o2: fn(o2) } });
  // ({a} * {b}) + 1 and ROUND(..., 1) appear once: only {a} and {b}, each in both cells, keep slots.
  assert.equal(slots([row('(({a} * {b}) + 1)', 'ROUND(({a} / {b}), 1)')]), 2);
  // The same cell in two rows is compiled once and reused: all its subexpressions keep their slots.
  assert.equal(slots([row('(({a} * {b}) + 1)', '1'), row('(({a} * {b}) + 1)', '2')]), 4);
  // A subexpression of a lambda body runs once per element: ({a} * 2) and {a} keep theirs.
  assert.equal(slots([row('ARRAY_MAP([1, 2], "x", ({x} + ({a} * 2)))', '1')]), 2);
});

/**
 * Conditions first, outputs after, no calc column: rows whose function cells are all memoised run directly
 * (TableRow.direct: conditions tested first, outputs only for a matching row). The traced solve and EVALUATE_ALL
 * take the general step loop, so each untraced answer is checked against the traced one of the same table, and
 * against the plain compile mode. `{o1}` in a condition is the input's o1 (no output is written yet).
 */
const DIRECT_COLUMNS: ColumnSpec[] = [
  { id: 'c0', kind: 'input', target: 'a' },
  { id: 'c1', kind: 'input', target: 'b' },
  { id: 'o1', kind: 'output', target: 'o1' },
  { id: 'o2', kind: 'output', target: 'o.p' },
];
/** Conditions often true (so that later rows meet ELSE), some reading the outputs' paths (the input's values). */
const LIKELY = ['GT({a}, 1)', 'GTE(({a} * {b}), 2)', 'EQ({b}, "x")', 'OR(EQ({a}, 1), GT({b}, 2))', 'true', 'IS_NULL({o.p})', 'NOT(IS_NULL({o1}))', 'EQ({o1}, 1)'];
/** Comparisons of one shared value with different constants: set together per solve (TableScope.prefill). */
const COMPARED = ['({a} * {b})', '{a}', '{o1}'].flatMap((x) => ['GT', 'GTE', 'LT', 'LTE'].flatMap((name) => ['-1', '0', '1', '2.5', '3'].map((c) => `${name}(${x}, ${c})`)));
const directCondition = fc.oneof(
  { weight: 3, arbitrary: cellExpression.map(fnCondition) },
  { weight: 3, arbitrary: fc.constantFrom(...LIKELY).map(fnCondition) },
  { weight: 3, arbitrary: fc.constantFrom(...COMPARED).map(fnCondition) },
  { weight: 2, arbitrary: fc.constantFrom(cond('anything'), cond('ELSE'), cond('>=', '2'), cond('=', 'x')) },
);

test('rows run directly answer as the general step loop and the plain compile mode', () => {
  let directRows = 0;
  let comparisonGroups = 0;
  let gatedRows = 0;
  let unreadColumns = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(directCondition, directCondition, cellExpression, cellExpression), { minLength: 1, maxLength: 10 }),
      fc.array(fc.tuple(value, value, value, value), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('STANDARD', 'FIRST_MATCH', 'ARRAY'),
      (cells, inputs, strategy) => {
        const rows: RowSpec[] = cells.map(([c0, c1, o1, o2]) => ({ cells: { c0, c1, o1: fn(o1), o2: fn(o2) } }));
        const doc = tableDoc({ columns: DIRECT_COLUMNS, rows });
        const shared = compileTable(doc) as DecisionTable;
        const plain = compileTable(doc, { compileExpression: compilePlain });
        directRows += shared.structure.rows.filter((row) => row.direct && !row.fast).length;
        // Rows passed over once their first (memoised) condition is known to fail (TableRow.firstMemo).
        gatedRows += shared.structure.rows.filter((row) => row.firstMemo >= 0).length;
        comparisonGroups += (shared as unknown as { comparisons: unknown[] }).comparisons.length;
        // Columns an untraced solve leaves unread (only function, anything and ELSE cells): the traced solve reads them.
        const columns = shared as unknown as { inputColumns: unknown[]; readColumns: unknown[] };
        if (columns.readColumns.length < columns.inputColumns.length) unreadColumns++;
        for (const [a, b, d, o1] of inputs) {
          const input: Record<string, unknown> = { a, b, c: { d }, o1 };
          const options = (trace: boolean): SolveOptions => ({ strategy, trace, random: counter() });
          const direct = run(shared, input, options(false));
          assert.deepEqual(direct.result, run(shared, input, options(true)).result);
          assert.deepEqual(direct.result, run(plain, input, options(false)).result);
          assert.deepEqual(direct.result, run(plain, input, options(true)).result);
        }
      },
    ),
    { numRuns: 600 },
  );
  assert.ok(directRows > 1000, `only ${directRows} rows were direct`);
  assert.ok(comparisonGroups > 200, `only ${comparisonGroups} groups of comparisons`);
  assert.ok(gatedRows > 500, `only ${gatedRows} rows start with a memoised cell`);
  assert.ok(unreadColumns > 100, `only ${unreadColumns} tables left a column unread`);
});

const OBJECT_COLUMNS: ColumnSpec[] = [
  { id: 'c0', kind: 'input', target: 'a' },
  { id: 'c1', kind: 'input', target: 'b' },
  { id: 'o1', kind: 'output', target: 'q.n' },
  { id: 'o2', kind: 'output', target: 'r' },
  { id: 'o3', kind: 'output', target: 'q.t.u' },
  { id: 'o4', kind: 'output', target: 'q.s' },
];
/** Results that read no output, and some that read one (`{q.n}`, `{r}`: those rows keep the slot array). */
const OBJECT_RESULTS = fc.oneof({ weight: 6, arbitrary: cellExpression }, { weight: 1, arbitrary: fc.constantFrom('{q.n}', 'CONCAT({r}, "!")', '{q}') });

test('rows writing their results straight into the output objects answer as the general step loop, key order included', () => {
  let objectRows = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(directCondition, directCondition, fc.array(OBJECT_RESULTS, { minLength: 4, maxLength: 4 })), { minLength: 1, maxLength: 8 }),
      fc.array(fc.tuple(value, value, value, value), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('STANDARD', 'FIRST_MATCH', 'ARRAY'),
      (cells, inputs, strategy) => {
        const rows: RowSpec[] = cells.map(([c0, c1, [o1, o2, o3, o4]]) => ({ cells: { c0, c1, o1: fn(o1!), o2: fn(o2!), o3: fn(o3!), o4: fn(o4!) } }));
        const doc = tableDoc({ columns: OBJECT_COLUMNS, rows });
        const shared = compileTable(doc) as DecisionTable;
        const plain = compileTable(doc, { compileExpression: compilePlain });
        const writes = (shared as unknown as { writesObjects: boolean[] | undefined }).writesObjects;
        objectRows += writes?.filter(Boolean).length ?? 0;
        for (const [a, b, d, o1] of inputs) {
          const input: Record<string, unknown> = { a, b, c: { d }, o1, q: { n: 5 }, r: 'in' };
          const options = (trace: boolean): SolveOptions => ({ strategy, trace, random: counter() });
          const direct = JSON.stringify(run(shared, input, options(false)).result);
          assert.equal(direct, JSON.stringify(run(shared, input, options(true)).result));
          assert.equal(direct, JSON.stringify(run(plain, input, options(true)).result));
        }
      },
    ),
    { numRuns: 400 },
  );
  assert.ok(objectRows > 300, `only ${objectRows} rows wrote into their objects`);
});

/**
 * Output objects of nested layouts are copies of templates filled in when every leaf was written and nothing is
 * cloned (cells/output-layout.ts, flow/output-layout.ts buildOutput): same keys, same order, same values as when
 * each key is added in turn (the same layout with its template taken away), for random paths, schemas and leaves.
 */
test('output objects filled from templates equal those built key by key, key order included', () => {
  const segment = fc.constantFrom('a', 'b', 'c', '0', '1', '__proto__');
  const paths = fc.uniqueArray(fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.')), { minLength: 1, maxLength: 6 });
  const leaf = fc.constantFrom<unknown>(undefined, null, 0, 2.5, 'x', '', true, [1, { d: 2 }], { e: [3] });
  const schema = fc.constantFrom<unknown>(undefined, { c: {}, b: { 1: {}, a: {} } }, { 1: {}, a: { c: {}, b: {} } });
  let templated = 0;
  fc.assert(
    fc.property(paths, fc.array(leaf, { minLength: 6, maxLength: 6 }), schema, fc.boolean(), (ps, leaves, sch, clone) => {
      const layout = new OutputLayout(ps, sch);
      const keyByKey = Object.assign(Object.create(OutputLayout.prototype), layout, { template: undefined }) as OutputLayout;
      const values = leaves.slice(0, ps.length);
      if ((layout as unknown as { template: unknown }).template !== undefined && values.every((v) => v !== undefined)) templated++;
      const built = layout.build(values, clone);
      const expected = keyByKey.build(values, clone);
      assert.equal(JSON.stringify(built), JSON.stringify(expected));
      assert.deepEqual(built, expected);
      if (clone) for (const value of Object.values(built)) assert.ok(!values.includes(value) || value === null || typeof value !== 'object');
    }),
    { numRuns: 3000 },
  );
  assert.ok(templated > 100, `only ${templated} objects were filled from templates`);
});

/**
 * Calls with a constant operand compile by argument shape (expression/constant-operand.ts): inline for a number
 * (or text, for EQ/NE), the general function otherwise. Each is checked against the same call with the constant
 * given as a reference (which takes the general form), for operands of every type, plain and shared per solve.
 */
test('calls with a constant operand answer as with the same value from a reference', () => {
  const operand = fc.constantFrom<unknown>(undefined, null, 0, -0, 1, -2.5, 7, 1e308, Number.NaN, Number.POSITIVE_INFINITY, '3', ' 4 ', '2.5e1', 'abc', '', 'true', true, false, [1], [], {}, { a: 1 });
  const constant = fc.constantFrom('0', '1', '2.5', '-3', '1e300', '1e400', '(0 - 0)', '"gold"', '"3"', '" 3"', '"25"', '"true"', '""', '" x "', 'true', 'null');
  const form = fc.constantFrom(
    ...['+', '-', '*', '/', '%'].flatMap((op) => [`({a} ${op} C)`, `(C ${op} {a})`]),
    ...['GT', 'GTE', 'LT', 'LTE', 'EQ', 'NE', 'MAX', 'MIN', 'ROUND'].flatMap((name) => [`${name}({a}, C)`, `${name}(C, {a})`]),
  );
  const ctx = context();
  const outcome = (text: string, shared: boolean, variables: Record<string, unknown>): unknown => {
    const options: ExpressionCompileOptions = shared ? { perSolve: { slots: new PerSolveSlots(), fixed: () => true } } : {};
    const expression = compileStoredExpression({ stringValue: text }, 'test', options);
    const scope = { resolve: (segments: readonly PathSegment[]) => getAt(variables, segments), perSolve: shared ? [] : undefined };
    try {
      return { value: expression.evaluateRaw(scope, ctx) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  fc.assert(
    fc.property(form, constant, operand, fc.boolean(), (text, c, a, shared) => {
      const k = outcome(c, false, {}) as { value: unknown };
      const byShape = outcome(text.replace('C', c), shared, { a });
      const general = outcome(text.replace('C', '{k}'), shared, { a, k: k.value });
      assert.deepEqual(byShape, general, `${text} with C = ${c}, a = ${String(a)}`);
    }),
    { numRuns: 4000 },
  );
});

/**
 * ROUND with constant whole places computes 10^places once for its node (arithmetic.ts roundHalfAwayScaled): the
 * same as ROUND with the places from a reference (the general function) and as the plain reference rounding below
 * (the decimal rule of §11 Fn2 written out), for values near and on decimal ties.
 */
test('ROUND with constant places answers as the general function and the reference rounding', () => {
  const reference = (value: number, places: number): number => {
    const shift = (v: number, by: number): number => {
      const [mantissa, exponent] = String(v).split('e');
      return Number(`${mantissa}e${Number(exponent ?? 0) + by}`);
    };
    const abs = Math.abs(value);
    const scaled = places > 15 || places < -15 ? undefined : places >= 0 ? abs * 10 ** places : abs / 10 ** -places;
    const nearTie = scaled === undefined || Math.abs(scaled - Math.floor(scaled) - 0.5) <= 1e-9 * Math.max(1, scaled);
    const rounded = nearTie ? shift(Math.round(shift(abs, places)), -places) : places >= 0 ? Math.round(scaled) / 10 ** places : Math.round(scaled) * 10 ** -places;
    return rounded * (value < 0 ? -1 : 1) || 0;
  };
  const value = fc.oneof(
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.tuple(fc.integer({ min: -100000, max: 100000 }), fc.integer({ min: 0, max: 6 })).map(([n, d]) => (n + 0.5) / 10 ** d),
    fc.constantFrom(1.005, 2.675, -1.005, 0.125, 1234.5, 1e21, 5e-324, -0),
  );
  const ctx = context();
  const evaluate = (text: string, variables: Record<string, unknown>): unknown => {
    const scope = { resolve: (segments: readonly PathSegment[]) => getAt(variables, segments) };
    try {
      return compileStoredExpression({ stringValue: text }, 'test').evaluateRaw(scope, ctx);
    } catch (error) {
      return (error as Error).message;
    }
  };
  fc.assert(
    fc.property(value, fc.integer({ min: -4, max: 17 }), (x, places) => {
      const byShape = evaluate(`ROUND({x}, ${places})`, { x });
      assert.deepEqual(byShape, evaluate('ROUND({x}, {p})', { x, p: places }), `ROUND(${x}, ${places})`);
      if (typeof byShape === 'number') assert.equal(byShape, reference(x, places), `ROUND(${x}, ${places})`);
    }),
    { numRuns: 5000 },
  );
});

/** Two-argument AND/OR and IF have forms of their own; the general forms answer the same. */
test('two-argument AND/OR and IF answer as their general forms', () => {
  const operand = fc.constantFrom<unknown>(undefined, null, 0, 1, 2, 'true', 'false', 'x', '', true, false, [], [true], [0, 1], {});
  const pairs = [
    ['OR({a}, {b})', 'OR({a}, {b}, false)'],
    ['AND({a}, {b})', 'AND({a}, {b}, true)'],
    ['OR(GT({a}, 1), EQ({b}, "x"))', 'OR(GT({a}, 1), EQ({b}, "x"), false)'],
    ['IF({a}, "yes", 2)', 'IF({a}, {yes}, {two})'],
    ['IF(GT({a}, 1), "yes", {b})', 'IF(GT({a}, 1), {yes}, {b})'],
  ];
  const ctx = context();
  const outcome = (text: string, shared: boolean, variables: Record<string, unknown>): unknown => {
    const options: ExpressionCompileOptions = shared ? { perSolve: { slots: new PerSolveSlots(), fixed: () => true } } : {};
    const scope = { resolve: (segments: readonly PathSegment[]) => getAt(variables, segments), perSolve: shared ? [] : undefined };
    try {
      return { value: compileStoredExpression({ stringValue: text }, 'test', options).evaluateRaw(scope, ctx) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  fc.assert(
    fc.property(fc.constantFrom(...pairs), operand, operand, fc.boolean(), ([specific, general], a, b, shared) => {
      const variables = { a, b, yes: 'yes', two: 2 };
      assert.deepEqual(outcome(specific!, shared, variables), outcome(general!, shared, variables), `${specific} with a = ${String(a)}, b = ${String(b)}`);
    }),
    { numRuns: 2000 },
  );
});
