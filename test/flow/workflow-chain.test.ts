// Decision flows made only of START, rule, Assign and Variables nodes run untraced as one chain (workflow.ts
// chainOf) instead of the region walk. Differential test: random such flows, with rules that answer at once, answer
// with a promise, find nothing or fail, and nodes left unconnected; the untraced solve (the chain) gives the same
// answer, or the same node-named error, as the traced one (the region walk).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solve } from '../../src/engine/index.ts';
import { RuleError } from '../../src/engine/errors.ts';
import type { CompiledRule, EvaluationContext, Json, SolveResult } from '../../src/engine/types.ts';
import { any, intBetween, lit, pick, seededRandom } from '../../bench/lib/table-spec.ts';
import type { TableSpec } from '../../bench/lib/table-spec.ts';
import { toVerdictTable } from '../../bench/lib/to-verdict.ts';
import { MapResolver, fakeRule } from './helpers.ts';
import { FlowLayout, FlowScope } from '../../src/engine/flow/flow-scope.ts';
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

/** A constant table (columnInput, and under FIRST_MATCH its shared rows): reads `n` and `s`, answers x and y.z. */
function table(alias: string): CompiledRule {
  const rows = [
    { when: [{ op: 'ge', value: 15 }, any()], then: [lit(`${alias}-high`), lit('deep')] },
    { when: [{ op: 'between', lo: 5, hi: 9 }, any()], then: [lit('twelve'), lit('text')] },
    { when: [{ op: 'le', value: 2 }, { op: 'eq', value: 'b' }], then: [lit(3), lit(-1)] },
    { when: [{ op: 'eq', value: 11 }, any()], then: [lit(false), lit(0)] },
  ];
  const spec: TableSpec = { name: alias, hitPolicy: 'first', inputs: [{ field: 'n' }, { field: 's' }], outputs: [{ field: 'x' }, { field: 'y.z' }], rows: rows as TableSpec['rows'] };
  return compileRule(toVerdictTable(spec, { ruleId: alias, ruleAlias: alias }));
}

function randomTableFlow(random: () => number): Record<string, unknown> {
  const nodes: NodeSpec[] = [{ id: 'start', type: 'START' }];
  const edges: [string, string][] = [];
  const names: string[] = [];
  let previous = 'start-out';
  const count = intBetween(random, 1, 6);
  const targets = ['output.a', 'output.b.c', 'output.b.d', 'output.b', 'output.e', 'output.b.c.f', 'free.v', 'output.__proto__'];
  for (let i = 0; i < count; i++) {
    const id = `n${i}`;
    if (names.length === 0 || random() < 0.45) {
      const from = names.length > 0 && random() < 0.5 ? `${pick(random, names)}.output` : 'input';
      nodes.push({ id, type: 'BUSINESS_RULE', name: id, data: businessRule(pick(random, ['t1', 't2']), [['n', `${from}.n`], ['s', random() < 0.5 ? 'input.s' : `${from}.x`]], { strategy: pick(random, ['FIRST_MATCH', 'FIRST_MATCH', 'FIRST_MATCH', 'STANDARD']) }) });
      names.push(id);
    } else {
      const read = () => {
        const name = pick(random, names);
        return pick(random, [`{${name}.output.x}`, `{${name}.output.y}`, `{${name}}`, `{${name}.currentItem.x}`, `{${name}.index}`, '{input.s}', '{input.n}', '{missing.x}', '{free.v}', '{output.a}', '{input.n} + 1', '{output}']);
      };
      const pairs = Array.from({ length: intBetween(random, 1, 4) }, () => [pick(random, targets), read()] as [string, string]);
      nodes.push({ id, type: 'DATA_MANIPULATION', name: id, data: assign(...pairs) });
    }
    if (random() < 0.9) edges.push([previous, id]);
    previous = nodes.at(-1)!.type === 'BUSINESS_RULE' ? `${id}-end` : `${id}-out`;
  }
  nodes.push({ id: 'end', type: 'END' });
  edges.push([previous, 'end']);
  return workflow(nodes, edges);
}

