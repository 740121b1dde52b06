// Decision flows made only of START, rule, Assign and Variables nodes run untraced as one chain (workflow.ts
// chainOf) instead of the region walk. Differential test: random such flows, with rules that answer at once, answer
// with a promise, find nothing or fail, and nodes left unconnected; the untraced solve (the chain) gives the same
// answer, or the same node-named error, as the traced one (the region walk).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solve } from '../../src/engine/index.ts';
import { RuleError } from '../../src/engine/errors.ts';
import type { CompiledRule, EvaluationContext, Json, SolveResult } from '../../src/engine/types.ts';
import { intBetween, pick, seededRandom } from '../../bench/lib/table-spec.ts';
import { MapResolver } from './helpers.ts';
import { assign, businessRule, declare, workflow } from './workflow-builder.ts';
import type { NodeSpec } from './workflow-builder.ts';

/** A rule answering from its input's `n`: a list of one to three results, none, or an error, at once or later. */
function rule(alias: string, waits: boolean): CompiledRule {
  const answer = (input: unknown, ctx: EvaluationContext): Json[] => {
    const n = typeof (input as { n?: unknown })?.n === 'number' ? (input as { n: number }).n : 0;
    if (n % 7 === 6) throw new RuleError(`${alias} refuses ${n}`);
    if (n % 5 === 4) return [];
    const count = ctx.strategy === 'FIRST_MATCH' ? 1 : 1 + (n % 3);
    return Array.from({ length: count }, (_, i) => ({ n: n + i + 1, from: alias, list: [n, { i }] }));
  };
  return {
    type: 'decision-table', ruleId: alias, ruleAlias: alias, version: 1, name: alias, async: waits, dependencies: [],
    evaluate: (input, ctx): SolveResult | Promise<SolveResult> => {
      if (!waits) return { result: answer(input, ctx) };
      return Promise.resolve().then(() => ({ result: answer(input, ctx) }));
    },
  };
}

function randomFlow(random: () => number): Record<string, unknown> {
  const nodes: NodeSpec[] = [{ id: 'start', type: 'START' }];
  const edges: [string, string][] = [];
  const names: string[] = [];
  let previous = 'start-out';
  const count = intBetween(random, 1, 6);
  for (let i = 0; i < count; i++) {
    const id = `n${i}`;
    const source = names.length > 0 && random() < 0.6 ? `${pick(random, names)}.output.n` : 'input.n';
    const kind = intBetween(random, 0, 5);
    if (kind <= 2) {
      const alias = pick(random, ['now', 'later']);
      nodes.push({ id, type: 'BUSINESS_RULE', name: id, data: businessRule(alias, [['n', source]], { strategy: pick(random, ['FIRST_MATCH', 'STANDARD', 'ARRAY']) }) });
      names.push(id);
    } else if (kind === 3) {
      nodes.push({ id, type: 'VARIABLES', name: id, data: declare(['a', names.length > 0 ? `{${pick(random, names)}}` : '{input}'], ['b', '{input.n} + 1']) });
    } else {
      const read = names.length > 0 ? pick(random, names) : 'input';
      nodes.push({ id, type: 'DATA_MANIPULATION', name: id, data: assign([`output.x${i}`, `{${read}}`], [`output.y.z${i}`, `{${read}.output.n}`], ['free.v', `{input.n}`]) });
    }
    // Most nodes follow the previous one; some hang off START, and a few are left unconnected (they never run).
    const link = random();
    if (link < 0.75) edges.push([previous, id]);
    else if (link < 0.9) edges.push(['start-out', id]);
    previous = nodes.at(-1)!.type === 'BUSINESS_RULE' ? `${id}-end` : `${id}-out`;
  }
  nodes.push({ id: 'end', type: 'END' });
  edges.push([previous, 'end']);
  return workflow(nodes, edges);
}

async function outcome(flow: CompiledRule, input: unknown, resolver: MapResolver, trace: boolean): Promise<unknown> {
  try {
    return (await solve(flow, input, { resolver, trace })).result;
  } catch (error) {
    return { error: (error as Error).message, where: (error as RuleError).where };
  }
}

describe('decision flows run as a chain (differential)', () => {
  test('random chains of rule, Assign and Variables nodes: untraced (chain) and traced (region walk) agree', async () => {
    const random = seededRandom(515);
    const resolver = new MapResolver().add(rule('now', false), rule('later', true));
    let errors = 0;
    for (let f = 0; f < 200; f++) {
      const flow = compileRule(randomFlow(random));
      for (let k = 0; k < 6; k++) {
        const input = { n: intBetween(random, 0, 20) };
        const chained = await outcome(flow, input, resolver, false);
        const walked = await outcome(flow, input, resolver, true);
        assert.deepEqual(chained, walked, JSON.stringify({ flow, input }));
        if (typeof chained === 'object' && chained !== null && 'error' in chained) errors++;
      }
    }
    assert.ok(errors > 20, `node errors compared: ${errors}`);
  });
});
