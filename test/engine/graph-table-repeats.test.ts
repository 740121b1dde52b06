// Decision tables whose unary cells repeat down a column (zen's 8k table: one `endsWith(...)` in 7,989 rows): a
// solve runs each repeated cell once and reuses its answer in the other rows. The answers must be those of running
// every cell, which zen-engine gives: checked on inputs that pass and fail the repeated cell in different rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ZenEngine } from '@gorules/zen-engine';
import { solve } from '../../src/engine/index.ts';
import { ZEN_NOW, chain, compileGraph, tableContent } from './graph-helpers.ts';

const ROWS = 40;

/** Rows alternate two repeated email cells; the score column makes each row matchable by one input only. */
function repeatsGraph(hitPolicy: 'first' | 'collect') {
  const rows = Array.from({ length: ROWS }, (_, i) => [
    i % 2 === 0 ? "endsWith($, '@gmail.com')" : "not(endsWith($, '@gmail.com'))",
    `[${i * 10}..${i * 10 + 9}]`,
    i % 3 === 0 ? "contains($, 'x')" : '',
    `${i}`,
  ]);
  rows.push(['', '', '', '-1']);
  return chain({ type: 'decisionTableNode', name: 'Rows', content: tableContent(hitPolicy, ['email', 'score', 'name'], ['row'], rows) });
}

const inputs = [
  { email: 'a@gmail.com', score: 0, name: 'x' },
  { email: 'a@gmail.com', score: 15, name: 'y' },
  { email: 'b@example.com', score: 15, name: 'y' },
  { email: 'b@example.com', score: 395, name: 'x' },
  { email: 'a@gmail.com', score: 300, name: 'ax' },
  { email: 'a@gmail.com', score: 300, name: 'a' },
  { email: 42, score: 20, name: 'x' },
  { score: 20 },
];

test('repeated unary cells answer as when each row runs them, with first and collect hit policies', async (t) => {
  const zen = new ZenEngine();
  t.after(() => zen.dispose());
  for (const hitPolicy of ['first', 'collect'] as const) {
    const graph = repeatsGraph(hitPolicy);
    const compiled = compileGraph(graph);
    const decision = zen.createDecision(graph as object);
    for (const input of inputs) {
      const { result } = await solve(compiled, input, { now: ZEN_NOW });
      assert.deepEqual(result, [(await decision.evaluate(input)).result], `${hitPolicy} ${JSON.stringify(input)}`);
    }
  }
  const first = compileGraph(repeatsGraph('first'));
  assert.deepEqual((await solve(first, inputs[1], { now: ZEN_NOW })).result, [{ row: -1 }], 'score 15 is row 1, which wants a non-gmail address');
  assert.deepEqual((await solve(first, inputs[2], { now: ZEN_NOW })).result, [{ row: 1 }]);
  assert.deepEqual((await solve(first, inputs[4], { now: ZEN_NOW })).result, [{ row: 30 }], 'row 30 repeats the email and name cells of row 0');
});
