// Scripting rules end to end: compiled from their JSON document, solved through the engine entry with a real
// isolated-vm sandbox.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solve } from '../../src/engine/index.ts';
import { RuleError, ValidationError } from '../../src/engine/errors.ts';
import { createScriptSandbox } from '../../src/engine/script/sandbox.ts';
import { disposeSandboxes } from '../support/isolate-teardown.ts';
import type { CompiledRule } from '../../src/engine/types.ts';
import { MapResolver, fakeRule } from '../flow/helpers.ts';
import { UNHURRIED_MS } from '../support/script-calls.ts';

function scriptRule(script: string, extra: Record<string, unknown> = {}): CompiledRule {
  return compileRule({
    type: 'complex-rule',
    name: 'Script',
    status: 'published',
    inputSchema: {},
    outputSchema: {},
    script,
    ...extra,
  });
}

const MULTIPLY = [
  '/* multiply two inputs, as the DecisionRules tutorial does */',
  'let a = input.value1;',
  'let b = input.value2;',
  'function multiply(a, b) {',
  '    return a * b;',
  '}',
  'output.result = multiply(a, b);',
  "log('Result multiply:', output.result);",
  'return output;',
].join('\n');

describe('scripting rules', () => {
  // Solves without a deadline get the sandbox's default limit: an unhurried one, since a loaded machine creates
  // isolates slowly and none of those tests is about the limit.
  const sandbox = createScriptSandbox({ maxIsolates: 2, memoryLimitMb: 32, defaultTimeoutMs: UNHURRIED_MS });
  after(() => disposeSandboxes(sandbox));

  test('STANDARD wraps the returned object; the trace holds the log() lines', async () => {
    const rule = scriptRule(MULTIPLY, { ruleAlias: 'multiply', version: 1 });
    assert.equal(rule.type, 'complex-rule');
    assert.equal(rule.async, true);
    const solved = await solve(rule, { value1: 2, value2: 4 }, { sandbox, trace: true });
    assert.deepEqual(solved.result, [{ result: 8 }]);
    assert.deepEqual(solved.trace, ['Result multiply: 8']);
  });

  test('ARRAY turns the leaves into arrays; unsupported strategies fall back to STANDARD', async () => {
    const rule = scriptRule('output.total = input.n; output.detail = { a: 1 }; return output;');
    assert.deepEqual((await solve(rule, { n: 3 }, { sandbox, strategy: 'ARRAY' })).result, [{ total: [3], detail: { a: [1] } }]);
    assert.deepEqual((await solve(rule, { n: 3 }, { sandbox, strategy: 'EVALUATE_ALL' })).result, [{ total: 3, detail: { a: 1 } }]);
  });

  test('a script that returns nothing gives [{}]; a non-object is wrapped as it is', async () => {
    assert.deepEqual((await solve(scriptRule('output.x = 1;'), {}, { sandbox })).result, [{}]);
    assert.deepEqual((await solve(scriptRule('return 7;'), {}, { sandbox })).result, [7]);
  });

  test('rule variables are readable as ruleVariables.<name>', async () => {
    const rule = scriptRule('output.discounted = input.price * (100 - ruleVariables.Discount) / 100; return output;', {
      userVariables: [{ name: 'Discount', value: 30 }, {}],
    });
    assert.deepEqual((await solve(rule, { price: 8 }, { sandbox })).result, [{ discounted: 5.6 }]);
  });

  test('a syntax error is reported when the rule is compiled, with its line', () => {
    assert.throws(() => scriptRule('let a = 1;\nlet b = ;\nreturn a;'), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.deepEqual(error.problems, [{ path: 'script', message: "line 2: Unexpected token ';'" }]);
      return true;
    });
  });

  test('a runtime error names the line', async () => {
    await assert.rejects(solve(scriptRule('let a = 1;\nif (input.bad) throw new Error("bad input");\nreturn {};'), { bad: true }, { sandbox }), {
      name: 'RuleError',
      message: 'script line 2: bad input',
    });
  });

  test('without a sandbox the solve fails with a clear message', async () => {
    await assert.rejects(solve(scriptRule('return {}'), {}, {}), (error: unknown) => error instanceof RuleError && /script sandbox/.test(error.message));
  });

  test('the deadline of the solve bounds the script', async () => {
    const started = Date.now();
    await assert.rejects(solve(scriptRule('while (true) {}'), {}, { sandbox, deadline: started + 200, timeoutMs: 200 }), {
      name: 'TimeoutError',
      message: 'Rule evaluation exceeded the time limit of 200 ms',
    });
    // Stopped at the limit, not left to run: ten times the limit is far beyond a loaded machine's delays.
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 10 * 200, `stopped after ${elapsed} ms`);
  });

  test('DR.solve solves another rule through the resolver, awaited automatically at top level', async () => {
    const tax = fakeRule({ alias: 'tax' }, (input: { amount: number }, ctx) => [{ tax: input.amount * 0.2, strategy: ctx.strategy }]);
    const resolver = new MapResolver().add(tax);
    const rule = scriptRule("const res = DR.solve('tax', { amount: input.amount }, 1, SolverStrategy.FIRST_MATCH);\noutput.tax = res[0].tax;\noutput.strategy = res[0].strategy;\nreturn output;");
    assert.deepEqual(rule.dependencies, [{ idOrAlias: 'tax', version: 1 }]);
    assert.deepEqual((await solve(rule, { amount: 50 }, { sandbox, resolver })).result, [{ tax: 10, strategy: 'FIRST_MATCH' }]);
  });

  test('DR.solve inside a plain function keeps returning a promise; inside an async function it can be awaited', async () => {
    const echo = fakeRule({ alias: 'echo' }, (input) => [{ got: input.v }]);
    const resolver = new MapResolver().add(echo);
    const rule = scriptRule(
      [
        'function later(v) { return DR.solve("echo", { v }); }',
        'async function now(v) { const r = await DR.solve("echo", { v }); return r[0].got; }',
        'const pending = later(1);',
        'output.isPromise = pending instanceof Promise;',
        'output.later = (await pending)[0].got;',
        'output.now = await now(2);',
        'return output;',
      ].join('\n'),
    );
    assert.deepEqual((await solve(rule, {}, { sandbox, resolver })).result, [{ isPromise: true, later: 1, now: 2 }]);
  });

  test('DR.solve with an array solves each element: an array of results', async () => {
    const square = fakeRule({ alias: 'square' }, (input: { n: number }) => [{ result: input.n * input.n }]);
    const rule = scriptRule('const res = await DR.solve("square", [{ n: 2 }, { n: 3 }]);\nreturn { results: res.map((r) => r[0].result) };');
    assert.deepEqual((await solve(rule, {}, { sandbox, resolver: new MapResolver().add(square) })).result, [{ results: [4, 9] }]);
  });

  test('DR.solve of an unknown rule throws a catchable error', async () => {
    const rule = scriptRule('try { await DR.solve("ghost", {}); } catch (e) { return { error: e.message }; }');
    assert.deepEqual((await solve(rule, {}, { sandbox, resolver: new MapResolver() })).result, [{ error: 'DR.solve: rule "ghost" was not found' }]);
  });

  test('a script calling another script through DR.solve does not deadlock a one-isolate sandbox', async () => {
    const single = createScriptSandbox({ maxIsolates: 1 });
    try {
      // A deadlock would end as a TimeoutError at the deadline: an unhurried one, so that only a deadlock reaches it.
      const inner = scriptRule('return { squared: input.n * input.n };', { ruleAlias: 'inner', version: 1 });
      const outer = scriptRule('const [first] = await DR.solve("inner", { n: input.n });\nreturn { result: first.squared + 1 };');
      const results = await Promise.all([1, 2, 3].map((n) => solve(outer, { n }, { sandbox: single, resolver: new MapResolver().add(inner), deadline: Date.now() + UNHURRIED_MS })));
      assert.deepEqual(results.map((solved) => solved.result), [[{ result: 2 }], [{ result: 5 }], [{ result: 10 }]]);
    } finally {
      single.dispose();
    }
  });

  test('a script that calls itself forever stops at the nesting limit', async () => {
    const resolver = new MapResolver();
    const rule = scriptRule('return await DR.solve("self", input);', { ruleAlias: 'self', version: 1 });
    resolver.add(rule);
    await assert.rejects(solve(rule, {}, { sandbox, resolver, deadline: Date.now() + UNHURRIED_MS }), /more than 32 levels deep/);
  });

  test('literal DR.solve references are the rule\'s dependencies; computed ones are not', () => {
    const rule = scriptRule(
      [
        '// DR.solve("commented-out", {})',
        'const label = "DR.solve(\'in-a-string\', {})";',
        'await DR.solve("alpha", input);',
        "await DR.solve('beta', input, 2, SolverStrategy.STANDARD);",
        'await DR.solve(input.which, input);',
        'await DR.solve("alpha", {});',
      ].join('\n'),
    );
    assert.deepEqual(rule.dependencies, [{ idOrAlias: 'alpha' }, { idOrAlias: 'beta', version: 2 }]);
  });
});
