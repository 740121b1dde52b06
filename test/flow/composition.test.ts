// Rule flows (`composition`): the loan worked example of spec §8.1 rebuilt as the project's fixtures, plus the
// rules of the format (FIRST_MATCH inside, latest versions, nodes with two parents, empty outputs, limits).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solve } from '../../src/engine/index.ts';
import { RuleError, TimeoutError, ValidationError } from '../../src/engine/errors.ts';
import { MAX_RULE_FLOW_NODES } from '../../src/engine/flow/composition.ts';
import type { CompiledRule } from '../../src/engine/types.ts';
import { MapResolver, fakeRule, fixtureResolver, ruleByAlias } from './helpers.ts';

const LOAN_INPUT = { age: 30, salary: 4000, loanType: 'household', loan: 30000 };

function composition(dataTree: unknown, extra: Record<string, unknown> = {}): CompiledRule {
  return compileRule({ type: 'composition', name: 'Flow', status: 'published', inputSchema: {}, outputSchema: {}, dataTree, ...extra });
}

function m(key: string, source: string, sourceVariable: string) {
  return { key, source, sourceVariable };
}

describe('rule flow: the loan example', () => {
  const resolver = fixtureResolver('loan');
  const flow = ruleByAlias(resolver, 'loan-flow');

  test('gives the documented response', async () => {
    const solved = await solve(flow, LOAN_INPUT, { resolver });
    assert.deepEqual(solved.result, [{ loan: 30000, tax: 1.15, totalPay: 34500, message: 'eligible for the loan' }]);
  });

  test('the trace lists each node once with its input and output; the node with two parents runs after both', async () => {
    const solved = await solve(flow, LOAN_INPUT, { resolver, trace: true });
    assert.deepEqual(solved.trace, [
      { globalVariable: 'clients', input: { client: { age: 30, salary: 4000 } }, output: { client: { Hazard: 1, maxLoan: 240000, trustworthy: true } } },
      { globalVariable: 'loanType', input: { loanType: 'household', loan: 30000 }, output: { tax: 1.15, maxLoan: 100000 } },
      {
        globalVariable: 'bank',
        input: { loan: 30000, maxClientLoan: 240000, tax: 1.15, salary: 4000 },
        output: { totalPay: 34500, message: 'eligible for the loan' },
      },
      {
        globalVariable: 'end',
        input: { loan: 30000, tax: 1.15, totalPay: 34500, message: 'eligible for the loan' },
        output: { loan: 30000, tax: 1.15, totalPay: 34500, message: 'eligible for the loan' },
      },
    ]);
  });

  test('tables inside are solved FIRST_MATCH whatever strategy the flow is solved with', async () => {
    // 20000 matches both household rows of the loan-type table (< 30000 and < 100000): only the first may count.
    const input = { ...LOAN_INPUT, loan: 20000 };
    const expected = { loan: 20000, tax: 1.1, totalPay: 22000, message: 'eligible for the loan' };
    assert.deepEqual((await solve(flow, input, { resolver })).result, [expected]);
    assert.deepEqual((await solve(flow, input, { resolver, strategy: 'EVALUATE_ALL' })).result, [expected]);
    assert.deepEqual((await solve(flow, input, { resolver, strategy: 'ARRAY' })).result, [
      { loan: [20000], tax: [1.1], totalPay: [22000], message: ['eligible for the loan'] },
    ]);
  });

  test('version -1 and a missing version ask for the latest; a number asks for that version', async () => {
    const lookups = new MapResolver().add(...resolver.rules);
    await solve(flow, LOAN_INPUT, { resolver: lookups });
    const ids = (alias: string) => ruleByAlias(resolver, alias).ruleId;
    assert.deepEqual(lookups.lookups, [`${ids('loan-clients')}@1`, `${ids('loan-type')}@latest`, `${ids('bank-solver')}@latest`]);
    assert.deepEqual(flow.dependencies, [
      { idOrAlias: ids('loan-clients'), version: 1 },
      { idOrAlias: ids('bank-solver') },
      { idOrAlias: ids('loan-type') },
    ]);
  });
});

