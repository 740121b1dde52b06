// One evaluator (docs/decisions/engine-one-evaluator.md): every evaluation step is written once and answers
// directly while nothing it touches waits, or with a promise when something does. These properties run random
// expressions and random decision tables twice, through the same compiled rule: once where every SOLVE target
// answers directly (the synchronous path, which must then never produce a promise) and once where the same
// targets answer with promises (the asynchronous path). Results, traces and errors must be identical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RuleError } from '../../src/engine/errors.ts';
import { compileExpressionText } from '../../src/engine/expression/index.ts';
import type { CompiledRule, EvaluationContext, SolveOptions, SolveResult } from '../../src/engine/types.ts';
import { objectScope } from '../../src/engine/expression/index.ts';
import { STRATEGIES } from '../../src/engine/types.ts';
import { compileDecisionTreeWith } from '../../src/engine/tree/compile.ts';
import { compileOptions, compileTable, cond, modelOf, context, common, fn, fnCondition, tableDoc, type RowSpec } from './table-helpers.ts';

/** A rule that answers its input back (`echo`), or fails (`fail`), directly or with a promise. */
function target(name: 'echo' | 'fail', waits: boolean): CompiledRule {
  return {
    type: 'decision-table',
    ruleId: name,
    ruleAlias: name,
    version: 1,
    name,
    async: waits,
    dependencies: [],
    evaluate(input: unknown): SolveResult | Promise<SolveResult> {
      if (name === 'fail') {
        const error = new RuleError('the called rule failed');
        if (waits) return Promise.reject(error);
        throw error;
      }
      const result = { result: [input] as SolveResult['result'] };
      return waits ? Promise.resolve(result) : result;
    },
  };
}

function resolverFor(waits: boolean): NonNullable<SolveOptions['resolver']> {
  const rules = { echo: target('echo', waits), fail: target('fail', waits) };
  return { resolve: (id) => rules[id as keyof typeof rules] };
}

const DIRECT = resolverFor(false);
const WAITING = resolverFor(true);

/** `text`'s value passed through a SOLVE of a target: the same value, but it waits when the target does. */
const through = (text: string): string => `SOLVE("echo",{"v":${text}},{"path":"v"})`;

/** Lambda sources: mostly arrays, so that the bodies run. */
const list = (tie: (key: 'expr') => fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom('{list}', '[1,2,"b"]', through('{list}'), '[0,{x}]'), tie('expr'));

const leaf = fc.oneof(
  fc.integer({ min: -3, max: 12 }).map(String),
  fc.constantFrom('true', 'false', 'null', '"a"', '"10"', '{a}', '{s}', '{list}', '{missing}', '{x}', '{y}', '{k}', '[1,2,"b"]'),
);

