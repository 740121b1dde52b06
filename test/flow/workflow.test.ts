// Decision flows (`workflow`): the worked examples of spec §8.2 rebuilt as project fixtures, each node type,
// and the ordering rules (run when all predecessors are done, cancel propagation, loops, errors, limits).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solve } from '../../src/engine/index.ts';
import { RuleError, TimeoutError, ValidationError } from '../../src/engine/errors.ts';
import { MAX_WORKFLOW_NODES } from '../../src/engine/flow/workflow.ts';
import { createScriptSandbox } from '../../src/engine/script/sandbox.ts';
import type { CompiledRule, HttpRequest, Json } from '../../src/engine/types.ts';
import { MapResolver, fakeRule, fixtureResolver, ruleByAlias } from './helpers.ts';
import { assign, businessRule, declare, switchCases, workflow } from './workflow-builder.ts';
import type { NodeSpec } from './workflow-builder.ts';
import { disposeSandboxes } from '../support/isolate-teardown.ts';

function compile(nodes: NodeSpec[], edges: [string, string][]): CompiledRule {
  return compileRule(workflow(nodes, edges));
}

async function output(rule: CompiledRule, input: unknown, options: Parameters<typeof solve>[2] = {}): Promise<Json> {
  const solved = await solve(rule, input, options);
  assert.equal(solved.result.length, 1);
  return solved.result[0]!;
}

const START: NodeSpec = { id: 'start', type: 'START' };

describe('decision flow worked examples', () => {
  test('Segmentation: a business rule node and an assignment of its output', async () => {
    const resolver = fixtureResolver('segmentation');
    const flow = ruleByAlias(resolver, 'segmentation');
    assert.deepEqual((await solve(flow, { segmentCode: 'WEU' }, { resolver })).result, [{ segment: [{ segmentName: 'Western Europe' }] }]);
    assert.deepEqual((await solve(flow, { segmentCode: 'XX' }, { resolver })).result, [{ segment: [{ segmentName: 'Other' }] }]);
    assert.deepEqual(flow.dependencies, [{ idOrAlias: 'segment', version: 1 }]);
  });

  describe('order evaluation (the Decision Flow tutorial)', () => {
    const resolver = fixtureResolver('order');
    const flow = ruleByAlias(resolver, 'order-evaluation');
    const items = ['P_0011', 'P_0009', 'P_0032', 'P_0021'];
    const outOfStock =
      'Thank you for your order! Unfortunately, the following item(s) are currently out of stock:P_0009. We appreciate your understanding and the order will be shipped as soon as the items become available.';

    test('first visit at SHOP_B: one item missing, no discount', async () => {
      const customer = { id: 123, loyaltyClass: 'FIRST_VISIT', credit: 0 };
      assert.deepEqual(await output(flow, { order: { items, branch: 'SHOP_B', customer } }, { resolver }), {
        finished_order: { initialTotal: 18.5, totalPayable: 18.5, missingItems: ['P_0009'], customer, message: outOfStock },
      });
    });

    test('loyal customer at SHOP_B: 25 % discount', async () => {
      const customer = { id: 123, loyaltyClass: 'LOYALTY1', credit: 32 };
      assert.deepEqual(await output(flow, { order: { items, branch: 'SHOP_B', customer } }, { resolver }), {
        finished_order: { initialTotal: 18.5, totalPayable: 13.875, missingItems: ['P_0009'], customer, message: outOfStock },
      });
    });

    test('loyal customer at SHOP_A: everything in stock; the never-created list is assigned as null', async () => {
      const customer = { id: 123, loyaltyClass: 'LOYALTY1', credit: 32 };
      assert.deepEqual(await output(flow, { order: { items, branch: 'SHOP_A', customer } }, { resolver }), {
        finished_order: {
          initialTotal: 18.5,
          totalPayable: 13.875,
          missingItems: null,
          customer,
          message: 'Thank you for your order! Your order will be shipped next business day.',
        },
      });
    });

    test('the trace shows each node per iteration, canceled branches included', async () => {
      const solved = await solve(flow, { order: { items: ['P_0011', 'P_0009'], branch: 'SHOP_B', customer: { loyaltyClass: 'FIRST_VISIT', credit: 0 } } }, { resolver, trace: true });
      const steps = (solved.trace as { name?: string; type: string; status: string; iteration?: number[] }[]).map(
        (entry) => `${entry.name ?? entry.type}${entry.iteration ? `[${entry.iteration.join(',')}]` : ''}:${entry.status}`,
      );
      assert.deepEqual(steps, [
        'START:done',
        'declare:done',
        'foreach:done',
        'rule[0]:done',
        'assign[0]:done',
        'switch[0]:done',
        'arrayAppend[0]:canceled',
        'rule[1]:done',
        'assign[1]:done',
        'switch[1]:done',
        'arrayAppend[1]:done',
        'rule_1:done',
        'assign_1:done',
        'switch_1:done',
        'assign_2:canceled',
        'assign_3:done',
      ]);
      const firstRule = (solved.trace as { name?: string; input?: unknown; output?: unknown }[]).find((entry) => entry.name === 'rule')!;
      assert.deepEqual(firstRule.input, { productId: 'P_0011', branch: 'SHOP_B' });
      assert.deepEqual(firstRule.output, [{ product: { name: 'Notebook Blue A4', available: true, basicPrice: 4.2 } }]);
    });
  });
});

