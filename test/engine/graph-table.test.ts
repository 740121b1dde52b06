// Decision table nodes of decision graphs: hit policies, `field[]` collect columns, unary and expression cells,
// empty cells, transform attributes (inputField, outputPath, loop, passThrough) and the trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { solve } from '../../src/engine/index.ts';
import { ZEN_NOW, chain, compileGraph, tableContent } from './graph-helpers.ts';

const answer = async (graph: ReturnType<typeof chain>, input: unknown): Promise<unknown> => (await solve(compileGraph(graph), input, { now: ZEN_NOW })).result[0];

const discounts = (hitPolicy: 'first' | 'collect', extra: Record<string, unknown> = {}) =>
  chain({
    type: 'decisionTableNode',
    name: 'Discounts',
    content: tableContent(
      hitPolicy,
      ['customer.tier', 'total', null],
      ['discount', 'reason.code'],
      [
        ["'gold'", '>= 100', '', '0.2', "'gold-big'"],
        ["'gold', 'silver'", '[10..100)', "country == 'GB'", '0.1', "'uk'"],
        ['', '', '', '0', ''],
      ],
      extra,
    ),
  });

test('first hit answers the first matching row; unary, list, range and expression cells; empty cells match', async () => {
  assert.deepEqual(await answer(discounts('first'), { customer: { tier: 'gold' }, total: 150 }), { discount: 0.2, reason: { code: 'gold-big' } });
  assert.deepEqual(await answer(discounts('first'), { customer: { tier: 'silver' }, total: 50, country: 'GB' }), { discount: 0.1, reason: { code: 'uk' } });
  // `[10..100)` excludes 100, the expression cell needs GB: the catch-all row, whose empty output writes nothing.
  assert.deepEqual(await answer(discounts('first'), { customer: { tier: 'silver' }, total: 100, country: 'GB' }), { discount: 0 });
  assert.deepEqual(await answer(discounts('first'), { customer: { tier: 'silver' }, total: 50, country: 'FR' }), { discount: 0 });
});

test('collect answers every matching row in order; the output node merges an array answer as the result', async () => {
  assert.deepEqual(await answer(discounts('collect'), { customer: { tier: 'gold' }, total: 50, country: 'GB' }), [
    { discount: 0.1, reason: { code: 'uk' } },
    { discount: 0 },
  ]);
});

test('first hit with field[] columns: scalars of the first match, the collected column from every match', async () => {
  const graph = chain({
    type: 'decisionTableNode',
    name: 'Flags',
    content: tableContent('first', ['score'], ['level', 'flags[]'], [
      ['> 50', "'high'", "'over-50'"],
      ['> 10', "'mid'", "'over-10'"],
      ['', "'low'", ''],
      ['< 0', "'never'", "'negative'"],
    ]),
  });
  assert.deepEqual(await answer(graph, { score: 60 }), { level: 'high', flags: ['over-50', 'over-10'] });
  assert.deepEqual(await answer(graph, { score: 5 }), { level: 'low', flags: [] });
});

test('no match answers null, which the output node reads as an empty object', async () => {
  const graph = chain({ type: 'decisionTableNode', name: 'T', content: tableContent('first', ['x'], ['y'], [['> 10', '1']]) });
  assert.deepEqual(await answer(graph, { x: 1 }), {});
});

test('a cell that fails at runtime does not match, and a row whose output fails is skipped (as zen)', async () => {
  const graph = chain({
    type: 'decisionTableNode',
    name: 'T',
    content: tableContent('first', ['x'], ['y'], [
      ['> 10', '1'],
      ['', 'x + 1'],
      ['', "'fallback'"],
    ]),
  });
  // `'a' > 10` fails (strings do not compare with numbers); `'a' + 1` fails: the third row answers.
  assert.deepEqual(await answer(graph, { x: 'a' }), { y: 'fallback' });
  assert.deepEqual(await answer(graph, { x: 3 }), { y: 4 });
});

