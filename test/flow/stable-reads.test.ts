// Paths that cannot change during a solve are read once per untraced solve (FlowPath.stable in flow-scope.ts for
// decision flows run as a chain, Mapping.stable in composition.ts for rule flows), and a rule flow's one end node is
// built from templates when every value is there. Differential tests: random flows whose nodes read the same paths
// of the input and of rule outputs, before and after the rule node ran, next to paths that do change (free
// variables, Variables nodes, a rule-flow node named `start`), with rules that answer at once or later while the
// caller changes the input: the untraced solve answers exactly as the traced one, which reads every path each time.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solveNow } from '../../src/engine/index.ts';
import type { CompiledRule, Json, SolveResult } from '../../src/engine/types.ts';
import { any, intBetween, lit, pick, seededRandom } from '../../bench/lib/table-spec.ts';
import type { TableSpec } from '../../bench/lib/table-spec.ts';
import { toVerdictTable } from '../../bench/lib/to-verdict.ts';
import { MapResolver, fakeRule } from './helpers.ts';
import { assign, businessRule, declare, workflow } from './workflow-builder.ts';
import type { NodeSpec } from './workflow-builder.ts';

/** A constant table (column values, shared first-match rows): reads `n` and `s`, answers `x` and `y.z`. */
function table(alias: string): CompiledRule {
  const rows = [
    { when: [{ op: 'ge', value: 15 }, any()], then: [lit(`${alias}-high`), lit('deep')] },
    { when: [{ op: 'between', lo: 5, hi: 9 }, any()], then: [lit(7), lit('mid')] },
    { when: [{ op: 'le', value: 2 }, { op: 'eq', value: 'b' }], then: [lit(3), lit(-1)] },
    { when: [any(), any()], then: [lit(1), lit(alias)] },
  ];
  const spec: TableSpec = { name: alias, hitPolicy: 'first', inputs: [{ field: 'n' }, { field: 's' }], outputs: [{ field: 'x' }, { field: 'y.z' }], rows: rows as TableSpec['rows'] };
  return compileRule(toVerdictTable(spec, { ruleId: alias, ruleAlias: alias }));
}

/** A rule that answers later (a promise), from its input's `n`. */
const later = fakeRule({ alias: 'later' }, (input: { n?: unknown }) => {
  const n = typeof input.n === 'number' ? input.n : 0;
  return Promise.resolve([{ x: n + 1, y: { z: [n, 'later'] } }] as Json[]);
});

const resolver = new MapResolver().add(table('t1'), table('t2'), later);

function randomInput(random: () => number): Record<string, unknown> {
  return { n: intBetween(random, 0, 20), s: pick(random, ['a', 'b']), deep: { n: intBetween(random, 0, 20), list: [intBetween(random, 0, 9)] } };
}

let waits = 0;