describe('rule flow semantics', () => {
  test('decision tables get FIRST_MATCH, other rule types STANDARD', async () => {
    const table = fakeRule({ alias: 'table', type: 'decision-table' }, () => [{ a: 1 }]);
    const script = fakeRule({ alias: 'script', type: 'complex-rule' }, () => [{ b: 2 }]);
    const flow = composition({
      globalVariable: 'start',
      children: [
        {
          globalVariable: 'first',
          baseId: 'table',
          mapping: [],
          children: [{ globalVariable: 'second', baseId: 'script', mapping: [m('a', 'first', 'a')], children: [{ globalVariable: 'end', mapping: [m('b', 'second', 'b')], children: [null] }] }],
        },
      ],
    });
    assert.deepEqual((await solve(flow, {}, { resolver: new MapResolver().add(table, script), strategy: 'ARRAY' })).result, [{ b: [2] }]);
    assert.deepEqual(table.calls, [{ input: {}, strategy: 'FIRST_MATCH' }]);
    assert.deepEqual(script.calls, [{ input: { a: 1 }, strategy: 'STANDARD' }]);
  });

  test('a node whose rule matched nothing has output {}; mappings from it stay missing', async () => {
    const empty = fakeRule({ alias: 'empty' }, () => []);
    const flow = composition({
      globalVariable: 'start',
      children: [
        {
          globalVariable: 'lookup',
          baseId: 'empty',
          children: [{ globalVariable: 'end', mapping: [m('found', 'lookup', 'value'), m('whole', 'lookup', ''), m('echo', 'start', 'x')] }],
        },
      ],
    });
    assert.deepEqual((await solve(flow, { x: 5 }, { resolver: new MapResolver().add(empty) })).result, [{ whole: {}, echo: 5 }]);
  });

  test('mappings may read any earlier node, which orders the nodes', async () => {
    const double = fakeRule({ alias: 'double' }, (input: { n: number }) => [{ n: input.n * 2 }]);
    const add = fakeRule({ alias: 'add' }, (input: { a: number; b: number }) => [{ sum: input.a + input.b }]);
    // `sum` is listed before `twice` in the tree but reads it, so it must run second.
    const flow = composition({
      globalVariable: 'start',
      children: [
        { globalVariable: 'sum', baseId: 'add', mapping: [m('a', 'twice', 'n'), m('b', 'start', 'n')], children: [{ globalVariable: 'end', mapping: [m('result', 'sum', 'sum')] }] },
        { globalVariable: 'twice', baseId: 'double', mapping: [m('n', 'start', 'n')], children: [] },
      ],
    });
    assert.deepEqual((await solve(flow, { n: 5 }, { resolver: new MapResolver().add(double, add) })).result, [{ result: 15 }]);
  });

  test('a missing rule fails the solve naming the node', async () => {
    const flow = composition({ globalVariable: 'start', children: [{ globalVariable: 'Rule_1', baseId: 'nowhere', version: 2, children: [{ globalVariable: 'end', mapping: [] }] }] });
    await assert.rejects(solve(flow, {}, { resolver: new MapResolver() }), (error: unknown) => {
      assert.ok(error instanceof RuleError);
      assert.equal(error.message, 'rule flow node "Rule_1": rule "nowhere" version 2 was not found');
      return true;
    });
  });

  test('a rule error inside a node names the node', async () => {
    const failing = fakeRule({ alias: 'failing' }, () => {
      throw new RuleError('division by zero', 'row 3');
    });
    const flow = composition({ globalVariable: 'start', children: [{ globalVariable: 'calc', baseId: 'failing', children: [{ globalVariable: 'end', mapping: [] }] }] });
    await assert.rejects(solve(flow, {}, { resolver: new MapResolver().add(failing) }), { name: 'RuleError', message: 'rule flow node "calc": row 3: division by zero' });
  });

  test('a passed deadline stops the flow before the next node', async () => {
    const rule = fakeRule({ alias: 'r' }, () => [{}]);
    const flow = composition({ globalVariable: 'start', children: [{ globalVariable: 'a', baseId: 'r', children: [{ globalVariable: 'end', mapping: [] }] }] });
    await assert.rejects(solve(flow, {}, { resolver: new MapResolver().add(rule), deadline: Date.now() - 1, timeoutMs: 5000 }), TimeoutError);
    assert.equal(rule.calls.length, 0);
  });

  test('mapping cycles and oversized flows are refused when compiled', () => {
    assert.throws(
      () =>
        composition({
          globalVariable: 'start',
          children: [
            { globalVariable: 'a', baseId: 'x', mapping: [m('v', 'b', 'v')], children: [{ globalVariable: 'b', baseId: 'y', mapping: [m('v', 'a', 'v')], children: [{ globalVariable: 'end', mapping: [] }] }] },
          ],
        }),
      (error: unknown) => error instanceof ValidationError && /cycle \("a", "b"\)/.test(error.message),
    );
    const many = Array.from({ length: MAX_RULE_FLOW_NODES + 1 }, (_, i) => ({ globalVariable: `n${i}`, baseId: 'x', children: [{ globalVariable: 'end', mapping: [] }] }));
    assert.throws(() => composition({ globalVariable: 'start', children: many }), /at most 30 rule nodes \(this one has 31\)/);
  });

  test('a flow without an end node is refused', () => {
    assert.throws(() => composition({ globalVariable: 'start', children: [{ globalVariable: 'a', baseId: 'x', children: [{ globalVariable: 'b', baseId: 'y', children: [] }] }] }), /no end node/);
  });
});

describe('rule flow: where mappings read their values', () => {
  test('a rule node named start under a root of another name: `start` is the input until that node ran; two end nodes merge, the later winning', async () => {
    const echo = fakeRule({ alias: 'echo' }, (input) => [{ seen: input }]);
    const resolver = new MapResolver().add(echo);
    const flow = composition({
      globalVariable: 'begin', mapping: [], children: [
        { globalVariable: 'first', baseId: 'echo', mapping: [m('a', 'start', 'x'), m('b', 'begin', 'x')], children: [
          { globalVariable: 'start', baseId: 'echo', mapping: [m('a', 'first', 'seen.a')], children: [
            { globalVariable: 'after', baseId: 'echo', mapping: [m('a', 'start', 'seen'), m('b', 'begin', 'x'), m('c', 'end2', 'z')], children: [
              { globalVariable: 'end', mapping: [m('p', 'after', 'seen'), m('q.r', 'first', 'seen.b')], children: [null] },
              { globalVariable: 'end2', mapping: [m('q.s', 'start', 'seen'), m('p', 'begin', 'x')], children: [null] },
            ] },
          ] },
        ] },
      ],
    });
    for (const trace of [false, true]) {
      const solved = await solve(flow, { x: 1 }, { resolver, trace });
      assert.deepEqual(solved.result, [{ p: 1, q: { s: { a: 1 } } }]);
      if (trace) assert.deepEqual(solved.trace?.map((entry) => (entry as { input: unknown }).input), [{ a: 1, b: 1 }, { a: 1 }, { a: { a: 1 }, b: 1 }, { p: { a: { a: 1 }, b: 1 }, q: { r: 1 } }, { q: { s: { a: 1 } }, p: 1 }]);
    }
  });
});