test('passThrough merges the answer over the input, outputPath nests it, inputField picks the input', async () => {
  const graph = discounts('first', { passThrough: true, outputPath: 'pricing' });
  assert.deepEqual(await answer(graph, { customer: { tier: 'gold' }, total: 150 }), {
    customer: { tier: 'gold' },
    total: 150,
    pricing: { discount: 0.2, reason: { code: 'gold-big' } },
  });
  const picked = chain({ type: 'decisionTableNode', name: 'T', content: tableContent('first', ['age'], ['adult'], [['>= 18', 'true'], ['', 'false']], { inputField: 'person' }) });
  assert.deepEqual(await answer(picked, { person: { age: 20 } }), { adult: true });
});

test('executionMode loop runs the table once per element of the input field, passThrough per element', async () => {
  const graph = chain({
    type: 'decisionTableNode',
    name: 'Lines',
    content: tableContent('first', ['qty'], ['bulk'], [['>= 10', 'true'], ['', 'false']], {
      inputField: 'lines',
      executionMode: 'loop',
      outputPath: 'lines',
      passThrough: true,
    }),
  });
  assert.deepEqual(await answer(graph, { order: 7, lines: [{ qty: 12 }, { qty: 1 }] }), {
    order: 7,
    lines: [
      { qty: 12, bulk: true },
      { qty: 1, bulk: false },
    ],
  });
  await assert.rejects(solve(compileGraph(graph), { lines: 'no' }, { now: ZEN_NOW }), /node "Lines" \(decisionTableNode\): Expected an array/);
});

test('the trace names each node in execution order, with the matched row and the values it read', async () => {
  const solved = await solve(compileGraph(discounts('first')), { customer: { tier: 'gold' }, total: 150 }, { now: ZEN_NOW, trace: true });
  const trace = solved.trace as { name: string; type: string; input: unknown; output: unknown; traceData?: unknown }[];
  assert.deepEqual(trace.map((t) => [t.name, t.type]), [
    ['Request', 'inputNode'],
    ['Discounts', 'decisionTableNode'],
    ['Response', 'outputNode'],
  ]);
  assert.equal(trace[0].input, null);
  assert.deepEqual(trace[1].output, { discount: 0.2, reason: { code: 'gold-big' } });
  assert.deepEqual(trace[1].traceData, {
    index: 0,
    referenceMap: { 'customer.tier': 'gold', total: 150 },
    rule: { _id: 'row0', 'customer.tier[in0]': "'gold'", 'total[in1]': '>= 100' },
  });
  assert.equal(trace[2].output, null);
});

test('the plain predicates of common cells answer as the ZEN unary tests they stand for', async () => {
  const { fastUnaryCell } = await import('../../src/engine/graph/nodes/table-cells.ts');
  const { compileZenUnary } = await import('../../src/engine/zen/index.ts');
  const cells = ["'GB'", '"GB"', "'GB', 'US'", '10', '-2.5', '10, 20', 'true', 'false', '< 5', '<= 5', '> 5', '>= 5', '[1..5]', '(1..5)', '[1..5)', '(1..5]', '[-3..0.5]'];
  const values = ['GB', 'US', 'gb', 10, 20, '10', -2.5, 0, 1, 3, 5, 6, true, false, null, [1], { a: 1 }];
  let compared = 0;
  for (const cell of cells) {
    const fast = fastUnaryCell(cell);
    assert.ok(fast, `${cell} has a plain predicate`);
    const zen = compileZenUnary(cell);
    for (const value of values) {
      let expected: unknown;
      try {
        expected = zen.evaluate({ $: value }, { now: ZEN_NOW }) === true;
      } catch {
        expected = false;
      }
      assert.equal(fast.test(value), expected, `${cell} with ${JSON.stringify(value)}`);
      compared++;
    }
  }
  assert.equal(compared, cells.length * values.length);
  for (const other of ["startsWith($, 'G')", "'a\\'b'", '$ > 1', 'null', "'GB', x"]) assert.equal(fastUnaryCell(other), undefined, other);
});