describe('decision flow node types', () => {
  const sandbox = createScriptSandbox({ maxIsolates: 2, memoryLimitMb: 32 });
  after(() => disposeSandboxes(sandbox));

  test('START alone (or START -> END) gives an empty output', async () => {
    assert.deepEqual(await output(compile([START, { id: 'end', type: 'END' }], [['start-out', 'end']]), { a: 1 }), {});
  });

  test('VARIABLES declares values; DATA_MANIPULATION assigns in order to output, declared and free variables', async () => {
    const flow = compile(
      [
        START,
        { id: 'd', type: 'VARIABLES', name: 'declare', data: declare(['total', '0'], ['label', '"sum"']) },
        {
          id: 'a',
          type: 'DATA_MANIPULATION',
          name: 'assign',
          data: assign(['declare.total', '{declare.total}+{input.x}'], ['scratch', '{declare.total}*2'], ['output.result.total', '{declare.total}'], ['output.result.double', '{scratch}'], ['output.label', '{declare.label}']),
        },
      ],
      [['start-out', 'd'], ['d-out', 'a']],
    );
    assert.deepEqual(await output(flow, { x: 21 }), { result: { total: 21, double: 42 }, label: 'sum' });
  });

  test('assignments copy values: changing the output later never changes the input', async () => {
    const flow = compile(
      [START, { id: 'a', type: 'DATA_MANIPULATION', name: 'assign', data: assign(['output.customer', '{input.customer}'], ['output.customer.id', '7'], ['output.original', '{input.customer.id}']) }],
      [['start-out', 'a']],
    );
    const input = { customer: { id: 1 } };
    assert.deepEqual(await output(flow, input), { customer: { id: 7 }, original: 1 });
    assert.deepEqual(input, { customer: { id: 1 } });
  });

  test('assignments to the input or to a node-owned value are refused when compiled', () => {
    const bad = (target: string) =>
      compile(
        [START, { id: 'r', type: 'BUSINESS_RULE', name: 'rule', data: businessRule('x', []) }, { id: 'a', type: 'DATA_MANIPULATION', name: 'assign', data: assign([target, '1']) }],
        [['start-out', 'r'], ['r-end', 'a']],
      );
    assert.throws(() => bad('input.x'), (error: unknown) => error instanceof ValidationError && /flow input, which is read-only/.test(error.message));
    assert.throws(() => bad('rule.output'), (error: unknown) => error instanceof ValidationError && /BUSINESS_RULE node "rule"/.test(error.message));
  });

  test('FOREACH runs its body per item with currentItem, index and length; currentItem keeps the last item', async () => {
    const flow = compile(
      [
        START,
        { id: 'd', type: 'VARIABLES', name: 'acc', data: declare(['sum', '0'], ['seen', '""']) },
        { id: 'f', type: 'FOREACH', name: 'loop', data: { listPath: 'input.numbers' } },
        { id: 'body', type: 'DATA_MANIPULATION', name: 'add', data: assign(['acc.sum', '{acc.sum}+{loop.currentItem}'], ['acc.seen', 'CONCAT({acc.seen},{loop.index},"/",{loop.length},";")']) },
        { id: 'after', type: 'DATA_MANIPULATION', name: 'done', data: assign(['output.sum', '{acc.sum}'], ['output.seen', '{acc.seen}'], ['output.last', '{loop.currentItem}']) },
      ],
      [['start-out', 'd'], ['d-out', 'f'], ['f-loop', 'body'], ['f-end', 'after']],
    );
    assert.deepEqual(await output(flow, { numbers: [5, 10, 20] }), { sum: 35, seen: '0/3;1/3;2/3;', last: 20 });
    assert.deepEqual(await output(flow, { numbers: [] }), { sum: 0, seen: '', last: null });
    assert.deepEqual(await output(flow, {}), { sum: 0, seen: '', last: null });
  });

  test('FOREACH over something that is not a list fails naming the node', async () => {
    const flow = compile([START, { id: 'f', type: 'FOREACH', name: 'loop', data: { listPath: 'input.items' } }], [['start-out', 'f']]);
    await assert.rejects(solve(flow, { items: 'abc' }), { name: 'RuleError', message: 'FOREACH node "loop": the list to loop over, "input.items", is not an array (it is the string "abc")' });
  });

  test('nested FOREACH loops keep their own state per iteration', async () => {
    const flow = compile(
      [
        START,
        { id: 'outer', type: 'FOREACH', name: 'rows', data: { listPath: 'input.grid' } },
        { id: 'inner', type: 'FOREACH', name: 'cells', data: { listPath: 'rows.currentItem' } },
        { id: 'cell', type: 'ARRAY_APPEND', name: 'append', data: { values: [{ path: 'cells.currentItem' }], target: { path: 'output.flat' } } },
        { id: 'rowEnd', type: 'ARRAY_APPEND', name: 'counts', data: { values: [{ path: 'cells.length' }], target: { path: 'output.lengths' } } },
      ],
      [['start-out', 'outer'], ['outer-loop', 'inner'], ['inner-loop', 'cell'], ['inner-end', 'rowEnd']],
    );
    assert.deepEqual(await output(flow, { grid: [[1, 2], [3], []] }), { flat: [1, 2, 3], lengths: [2, 1, 0] });
  });

  test('a flow of three rules of different types with a FOREACH over an input array', async () => {
    const price = compileRule({
      type: 'decision-table',
      name: 'Price',
      ruleAlias: 'price',
      version: 1,
      status: 'published',
      inputSchema: { sku: {} },
      outputSchema: { price: {} },
      decisionTable: {
        columns: [
          { columnId: 'sku', type: 'input', condition: { type: 'simple', inputVariable: 'sku', name: 'SKU' } },
          { columnId: 'price', type: 'output', columnOutput: { type: 'simple', outputVariable: 'price', name: 'Price' } },
        ],
        rows: [
          { active: true, cells: [{ column: 'sku', scalarCondition: { operator: '=', value: 'A' } }, { column: 'price', outputScalarValue: { value: '10' } }] },
          { active: true, cells: [{ column: 'sku', scalarCondition: { operator: '=', value: 'B' } }, { column: 'price', outputScalarValue: { value: '25' } }] },
        ],
      },
    });
    const shipping = compileRule({
      type: 'complex-rule',
      name: 'Shipping',
      ruleAlias: 'shipping',
      version: 1,
      status: 'published',
      inputSchema: {},
      outputSchema: {},
      script: 'output.shipping = input.total >= 30 ? 0 : 4.5;\nreturn output;',
    });
    const tax = fakeRule({ alias: 'tax', type: 'decision-tree' }, (input: { amount: number }) => [{ vat: Math.round(input.amount * 0.21 * 100) / 100 }]);
    const resolver = new MapResolver().add(price, shipping, tax);
    const flow = compile(
      [
        START,
        { id: 'sum', type: 'VARIABLES', name: 'cart', data: declare(['total', '0']) },
        { id: 'items', type: 'FOREACH', name: 'item', data: { listPath: 'input.skus' } },
        { id: 'price', type: 'BUSINESS_RULE', name: 'price', data: businessRule('price', [['sku', 'item.currentItem']], { strategy: 'FIRST_MATCH' }) },
        { id: 'add', type: 'DATA_MANIPULATION', name: 'add', data: assign(['cart.total', '{cart.total}+{price.output.price}']) },
        { id: 'ship', type: 'BUSINESS_RULE', name: 'ship', version: 2, data: businessRule('shipping', [['total', 'cart.total']]) },
        { id: 'tax', type: 'BUSINESS_RULE', name: 'tax', data: businessRule('tax', [['amount', 'cart.total']], { strategy: 'FIRST_MATCH' }) },
        { id: 'out', type: 'DATA_MANIPULATION', name: 'result', data: assign(['output.total', '{cart.total}'], ['output.shipping', '{ship.output.shipping}'], ['output.vat', '{tax.output.vat}']) },
      ],
      [['start-out', 'sum'], ['sum-out', 'items'], ['items-loop', 'price'], ['price-end', 'add'], ['items-end', 'ship'], ['ship-end', 'tax'], ['tax-end', 'out']],
    );
    assert.deepEqual(await output(flow, { skus: ['A', 'B', 'A'] }, { resolver, sandbox }), { total: 45, shipping: 0, vat: 9.45 });
    assert.deepEqual(await output(flow, { skus: ['A'] }, { resolver, sandbox }), { total: 10, shipping: 4.5, vat: 2.1 });
    assert.deepEqual(flow.dependencies, [{ idOrAlias: 'price', version: 1 }, { idOrAlias: 'shipping', version: 1 }, { idOrAlias: 'tax', version: 1 }]);
  });

  test('BUSINESS_RULE output: an array for STANDARD, one object for FIRST_MATCH, a script unwrapped by node version 2', async () => {
    const table = fakeRule({ alias: 'rows' }, (_input, ctx) => (ctx.strategy === 'FIRST_MATCH' ? [{ n: 1 }] : [{ n: 1 }, { n: 2 }]));
    const script = fakeRule({ alias: 'script', type: 'complex-rule' }, () => [{ s: true }]);
    const resolver = new MapResolver().add(table, script);
    const flow = compile(
      [
        START,
        { id: 'std', type: 'BUSINESS_RULE', name: 'std', data: businessRule('rows', []) },
        { id: 'first', type: 'BUSINESS_RULE', name: 'first', data: businessRule('rows', [], { strategy: 'FIRST_MATCH' }) },
        { id: 'v1', type: 'BUSINESS_RULE', name: 'v1', data: businessRule('script', []) },
        { id: 'v2', type: 'BUSINESS_RULE', name: 'v2', version: 2, data: businessRule('script', []) },
        { id: 'out', type: 'DATA_MANIPULATION', name: 'out', data: assign(['output.std', '{std.output}'], ['output.first', '{first.output}'], ['output.v1', '{v1.output}'], ['output.v2', '{v2.output}'], ['output.lastStd', '{std.currentItem}']) },
      ],
      [['start-out', 'std'], ['std-end', 'first'], ['first-end', 'v1'], ['v1-end', 'v2'], ['v2-end', 'out']],
    );
    assert.deepEqual(await output(flow, {}, { resolver }), { std: [{ n: 1 }, { n: 2 }], first: { n: 1 }, v1: [{ s: true }], v2: { s: true }, lastStd: { n: 2 } });
  });

  test('BUSINESS_RULE maps inputs, skips disabled and empty sources, and loops over its results', async () => {
    const people = fakeRule({ alias: 'people' }, (input: { team: string }) => [{ name: `${input.team}-1` }, { name: `${input.team}-2` }]);
    const flow = compileRule(
      workflow(
        [
          START,
          {
            id: 'r',
            type: 'BUSINESS_RULE',
            name: 'members',
            data: {
              rule: { ruleAlias: 'people', version: null },
              strategy: 'STANDARD',
              mapping: [
                { target: { path: 'team' }, source: { path: 'input.team' } },
                { target: { path: 'ignored' }, source: { path: 'input.secret', disabled: true } },
                { target: { path: 'empty' }, source: {} },
              ],
            },
          },
          { id: 'each', type: 'ARRAY_APPEND', name: 'names', data: { values: [{ path: 'members.currentItem.name' }], target: { path: 'output.names' } } },
        ],
        [['start-out', 'r'], ['r-loop', 'each']],
      ),
    );
    assert.deepEqual(await output(flow, { team: 'blue', secret: 's' }, { resolver: new MapResolver().add(people) }), { names: ['blue-1', 'blue-2'] });
    assert.deepEqual(people.calls, [{ input: { team: 'blue' }, strategy: 'STANDARD' }]);
  });

  test('BUSINESS_RULE resolves by alias first, then by baseId', async () => {
    const byId = fakeRule({ alias: 'renamed', id: 'base-123' }, () => [{ from: 'id' }]);
    const flow = compile(
      [START, { id: 'r', type: 'BUSINESS_RULE', name: 'r', data: businessRule('old-alias', [], { baseId: 'base-123', strategy: 'FIRST_MATCH' }) }, { id: 'o', type: 'DATA_MANIPULATION', name: 'o', data: assign(['output.from', '{r.output.from}']) }],
      [['start-out', 'r'], ['r-end', 'o']],
    );
    const resolver = new MapResolver().add(byId);
    assert.deepEqual(await output(flow, {}, { resolver }), { from: 'id' });
    assert.deepEqual(resolver.lookups, ['old-alias@1', 'base-123@1']);
  });

  test('a missing rule fails the solve with the node\'s message, and nothing after it runs', async () => {
    const later = fakeRule({ alias: 'later' }, () => [{}]);
    const flow = compile(
      [START, { id: 'r', type: 'BUSINESS_RULE', name: 'pricing', data: businessRule('ghost', []) }, { id: 'n', type: 'BUSINESS_RULE', name: 'next', data: businessRule('later', []) }],
      [['start-out', 'r'], ['r-end', 'n']],
    );
    await assert.rejects(solve(flow, {}, { resolver: new MapResolver().add(later) }), (error: unknown) => {
      assert.ok(error instanceof RuleError);
      assert.equal(error.message, 'BUSINESS_RULE node "pricing": rule "ghost" version 1 was not found');
      return true;
    });
    assert.equal(later.calls.length, 0);
  });

  test('a script error inside a called rule surfaces with the node name and script line', async () => {
    const broken = compileRule({ type: 'complex-rule', name: 'Broken', ruleAlias: 'broken', version: 1, status: 'published', inputSchema: {}, outputSchema: {}, script: 'const a = 1;\nthrow new Error("no stock data");' });
    const flow = compile([START, { id: 'r', type: 'BUSINESS_RULE', name: 'stock', data: businessRule('broken', []) }], [['start-out', 'r']]);
    await assert.rejects(solve(flow, {}, { resolver: new MapResolver().add(broken), sandbox }), { name: 'RuleError', message: 'BUSINESS_RULE node "stock": script line 2: no stock data' });
  });

  const grading = (strategy: string) =>
    compile(
      [
        START,
        {
          id: 's',
          type: 'IF_STATEMENT',
          name: 'grade',
          data: switchCases(strategy, [
            { name: 'High', connectorId: 'high', conditions: [['input.score', '>=', '80']] },
            { name: 'Passed', connectorId: 'passed', conditions: [['input.score', '>=', '50'], ['input.blocked', '<>', 'true']] },
            { name: 'Default', connectorId: 'other', isDefault: true },
          ]),
        },
        { id: 'h', type: 'ARRAY_APPEND', name: 'h', data: { values: [{ path: 'input.score' }], target: { path: 'output.high' } } },
        { id: 'p', type: 'ARRAY_APPEND', name: 'p', data: { values: [{ path: 'input.score' }], target: { path: 'output.passed' } } },
        { id: 'o', type: 'ARRAY_APPEND', name: 'o', data: { values: [{ path: 'input.score' }], target: { path: 'output.other' } } },
      ],
      [['start-out', 's'], ['high', 'h'], ['passed', 'p'], ['other', 'o']],
    );

  test('IF_STATEMENT ALL_WINNING runs every passing case; conditions of a case are ANDed', async () => {
    const flow = grading('ALL_WINNING');
    assert.deepEqual(await output(flow, { score: 90, blocked: false }), { high: [90], passed: [90] });
    assert.deepEqual(await output(flow, { score: 90, blocked: true }), { high: [90] });
    assert.deepEqual(await output(flow, { score: 60, blocked: false }), { passed: [60] });
  });

  test('IF_STATEMENT FIRST_WINNING runs only the first passing case; DEFAULT only when none passes', async () => {
    const flow = grading('FIRST_WINNING');
    assert.deepEqual(await output(flow, { score: 90, blocked: false }), { high: [90] });
    assert.deepEqual(await output(flow, { score: 10, blocked: false }), { other: [10] });
  });

  test('a node waiting on a canceled branch is canceled, even when its other predecessor ran', async () => {
    const flow = compile(
      [
        START,
        { id: 's', type: 'IF_STATEMENT', name: 'check', data: switchCases('ALL_WINNING', [{ name: 'Yes', connectorId: 'yes', conditions: [['input.ok', '=', 'true']] }, { name: 'Default', connectorId: 'no', isDefault: true }]) },
        { id: 'y', type: 'DATA_MANIPULATION', name: 'yes', data: assign(['output.branch', '"yes"']) },
        { id: 'n', type: 'DATA_MANIPULATION', name: 'no', data: assign(['output.branch', '"no"']) },
        { id: 'join', type: 'DATA_MANIPULATION', name: 'join', data: assign(['output.joined', 'true']) },
        { id: 'after', type: 'DATA_MANIPULATION', name: 'after', data: assign(['output.after', 'true']) },
      ],
      [['start-out', 's'], ['yes', 'y'], ['no', 'n'], ['y-out', 'join'], ['n-out', 'join'], ['join-out', 'after']],
    );
    const solved = await solve(flow, { ok: true }, { trace: true });
    assert.deepEqual(solved.result, [{ branch: 'yes' }]);
    assert.deepEqual(
      (solved.trace as { name?: string; status: string }[]).map((entry) => `${entry.name ?? 'START'}:${entry.status}`),
      ['START:done', 'check:done', 'yes:done', 'no:canceled', 'join:canceled', 'after:canceled'],
    );
  });

  test('a node runs once, after all of its predecessors', async () => {
    const flow = compile(
      [
        START,
        { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['x', '1']) },
        { id: 'b', type: 'DATA_MANIPULATION', name: 'b', data: assign(['y', '{x}+1']) },
        { id: 'join', type: 'ARRAY_APPEND', name: 'join', data: { values: [{ path: 'x' }, { path: 'y' }], target: { path: 'output.seen' } } },
      ],
      // join is listed before b in the connections and waits for both a and b.
      [['start-out', 'a'], ['a-out', 'join'], ['a-out', 'b'], ['b-out', 'join']],
    );
    assert.deepEqual(await output(flow, {}), { seen: [1, 2] });
  });

  test('ARRAY_APPEND creates its target; {node} is the array, null when the node never ran', async () => {
    const flow = compile(
      [
        START,
        { id: 'f', type: 'FOREACH', name: 'each', data: { listPath: 'input.items' } },
        { id: 's', type: 'IF_STATEMENT', name: 'big', data: switchCases('ALL_WINNING', [{ name: 'Big', connectorId: 'big', conditions: [['each.currentItem', '>', '10']] }]) },
        { id: 'ap', type: 'ARRAY_APPEND', name: 'bigOnes', data: { values: [{ path: 'each.currentItem' }], target: { path: 'found' } } },
        {
          id: 'check',
          type: 'IF_STATEMENT',
          name: 'none',
          data: switchCases('ALL_WINNING', [{ name: 'None', connectorId: 'none', conditions: [['bigOnes', 'isNull', '']] }, { name: 'Default', connectorId: 'some', isDefault: true }]),
        },
        { id: 'n', type: 'DATA_MANIPULATION', name: 'n', data: assign(['output.message', '"nothing big"']) },
        { id: 's2', type: 'DATA_MANIPULATION', name: 's2', data: assign(['output.big', '{bigOnes}'], ['output.same', '{found}']) },
      ],
      [['start-out', 'f'], ['f-loop', 's'], ['big', 'ap'], ['f-end', 'check'], ['none', 'n'], ['some', 's2']],
    );
    assert.deepEqual(await output(flow, { items: [5, 20, 30] }), { big: [20, 30], same: [20, 30] });
    assert.deepEqual(await output(flow, { items: [1, 2] }), { message: 'nothing big' });
  });

  test('HTTP_CLIENT sends the request through the injected client with variables filled in and exposes the response', async () => {
    const requests: HttpRequest[] = [];
    const http = {
      request: (req: HttpRequest) => {
        requests.push(req);
        return Promise.resolve({ status: 201, headers: { 'x-id': '9' }, body: { accepted: true } });
      },
    };
    const flow = compile(
      [
        START,
        {
          id: 'h',
          type: 'HTTP_CLIENT',
          name: 'api',
          data: {
            url: 'https://api.test/customers/{input.id}/orders',
            method: 'POST',
            body: '{"items": {input.items}, "note": "order of {input.name}"}',
            bodyFormat: 'json',
            headers: [{ header: 'x-tenant', value: '{input.tenant}' }, { header: '', value: '' }],
          },
        },
        { id: 'o', type: 'DATA_MANIPULATION', name: 'o', data: assign(['output.ok', '{api.responseOk}'], ['output.status', '{api.status}'], ['output.data', '{api.data}']) },
      ],
      [['start-out', 'h'], ['h-out', 'o']],
    );
    assert.deepEqual(await output(flow, { id: 42, items: [1, 2], name: 'Ann "A"', tenant: 't1' }, { http }), { ok: true, status: 201, data: { accepted: true } });
    assert.deepEqual(requests, [
      {
        method: 'POST',
        url: 'https://api.test/customers/42/orders',
        headers: { 'x-tenant': 't1', 'Content-Type': 'application/json' },
        body: { items: [1, 2], note: 'order of Ann "A"' },
      },
    ]);
  });

  test('HTTP_CLIENT without an HTTP client fails with "HTTP is disabled"', async () => {
    const flow = compile([START, { id: 'h', type: 'HTTP_CLIENT', name: 'api', data: { url: 'https://api.test', method: 'GET' } }], [['start-out', 'h']]);
    await assert.rejects(solve(flow, {}), { name: 'RuleError', message: 'HTTP_CLIENT node "api": HTTP is disabled' });
  });
});