/** Solves untraced or traced; while the solve waits, the caller changes its input (the same way both times). */
async function outcome(flow: CompiledRule, input: Record<string, unknown>, trace: boolean): Promise<unknown> {
  try {
    let answer: SolveResult | Promise<SolveResult> = solveNow(flow, input, { resolver, trace, now: 0 });
    if (answer instanceof Promise) {
      waits++;
      input.n = 11;
      (input.deep as Record<string, unknown>).n = 17;
      input.s = 'b';
      answer = await answer;
    }
    return answer.result;
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function randomDecisionFlow(random: () => number): Record<string, unknown> {
  const count = intBetween(random, 2, 7);
  // Names are fixed up front, so that a node may read a rule node that runs later (not yet run: missing).
  const kinds = Array.from({ length: count }, () => pick(random, ['rule', 'rule', 'rule', 'assign', 'assign', 'declare']));
  const ruleNames = kinds.flatMap((kind, i) => (kind === 'rule' ? [`n${i}`] : []));
  const declared = kinds.flatMap((kind, i) => (kind === 'declare' ? [`n${i}`] : []));
  const path = (): string => {
    const rule = ruleNames.length > 0 ? pick(random, ruleNames) : 'input';
    const vars = declared.length > 0 ? pick(random, declared) : 'free';
    return pick(random, ['input.n', 'input.s', 'input.deep.n', 'input.deep.list[0]', 'input.deep', `${rule}.output.x`, `${rule}.output.y.z`, `${rule}.output`, 'free.v', 'free.v.n', `${vars}.a.n`]);
  };
  const nodes: NodeSpec[] = [{ id: 'start', type: 'START' }];
  const edges: [string, string][] = [];
  let previous = 'start-out';
  kinds.forEach((kind, i) => {
    const id = `n${i}`;
    if (kind === 'rule') {
      nodes.push({ id, type: 'BUSINESS_RULE', name: id, data: businessRule(pick(random, ['t1', 't2', 't2', 'later']), [['n', path()], ['s', path()]], { strategy: 'FIRST_MATCH' }) });
    } else if (kind === 'declare') {
      nodes.push({ id, type: 'VARIABLES', name: id, data: declare(['a', `{${pick(random, ['input.deep', 'free.v', 'input'])}}`]) });
    } else {
      const targets = ['output.a', 'output.b.c', 'output.b.d', 'free.v', 'free.v.n', ...declared.map((name) => `${name}.a.n`)];
      const pairs = Array.from({ length: intBetween(random, 1, 4) }, () => [pick(random, targets), `{${path()}}`] as [string, string]);
      nodes.push({ id, type: 'DATA_MANIPULATION', name: id, data: assign(...pairs) });
    }
    edges.push([previous, id]);
    previous = kind === 'rule' ? `${id}-end` : `${id}-out`;
  });
  nodes.push({ id: 'end', type: 'END' });
  edges.push([previous, 'end']);
  return workflow(nodes, edges);
}

/** Rule flow nodes in a line from the root; `start` may be the name of a rule node (then it shares the input's slot). */
function randomRuleFlow(random: () => number): Record<string, unknown> {
  const count = intBetween(random, 1, 5);
  const rootName = random() < 0.3 ? 'root' : 'start';
  const names = Array.from({ length: count }, (_, i) => (rootName === 'root' && i === 1 ? 'start' : `r${i}`));
  const mapping = (i: number, keys: readonly string[]) =>
    Array.from({ length: intBetween(random, 1, 5) }, () => {
      // `start` is the input, or the rule node of that name once it ran.
      const source = pick(random, [rootName, ...(names.includes('start') ? ['start', 'start'] : []), ...names.slice(0, i)]);
      return { key: pick(random, keys), source, sourceVariable: pick(random, ['n', 's', 'deep.n', 'deep.list[0]', 'deep', 'x', 'y.z', 'y', '']) };
    });
  let child: Record<string, unknown> = {
    globalVariable: 'end',
    mapping: mapping(count, ['a', 'a', 'b.c', 'b.d', 'e', 'e.f', 'list[0]', '__proto__']),
    children: [null],
  };
  for (let i = count - 1; i >= 0; i--) {
    child = { baseId: pick(random, ['t1', 't2', 't2', 'later']), globalVariable: names[i], mapping: mapping(i, ['n', 's']), children: [child] };
  }
  return { type: 'composition', name: 'Stable reads', status: 'published', inputSchema: {}, outputSchema: {}, dataTree: { globalVariable: rootName, mapping: [], children: [child] } };
}

/** 300 random flows, 5 inputs each: untraced and traced give the same values, with the same keys in the same order. */
async function untracedAgrees(seed: number, randomFlow: (random: () => number) => Record<string, unknown>): Promise<void> {
  const random = seededRandom(seed);
  waits = 0;
  for (let f = 0; f < 300; f++) {
    const flow = compileRule(randomFlow(random));
    for (let k = 0; k < 5; k++) {
      const input = randomInput(random);
      const fast = await outcome(flow, structuredClone(input), false);
      const traced = await outcome(flow, structuredClone(input), true);
      assert.deepStrictEqual(fast, traced, JSON.stringify({ flow, input }));
      assert.equal(JSON.stringify(fast), JSON.stringify(traced));
    }
  }
  assert.ok(waits > 400, `solves that waited: ${waits}`);
}

describe('stable reads and built rule-flow outputs (differential)', () => {
  test('decision flows run as a chain: untraced (stable paths read once) and traced agree', async () => {
    await untracedAgrees(4242, randomDecisionFlow);
  });

  test('rule flows: untraced (stable paths read once, the end node built from templates) and traced agree', async () => {
    await untracedAgrees(2626, randomRuleFlow);
  });
});
