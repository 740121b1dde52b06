// The library entry (solve, solveNow, solveSync without `now`) reads the clock only when the solve first looks at the
// time, once, and every nested context shares that instant (context.ts SolveInstant); whatever waits looks at it
// first, so it is always taken before the solve first waits. With a clock that moves on every read, a lazily read
// solve answers exactly as the same solve given the clock's first reading as `now`.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solveNow, solveSync } from '../../src/engine/index.ts';
import type { CompiledRule, HttpRequest, SolveOptions } from '../../src/engine/types.ts';
import { intBetween, lit, pick, seededRandom } from '../../bench/lib/table-spec.ts';
import { toVerdictTable } from '../../bench/lib/to-verdict.ts';
import { MapResolver } from '../flow/helpers.ts';
import { assign, businessRule, workflow } from '../flow/workflow-builder.ts';
import type { NodeSpec } from '../flow/workflow-builder.ts';

const realNow = Date.now;
let reads = 0;
let clock = 0;

beforeEach(() => {
  reads = 0;
  clock = Date.UTC(2026, 0, 5, 10, 30);
  // A clock that moves a minute on every read: two reads in one solve would show.
  Date.now = () => {
    reads++;
    clock += 60_000;
    return clock;
  };
});
afterEach(() => {
  Date.now = realNow;
});

/** An HTTP client whose requests take a minute of the (fake) clock. */
const http = {
  request: (request: HttpRequest) => {
    clock += 60_000;
    return Promise.resolve({ status: 200, headers: {}, body: { url: request.url } });
  },
};

function table(): CompiledRule {
  return compileRule(toVerdictTable({ name: 't', hitPolicy: 'first', inputs: [{ field: 'n' }], outputs: [{ field: 'x' }], rows: [{ when: [{ op: 'ge', value: 5 }], then: [lit('big')] }, { when: [{ op: 'lt', value: 5 }], then: [lit('small')] }] }, { ruleId: 't', ruleAlias: 't' }));
}

/** A flow reading the time with NOW() (rule alias `clock`), called by other flows. */
const nested = compileRule({ ...workflow([{ id: 'start', type: 'START' }, { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['output.at', 'NOW()']) }, { id: 'end', type: 'END' }], [['start-out', 'a'], ['a-out', 'end']]), ruleAlias: 'clock', ruleId: 'clock' });

const resolver = new MapResolver().add(table(), nested);