const expression = fc.letrec<{ expr: string; leaf: string }>((tie) => ({
  leaf,
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: tie('leaf'), weight: 3 },
    { arbitrary: tie('expr').map(through), weight: 3 },
    { arbitrary: fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([c, a, b]) => `IF(${c},${a},${b})`), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom('AND', 'OR', 'NVL', 'GT', 'EQ', 'SUM', 'CONCAT'), fc.array(tie('expr'), { minLength: 2, maxLength: 5 })).map(([name, args]) => `${name}(${args.join(',')})`), weight: 2 },
    { arbitrary: fc.tuple(tie('expr'), fc.constantFrom('+', '-', '*'), tie('expr')).map(([a, op, b]) => `(${a})${op}(${b})`), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom('AND', 'OR', 'NVL'), tie('expr'), leaf, tie('expr')).map(([name, a, b, c]) => `${name}(${through(a)},${b},${c})`), weight: 2 },
    { arbitrary: tie('expr').map((e) => `RAW_VALUE(${e})`), weight: 1 },
    { arbitrary: tie('expr').map((e) => `IS_NULL(${e})`), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom('ARRAY_MAP', 'ARRAY_FILTER'), list(tie), tie('expr')).map(([name, items, body]) => `${name}(${items},"x",${body})`), weight: 2 },
    { arbitrary: fc.tuple(list(tie), tie('expr')).map(([items, body]) => `ARRAY_REDUCE(${items},"x","y",${body})`), weight: 1 },
    { arbitrary: fc.array(tie('expr'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`), weight: 1 },
    { arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `{"p":${a},"q":${b}}`), weight: 1 },
  ),
}));

const VARIABLES = { a: 3, s: 'text', list: [1, 2, 3], k: 'calc', x: 1, y: 2 };

type Outcome = { value: unknown } | { error: { name: string; message: string } };

/** Runs one step; on the direct path it must answer without a promise. `waited` counts answers that were promises. */
async function outcomeOf(run: () => unknown, direct: boolean, waited?: { count: number }): Promise<Outcome> {
  try {
    const answer = run();
    if (direct) assert.ok(!(answer instanceof Promise), 'the direct path answered with a promise');
    if (waited && answer instanceof Promise) waited.count++;
    return { value: await answer };
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    return { error: { name: (error as Error).name, message: (error as Error).message } };
  }
}

function contextFor(resolver: NonNullable<SolveOptions['resolver']>, options: SolveOptions = {}): EvaluationContext {
  return context({ ...options, resolver, random: () => 0.5 });
}

test('random expressions give the same values, outcomes and errors on the direct and the waiting path', async () => {
  const waited = { count: 0 };
  await fc.assert(
    fc.asyncProperty(expression.expr, fc.nat(7), async (generated, failing) => {
      // Now and then a call that fails, reached only when the generated part is not true.
      const text = failing === 0 ? `OR(${generated},SOLVE("fail",{}))` : generated;
      const compiled = compileExpressionText(text, 'property');
      for (const method of ['evaluateOutput', 'evaluateCondition', 'evaluateRaw'] as const) {
        const direct = await outcomeOf(() => compiled[method](objectScope(VARIABLES), contextFor(DIRECT)), true);
        const waiting = await outcomeOf(() => compiled[method](objectScope(VARIABLES), contextFor(WAITING)), false, waited);
        assert.deepEqual(waiting, direct, `${method} of ${text}`);
      }
    }),
    { numRuns: 1000, seed: 18 },
  );
  // The waiting path was taken, not only described: many generated expressions call a target that waits.
  assert.ok(waited.count > 600, `only ${waited.count} evaluations waited`);
});

const cell = fc.oneof(
  fc.tuple(fc.constantFrom('>', '<', '=', '<='), fc.integer({ min: 0, max: 4 })).map(([op, v]) => cond(op, String(v))),
  fc.constant(cond('anything')),
  fc.constant(cond('ELSE')),
  expression.expr.map(fnCondition),
);
const value = fc.oneof(fc.integer({ min: 0, max: 9 }).map((v) => common(String(v))), expression.expr.map(fn));

const table = fc.array(fc.record({ x: cell, y: cell, k: value, o: value, p: value, active: fc.boolean() }), { minLength: 1, maxLength: 6 }).map((rows) =>
  tableDoc({
    columns: [
      { id: 'cx', kind: 'input', target: 'x' },
      { id: 'k', kind: 'calc', target: 'k' },
      { id: 'cy', kind: 'input', target: 'y' },
      { id: 'o', kind: 'output', target: 'out.o' },
      { id: 'p', kind: 'output', target: 'p' },
    ],
    rows: rows.map((r): RowSpec => ({ active: r.active || rows.length === 1, cells: { cx: r.x, k: r.k, cy: r.y, o: r.o, p: r.p } })),
  }),
);

const solveInput = fc.record({ x: fc.integer({ min: 0, max: 4 }), y: fc.integer({ min: 0, max: 4 }), a: fc.constantFrom(1, 'two', null) });

test('random decision tables give the same results, traces and errors on the direct and the waiting path', async () => {
  const waited = { count: 0 };
  await fc.assert(
    fc.asyncProperty(table, solveInput, fc.constantFrom(...STRATEGIES), fc.boolean(), async (doc, input, strategy, trace) => {
      const rule = compileTable(doc);
      const options: SolveOptions = { strategy, trace };
      const direct = await outcomeOf(() => rule.evaluate(input, contextFor(DIRECT, options)), true);
      const waiting = await outcomeOf(() => rule.evaluate(input, contextFor(WAITING, options)), false, waited);
      assert.deepEqual(waiting, direct, JSON.stringify({ doc, input, strategy, trace }));
    }),
    { numRuns: 300, seed: 1018 },
  );
  assert.ok(waited.count > 100, `only ${waited.count} solves waited`);
});

// Decision trees: IF blocks (conditions, OR groups), ELSE and THEN, nested, with function conditions and results.
let nodeIds = 0;
const nodeId = (): string => `t${++nodeIds}`;
const treeCondition = fc.oneof(
  fc.tuple(fc.constantFrom('>', '<', '='), fc.integer({ min: 0, max: 4 })).map(([op, v]) => ({ type: 'condition', modelVariablePath: 'x', scalarCondition: cond(op, String(v)) })),
  expression.expr.map((text) => ({ type: 'condition', modelVariablePath: 'y', scalarCondition: { operator: 'function', type: 'function', stringValue: text, value: null } })),
);
const treeConditions = fc.oneof(
  fc.array(treeCondition, { maxLength: 2 }),
  fc.array(fc.array(treeCondition, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }).map((groups) => [
    { type: 'logic_or', operandText: 'Or', nodes: groups.map((nodes) => ({ type: 'logic_group', nodes })) },
  ]),
);
const treeResult = fc.tuple(fc.constantFrom('r', 'out.s', 'out.t'), fc.oneof(fc.integer({ min: 0, max: 9 }).map((v) => ({ type: 'common', value: String(v), stringValue: null })), expression.expr.map((text) => ({ type: 'function', stringValue: text, value: null })))).map(
  ([path, value]) => ({ type: 'result', modelVariablePath: path, outputScalarValue: value }),
);
const treeBlocks = fc.letrec<{ blocks: unknown[] }>((tie) => ({
  blocks: fc.array(
    fc.oneof(
      { depthSize: 'small' },
      fc.array(treeResult, { minLength: 1, maxLength: 2 }).map((nodes) => ({ type: 'then', operandText: 'Then', nodes })),
      fc.tuple(treeConditions, tie('blocks')).map(([conditions, body]) => ({ type: 'if', operandText: 'If', nodes: [...conditions, ...body] })),
      tie('blocks').map((body) => ({ type: 'else', operandText: 'Else', nodes: body })),
    ),
    { minLength: 1, maxLength: 3 },
  ),
}));

/** Gives every node of a generated tree its own id (the generator shares node objects between runs). */
function withIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withIds);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = key === 'nodes' ? withIds(value) : value;
  if ('type' in copy && copy.type !== 'common' && copy.type !== 'function' && copy.type !== 'general') copy.id = nodeId();
  return copy;
}

test('random decision trees give the same results, traces and errors on the direct and the waiting path', async () => {
  const waited = { count: 0 };
  await fc.assert(
    fc.asyncProperty(treeBlocks.blocks, solveInput, fc.constantFrom('STANDARD', 'ARRAY'), fc.boolean(), async (blocks, input, strategy, trace) => {
      const doc = { type: 'decision-tree', name: 'tree', status: 'published', inputSchema: {}, outputSchema: {}, nodes: withIds(blocks) };
      const rule = compileDecisionTreeWith(modelOf(doc, 'decision-tree'), compileOptions(), {});
      const options: SolveOptions = { strategy, trace };
      const direct = await outcomeOf(() => rule.evaluate(input, contextFor(DIRECT, options)), true);
      const waiting = await outcomeOf(() => rule.evaluate(input, contextFor(WAITING, options)), false, waited);
      assert.deepEqual(waiting, direct, JSON.stringify({ doc, input, strategy, trace }));
    }),
    { numRuns: 300, seed: 2018 },
  );
  assert.ok(waited.count > 100, `only ${waited.count} solves waited`);
});