describe('decision flow compile-time checks and limits', () => {
  test('an unknown node type is refused, naming the node', () => {
    assert.throws(() => compile([START, { id: 'j', type: 'JOIN', name: 'merge', data: {} }], [['start-out', 'j']]), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.message, /workflowData\.nodes\[1\]\.type/);
      assert.match(error.message, /"JOIN"/);
      return true;
    });
  });

  test('more than 150 nodes are refused', () => {
    const nodes: NodeSpec[] = [START, ...Array.from({ length: MAX_WORKFLOW_NODES }, (_, i) => ({ id: `n${i}`, type: 'DATA_MANIPULATION', name: `n${i}`, data: assign(['x', '1']) }))];
    assert.throws(() => compile(nodes, [['start-out', 'n0']]), /at most 150 nodes \(this one has 151\)/);
  });

  test('a cycle of connections is refused', () => {
    assert.throws(
      () =>
        compile(
          [START, { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['x', '1']) }, { id: 'b', type: 'DATA_MANIPULATION', name: 'b', data: assign(['x', '2']) }],
          [['start-out', 'a'], ['a-out', 'b'], ['b-out', 'a']],
        ),
      (error: unknown) => error instanceof ValidationError && /cycle through nodes "a", "b"/.test(error.message),
    );
  });

  test('a loop body that leads back to its loop node is refused', () => {
    assert.throws(
      () => compile([START, { id: 'f', type: 'FOREACH', name: 'f', data: { listPath: 'input.x' } }, { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['x', '1']) }], [['start-out', 'f'], ['f-loop', 'a'], ['a-out', 'f']]),
      /leads back to the node itself/,
    );
  });

  test('an expression that does not parse is refused with its node path', () => {
    assert.throws(() => compile([START, { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['output.x', '1 +* 2']) }], [['start-out', 'a']]), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.problems[0]!.path, /^workflowData\.nodes\[1\]\.data\.mapping\[0\]\.source\.expression/);
      return true;
    });
  });

  test('the deadline stops a long loop', async () => {
    const flow = compile(
      [START, { id: 'f', type: 'FOREACH', name: 'f', data: { listPath: 'input.items' } }, { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['x', '{f.currentItem}']) }],
      [['start-out', 'f'], ['f-loop', 'a']],
    );
    await assert.rejects(solve(flow, { items: [1, 2, 3] }, { deadline: Date.now() - 1, timeoutMs: 10_000 }), (error: unknown) => {
      assert.ok(error instanceof TimeoutError);
      assert.equal(error.message, 'Rule evaluation exceeded the time limit of 10000 ms');
      return true;
    });
  });

  test('flow expressions follow the arithmetic grouping chosen at compile time', async () => {
    const doc = workflow([START, { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['output.x', '10 - 5 - 2']) }], [['start-out', 'a']]);
    assert.deepEqual(await output(compileRule(doc), {}), { x: 3 });
    assert.deepEqual(await output(compileRule(doc, { arithmeticAssociativity: 'right' }), {}), { x: 7 });
  });

  test('the response has the STANDARD shape whatever strategy is asked for', async () => {
    const flow = compile([START, { id: 'a', type: 'DATA_MANIPULATION', name: 'a', data: assign(['output.x', '1']) }], [['start-out', 'a']]);
    assert.deepEqual((await solve(flow, {}, { strategy: 'ARRAY' })).result, [{ x: 1 }]);
  });
});