async function answer(rule: CompiledRule, options: SolveOptions): Promise<unknown> {
  try {
    return (await solveNow(rule, { n: 7 }, { resolver, http, ...options })).result;
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** A chain of Assigns reading the time, rule nodes calling the table or the nested flow, and HTTP nodes that wait. */
function randomFlow(random: () => number): CompiledRule {
  const nodes: NodeSpec[] = [{ id: 'start', type: 'START' }];
  const edges: [string, string][] = [];
  let previous = 'start-out';
  for (let i = 0; i < intBetween(random, 1, 6); i++) {
    const id = `n${i}`;
    const kind = pick(random, ['assign', 'assign', 'rule', 'http', 'function']);
    if (kind === 'assign') nodes.push({ id, type: 'DATA_MANIPULATION', name: id, data: assign([`output.${id}`, pick(random, ['NOW()', 'CURDATE()', 'CURTIME()', '{input.n}'])]) });
    else if (kind === 'function') nodes.push({ id, type: 'DATA_MANIPULATION', name: id, data: assign([`output.${id}`, 'HTTP_GET("https://api.test/x")'], [`output.${id}t`, 'NOW()']) });
    else if (kind === 'rule') nodes.push({ id, type: 'BUSINESS_RULE', name: id, data: businessRule(pick(random, ['t', 'clock']), [['n', 'input.n']]) });
    else nodes.push({ id, type: 'HTTP_CLIENT', name: id, data: { url: 'https://api.test/{input.n}', method: 'GET' } });
    edges.push([previous, id]);
    previous = kind === 'rule' ? `${id}-end` : `${id}-out`;
    if (kind === 'rule') nodes.push({ id: `${id}o`, type: 'DATA_MANIPULATION', name: `${id}o`, data: assign([`output.${id}`, `{${id}.output}`]) });
    if (kind === 'rule') edges.push([previous, `${id}o`]);
    if (kind === 'rule') previous = `${id}o-out`;
  }
  nodes.push({ id: 'end', type: 'END' });
  edges.push([previous, 'end']);
  return compileRule(workflow(nodes, edges));
}

describe('the solve instant (read from the clock at its first use)', () => {
  test('a solve that never looks at the time reads no clock', async () => {
    assert.deepEqual(solveSync(table(), { n: 7 }).result, [{ x: 'big' }]);
    const flow = compileRule(workflow([{ id: 'start', type: 'START' }, { id: 'r', type: 'BUSINESS_RULE', name: 'r', data: businessRule('t', [['n', 'input.n']], { strategy: 'FIRST_MATCH' }) }, { id: 'end', type: 'END' }], [['start-out', 'r'], ['r-end', 'end']]));
    await solveNow(flow, { n: 1 }, { resolver });
    assert.equal(reads, 0);
  });

  test('every look at the time in one solve, nested flows included, sees one instant read once', async () => {
    const flow = compileRule(workflow(
      [
        { id: 'start', type: 'START' },
        { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['output.first', 'NOW()']) },
        { id: 'r', type: 'BUSINESS_RULE', name: 'r', data: businessRule('clock', []) },
        { id: 'b', type: 'DATA_MANIPULATION', name: 'b', data: assign(['output.nested', '{r.output}'], ['output.last', 'NOW()']) },
        { id: 'end', type: 'END' },
      ],
      [['start-out', 'a'], ['a-out', 'r'], ['r-end', 'b'], ['b-out', 'end']],
    ));
    const [result] = (await solveNow(flow, {}, { resolver })).result as [{ first: string; nested: [{ at: string }]; last: string }];
    assert.equal(reads, 1);
    assert.equal(result.last, result.first);
    assert.equal(result.nested[0]!.at, result.first);
  });

  test('an HTTP node and an HTTP function take the instant before they wait', async () => {
    const flow = compileRule(workflow(
      [
        { id: 'start', type: 'START' },
        { id: 'h', type: 'HTTP_CLIENT', name: 'h', data: { url: 'https://api.test/a', method: 'GET' } },
        { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['output.afterNode', 'NOW()'], ['output.call', 'HTTP_GET("https://api.test/b")'], ['output.afterCall', 'NOW()']) },
        { id: 'end', type: 'END' },
      ],
      [['start-out', 'h'], ['h-out', 'a'], ['a-out', 'end']],
    ));
    const first = clock + 60_000;
    assert.deepEqual(await answer(flow, {}), await answer(flow, { now: first }));
    const [result] = (await solveNow(flow, {}, { resolver, http })).result as [{ afterNode: string; afterCall: string }];
    assert.equal(result.afterCall, result.afterNode);
  });

  test('a script takes the instant before it runs', async () => {
    // A sandbox whose scripts take a minute of the (fake) clock and answer {}.
    const sandbox = { run: () => ((clock += 60_000), Promise.resolve({})), dispose: () => undefined };
    const script = compileRule({ type: 'complex-rule', name: 'Script', status: 'published', inputSchema: {}, outputSchema: {}, script: 'return output;', ruleAlias: 'script', ruleId: 'script', version: 1 });
    const flow = compileRule(workflow(
      [
        { id: 'start', type: 'START' },
        { id: 's', type: 'BUSINESS_RULE', name: 's', data: businessRule('script', []) },
        { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['output.at', 'NOW()']) },
        { id: 'end', type: 'END' },
      ],
      [['start-out', 's'], ['s-end', 'a'], ['a-out', 'end']],
    ));
    const first = clock + 60_000;
    const options = { resolver: new MapResolver().add(script), sandbox };
    const lazy = (await solveNow(flow, {}, options)).result;
    assert.equal(reads, 1);
    assert.deepEqual(lazy, (await solveNow(flow, {}, { ...options, now: first })).result);
  });

  test('random flows: read lazily, the answer is the one given the clock\'s first reading as now (differential)', async () => {
    const random = seededRandom(1313);
    let timed = 0;
    for (let f = 0; f < 150; f++) {
      const flow = randomFlow(random);
      const startedAt = clock;
      reads = 0;
      const lazy = await answer(flow, {});
      const lazyReads = reads;
      assert.ok(lazyReads <= 1, `clock reads in one solve: ${lazyReads}`);
      if (lazyReads === 1) timed++;
      // The same solve with the instant the lazy one read (the clock's first reading after startedAt).
      const given = await answer(flow, { now: startedAt + 60_000 });
      assert.deepEqual(lazy, given, JSON.stringify(flow));
    }
    assert.ok(timed > 50, `solves that looked at the time: ${timed}`);
  });
});
