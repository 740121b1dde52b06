// Flows follow the one evaluator (docs/decisions/perf-engine-sync-flows.md): a flow whose rules answer directly
// runs as one synchronous chain (its evaluate gives no promise), and the same flow whose rules answer with
// promises continues after each of them. Random inputs through a decision flow (Variables, a rule node looping
// over its results with an Assign, an Append and another rule node in its body, a Switch whose first case calls
// a rule through SOLVE, Assigns) and a rule flow of two rule nodes, with the called rules answering either way,
// must give identical results, traces and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileRule } from '../../src/engine/index.ts';
import { createContext } from '../../src/engine/context.ts';
import { RuleError } from '../../src/engine/errors.ts';
import type { CompiledRule, Json, SolveResult } from '../../src/engine/types.ts';
import { MapResolver } from './helpers.ts';
import { assign, businessRule, declare, switchCases, workflow } from './workflow-builder.ts';

/** Splits `input.n` into items, fails when `input.fail` is true; answers directly or with a promise. */
function splitter(alias: string, waits: boolean): CompiledRule {
  return {
    type: 'decision-table',
    ruleId: alias,
    ruleAlias: alias,
    version: 1,
    name: alias,
    async: waits,
    dependencies: [],
    evaluate(input: unknown): SolveResult | Promise<SolveResult> {
      const data = (input ?? {}) as { n?: unknown; fail?: unknown; tag?: unknown };
      if (data.fail === true) {
        const error = new RuleError(`${alias} refused the input`);
        if (waits) return Promise.reject(error);
        throw error;
      }
      const count = typeof data.n === 'number' ? Math.max(0, Math.min(4, Math.trunc(data.n))) : 0;
      const result = Array.from({ length: count }, (_, i) => ({ i, tag: `${String(data.tag ?? '')}${i}` })) as Json[];
      const solved = { result };
      return waits ? Promise.resolve(solved) : solved;
    },
  };
}

function resolverFor(waits: boolean): MapResolver {
  return new MapResolver().add(splitter('split', waits), splitter('again', waits));
}

/** A first Switch case whose condition calls a rule (SOLVE): it waits when the rule does. */
function withSolvingCase(data: Record<string, unknown>): Record<string, unknown> {
  const text = 'EQ(SOLVE("split", {"n": 1, "tag": {acc.tags}}, {"path": "tag"}), "a00")';
  const condition = { variable: 'acc.count', decisionNode: { type: 0, scalarCondition: { type: 'function', operator: 'function', value: text, stringValue: text } } };
  return { ...data, cases: [{ name: 'solved', type: 'CASE', connectorId: 'switch-solved', conditions: [condition] }, ...(data.cases as unknown[])] };
}