/** Changes every object and array of an answer in place (a caller owns its answer). */
function scribble(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    scribble(inner);
    (value as Record<string, unknown>)[key] = 'scribbled';
  }
  if (Array.isArray(value)) value.push('scribbled');
  else (value as Record<string, unknown>).added = 'scribbled';
}

describe('decision flow chains over constant tables (differential)', () => {
  test('slots, lone rule objects, references read by slot and built outputs answer as the traced walk, and answers share nothing', async () => {
    const random = seededRandom(5150);
    const resolver = new MapResolver().add(table('t1'), table('t2'));
    let built = 0;
    for (let f = 0; f < 300; f++) {
      const doc = randomTableFlow(random);
      const flow = compileRule(doc);
      for (let k = 0; k < 5; k++) {
        const input = { n: intBetween(random, 0, 20), s: pick(random, ['a', 'b', '7', 'true']) };
        const chained = await outcome(flow, input, resolver, false);
        const walked = await outcome(flow, input, resolver, true);
        // As JSON text: key order too (objects built at once must keep the order of writes one by one).
        assert.equal(JSON.stringify(chained), JSON.stringify(walked), JSON.stringify({ doc, input }));
        scribble(chained);
        assert.deepEqual(await outcome(flow, input, resolver, false), walked, `solved again after the answer was changed: ${JSON.stringify({ doc, input })}`);
        if (Array.isArray(walked) && Object.keys(walked[0] as object).length > 1) built++;
      }
    }
    assert.ok(built > 200, `answers with several output keys: ${built}`);
  });
});

describe('the flow variables by slot (flow-scope.ts FlowLayout)', () => {
  test('a read of the whole scope lists the names in the order they were first written, not the order of their slots', async () => {
    const echo = fakeRule({ alias: 'echo' }, (input: { all: unknown }) => [{ keys: Object.keys(input.all as object) }]);
    const resolver = new MapResolver().add(echo);
    // Listed in another order than they run: slots are given in document order, writes happen in run order.
    const doc = workflow([
      { id: 'start', type: 'START' },
      { id: 'whole2', type: 'BUSINESS_RULE', name: 'whole2', data: businessRule('echo', [['all', '{}']], { strategy: 'FIRST_MATCH' }) },
      { id: 'whole1', type: 'BUSINESS_RULE', name: 'whole1', data: businessRule('echo', [['all', '{}']], { strategy: 'FIRST_MATCH' }) },
      { id: 'late', type: 'DATA_MANIPULATION', name: 'late', data: assign(['later.x', '{input.n}']) },
      { id: 'early', type: 'DATA_MANIPULATION', name: 'early', data: assign(['earlier.x', '{input.n}'], ['output.k', '1']) },
      { id: 'shape', type: 'DATA_MANIPULATION', name: 'shape', data: assign(['output.first', '{whole1.output.keys}'], ['output.second', '{whole2.output.keys}']) },
      { id: 'end', type: 'END' },
    ], [['start-out', 'early'], ['early-out', 'late'], ['late-out', 'whole1'], ['whole1-end', 'whole2'], ['whole2-end', 'shape'], ['shape-out', 'end']]);
    for (const trace of [false, true]) {
      const { result } = await solve(compileRule(doc), { n: 3 }, { resolver, trace });
      assert.deepEqual(result, [{ k: 1, first: ['input', 'output', 'earlier', 'later'], second: ['input', 'output', 'earlier', 'later', 'whole1'] }]);
    }
  });

  test('a read below a rule node\'s `output` (FlowPath.ruleOutput) gives what the checked read gives, for every state of its object', () => {
    const random = seededRandom(61);
    const states = (): unknown[] => [
      undefined,
      { output: null, length: 0 },
      { output: { a: 1, b: { c: 'x' } }, length: 1, currentItem: { a: 1 }, index: 0 },
      { output: [{ a: 2 }, { a: 3 }], length: 2, currentItem: { a: 3 }, index: 1 },
      { output: { a: null, b: [1, { c: 2 }], __proto__x: 1 } },
      { output: 'text' },
    ];
    const paths = ['r.output', 'r.output.a', 'r.output.b.c', 'r.output[0].a', 'r.output.b[1].c', 'r.output.length', 'r.output.constructor', 'r.output.toString', 'r.output.__proto__', 'r.length', 'r.currentItem.a'];
    const fast = new FlowLayout(new Set(['r']));
    const checked = new FlowLayout();
    const fastPaths = paths.map((path) => fast.path(path));
    const checkedPaths = paths.map((path) => checked.path(path));
    assert.ok(fastPaths.some((path) => path.ruleOutput) && !checkedPaths.some((path) => path.ruleOutput));
    for (let round = 0; round < 50; round++) {
      const state = pick(random, states());
      const a = new FlowScope(fast, {});
      const b = new FlowScope(checked, {});
      if (state !== undefined) {
        a.set(fast.slotOf('r'), state);
        b.set(checked.slotOf('r'), state);
      }
      for (let i = 0; i < paths.length; i++) assert.deepEqual(a.read(fastPaths[i]!), b.read(checkedPaths[i]!), `${paths[i]} of ${JSON.stringify(state)}`);
    }
  });

  test('only a named rule node alone with its name is read without the check; the others stay checked under a polluted Object.prototype', async () => {
    const echo = fakeRule({ alias: 'echo' }, (input: { n?: Json }) => [{ v: input.n ?? 'none' }]);
    const resolver = new MapResolver().add(echo);
    const doc = workflow([
      { id: 'start', type: 'START' },
      // Keyed by its id: Assign targets are not checked against ids, so `anon` may be written before it runs.
      { id: 'anon', type: 'DATA_MANIPULATION', name: 'pre', data: assign(['anonRule.x', '1']) },
      { id: 'anonRule', type: 'BUSINESS_RULE', data: businessRule('echo', [['n', 'input.n']], { strategy: 'FIRST_MATCH' }) },
      { id: 'named', type: 'BUSINESS_RULE', name: 'named', data: businessRule('echo', [['n', 'input.n']], { strategy: 'FIRST_MATCH' }) },
      { id: 'vars', type: 'VARIABLES', name: 'vars', data: declare(['k', '2']) },
      // An unnamed Variables node keyed by the name of a rule node that runs later: that name keeps the check.
      { id: 'twin', type: 'VARIABLES', data: declare(['k', '3']) },
      {
        id: 'shape', type: 'DATA_MANIPULATION', name: 'shape',
        data: assign(['output.named', '{named.output.v}'], ['output.vars', '{vars.output}'], ['output.before', '{late.output}'], ['output.anon', '{anonRule.output.v}'], ['output.twin', '{twin.output}']),
      },
      { id: 'late', type: 'BUSINESS_RULE', name: 'late', data: businessRule('echo', [], { strategy: 'FIRST_MATCH' }) },
      { id: 'twinRule', type: 'BUSINESS_RULE', name: 'twin', data: businessRule('echo', [], { strategy: 'FIRST_MATCH' }) },
      { id: 'end', type: 'END' },
    ], [['start-out', 'anon'], ['anon-out', 'anonRule'], ['anonRule-end', 'named'], ['named-end', 'vars'], ['vars-out', 'twin'], ['twin-out', 'shape'], ['shape-out', 'late'], ['late-end', 'twinRule'], ['twinRule-end', 'end']]);
    const compiled = compileRule(doc);
    const proto = Object.prototype as Record<string, unknown>;
    proto.output = 'polluted';
    try {
      for (const trace of [false, true]) {
        const { result } = await solve(compiled, { n: 3 }, { resolver, trace });
        assert.deepEqual(result, [{ named: 3, vars: null, before: null, anon: 3, twin: null }], `trace ${trace}`);
      }
    } finally {
      delete proto.output;
    }
  });
});