const DECISION_FLOW = compileRule(
  workflow(
    [
      { id: 'start', type: 'START' },
      { id: 'vars', type: 'VARIABLES', name: 'acc', data: declare(['count', '0'], ['tags', '""']) },
      { id: 'rule', type: 'BUSINESS_RULE', name: 'rule', data: businessRule('split', [['n', 'input.n'], ['fail', 'input.fail'], ['tag', 'input.tag']]) },
      { id: 'body', type: 'DATA_MANIPULATION', name: 'add', data: assign(['acc.count', '{acc.count} + 1'], ['acc.tags', 'CONCAT({acc.tags}, {rule.currentItem.tag})']) },
      { id: 'append', type: 'ARRAY_APPEND', name: 'list', data: { values: [{ path: 'rule.currentItem.i' }], target: { path: 'output.items' } } },
      { id: 'perItem', type: 'BUSINESS_RULE', name: 'perItem', data: businessRule('again', [['n', 'rule.currentItem.i'], ['tag', 'acc.tags']], { strategy: 'FIRST_MATCH' }) },
      { id: 'note', type: 'DATA_MANIPULATION', name: 'note', data: assign(['output.last', 'NVL({perItem.output.tag}, "none")']) },
      {
        id: 'switch',
        type: 'IF_STATEMENT',
        name: 'switch',
        data: withSolvingCase(
          switchCases('FIRST_WINNING', [
            { name: 'many', connectorId: 'switch-many', conditions: [['acc.count', '>=', '2']] },
            { name: 'other', connectorId: 'switch-other', isDefault: true },
          ]),
        ),
      },
      { id: 'outSolved', type: 'DATA_MANIPULATION', name: 'outSolved', data: assign(['output.solved', '{acc.count}']) },
      { id: 'many', type: 'BUSINESS_RULE', name: 'again', data: businessRule('again', [['n', 'acc.count'], ['tag', 'acc.tags']], { strategy: 'FIRST_MATCH' }) },
      { id: 'outMany', type: 'DATA_MANIPULATION', name: 'outMany', data: assign(['output.count', '{acc.count}'], ['output.tags', '{acc.tags}'], ['output.again', '{again.output.tag}']) },
      { id: 'outOther', type: 'DATA_MANIPULATION', name: 'outOther', data: assign(['output.count', '{acc.count}']) },
    ],
    [
      ['start-out', 'vars'], ['vars-out', 'rule'], ['rule-loop', 'body'], ['body-out', 'append'], ['append-out', 'perItem'], ['perItem-end', 'note'], ['rule-end', 'switch'],
      ['switch-solved', 'outSolved'], ['switch-many', 'many'], ['many-end', 'outMany'], ['switch-other', 'outOther'],
    ],
  ),
);

const RULE_FLOW = compileRule({
  type: 'composition',
  name: 'Flow',
  status: 'published',
  inputSchema: {},
  outputSchema: {},
  dataTree: {
    globalVariable: 'start',
    mapping: [],
    children: [
      {
        baseId: 'split',
        globalVariable: 'first',
        mapping: [{ key: 'n', source: 'start', sourceVariable: 'n' }, { key: 'fail', source: 'start', sourceVariable: 'fail' }, { key: 'tag', source: 'start', sourceVariable: 'tag' }],
        children: [
          {
            baseId: 'again',
            globalVariable: 'second',
            mapping: [{ key: 'n', source: 'start', sourceVariable: 'm' }, { key: 'tag', source: 'first', sourceVariable: 'tag' }],
            children: [
              {
                globalVariable: 'end',
                mapping: [{ key: 'firstTag', source: 'first', sourceVariable: 'tag' }, { key: 'secondTag', source: 'second', sourceVariable: 'tag' }],
                children: [null],
              },
            ],
          },
        ],
      },
    ],
  },
});

type Outcome = { ok: SolveResult } | { error: string };

/** Solves through `evaluate`; the direct path must not give a promise. */
async function outcome(rule: CompiledRule, input: unknown, waits: boolean, trace: boolean): Promise<Outcome> {
  try {
    const solved = rule.evaluate(input, createContext({ now: 0, trace, resolver: resolverFor(waits) }));
    if (!waits) assert.ok(!(solved instanceof Promise), 'a flow whose rules answer directly answered with a promise');
    return { ok: await solved };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

const input = fc.record(
  {
    n: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constantFrom<unknown>('2', null)),
    m: fc.integer({ min: 0, max: 3 }),
    fail: fc.oneof(fc.constant(false), fc.constant(true)),
    tag: fc.constantFrom('a', 'b', ''),
  },
  { requiredKeys: ['n'] },
);

test('decision and rule flows give the same results, traces and errors whether their rules answer directly or with promises', async () => {
  let failures = 0;
  await fc.assert(
    fc.asyncProperty(input, fc.boolean(), async (data, trace) => {
      for (const rule of [DECISION_FLOW, RULE_FLOW]) {
        const direct = await outcome(rule, data, false, trace);
        const later = await outcome(rule, data, true, trace);
        assert.deepEqual(later, direct);
        if ('error' in direct) failures++;
      }
    }),
    { numRuns: 300 },
  );
  assert.ok(failures > 20, `only ${failures} solves exercised a failing rule`);
});
