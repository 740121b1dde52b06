// Hostless scripts (function nodes) in the sandbox's warm realm: one hardened context per isolate, reused by every
// run. What one run does must never be visible to the next, whatever it tries; ordinary code must keep working in
// the frozen realm. The sandbox has one isolate, so consecutive runs share the realm (a run checks it is there:
// `eval` exists only in fresh contexts).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createScriptSandbox } from '../../src/engine/script/sandbox.ts';
import { compileRule, solve } from '../../src/engine/index.ts';
import { readJdm } from '../../src/formats/jdm/index.ts';
import type { CompiledScriptHandle, ScriptCall } from '../../src/engine/types.ts';
import { RuleError, TimeoutError } from '../../src/engine/errors.ts';
import { scriptCall, UNHURRIED_MS } from '../support/script-calls.ts';
import { MapResolver } from '../flow/helpers.ts';
import { disposeSandboxes } from '../support/isolate-teardown.ts';

/** A decision graph whose one function node has `source` (v2), compiled; `extra` goes into the rule document. */
function functionGraph(source: string, extra: Record<string, unknown> = {}) {
  const jdm = {
    nodes: [
      { id: 'in', type: 'inputNode', name: 'Request', position: { x: 0, y: 0 } },
      { id: 'fn', type: 'functionNode', name: 'Compute', position: { x: 1, y: 0 }, content: { source } },
      { id: 'out', type: 'outputNode', name: 'Response', position: { x: 2, y: 0 } },
    ],
    edges: [
      { id: 'e1', type: 'edge', sourceId: 'in', targetId: 'fn' },
      { id: 'e2', type: 'edge', sourceId: 'fn', targetId: 'out' },
    ],
  };
  const read = readJdm(jdm, { fileName: 'graph.json', status: 'published' });
  assert.deepEqual(read.problems, []);
  return compileRule({ ...read.document, ...extra });
}

let counter = 0;
function hostless(source: string): CompiledScriptHandle {
  return { source, cacheKey: `warm-test-${++counter}`, hostless: true };
}
const call = (overrides: Partial<ScriptCall> = {}): ScriptCall => scriptCall(UNHURRIED_MS, overrides);

/** Runs `writer` with a secret, then `reader` (both hostless, in the same realm); the reader's answer. */
async function afterWriter(writer: string, reader: string): Promise<unknown> {
  const sandbox = createScriptSandbox({ maxIsolates: 1 });
  try {
    const first = hostless(`${writer}\nreturn typeof eval;`);
    assert.equal(await sandbox.run(first, call({ input: { secret: 's3cret' } })).catch(() => 'undefined'), 'undefined');
    return await sandbox.run(hostless(`return { warm: typeof eval === 'undefined', seen: (() => { ${reader} })() };`), call());
  } finally {
    sandbox.dispose();
  }
}

describe('warm realm (hostless scripts)', () => {
  const sandbox = createScriptSandbox({ maxIsolates: 1 });
  after(() => disposeSandboxes(sandbox));

  test('runs reuse the realm and each sees only its own input and globals', async () => {
    const script = hostless('const before = typeof leftover;\nleftover = input.secret;\nglobalThis.other = input.secret;\nconst mine = leftover;\ninput = output = log = "overwritten";\nreturn { before, eval: typeof eval, mine, input };');
    for (const secret of ['a', 'b', 'c']) {
      assert.deepEqual(await sandbox.run(script, call({ input: { secret } })), { before: 'undefined', eval: 'undefined', mine: secret, input: 'overwritten' });
    }
  });

  test('a non-configurable global is gone in the next run (the realm is replaced)', async () => {
    const seen = await afterWriter("Object.defineProperty(globalThis, 'kept', { value: input.secret, configurable: false });", 'return typeof kept;');
    assert.deepEqual(seen, { warm: true, seen: 'undefined' });
  });

  test("the global's prototype and extensibility are restored for the next run", async () => {
    assert.deepEqual(await afterWriter('Object.setPrototypeOf(globalThis, { hidden: input.secret });', 'return typeof hidden;'), { warm: true, seen: 'undefined' });
    assert.deepEqual(await afterWriter('Object.preventExtensions(globalThis);', 'x = 1; return x;'), { warm: true, seen: 1 });
  });

  test('built-ins cannot carry data: prototypes, constructors, globals and JSON are frozen', async () => {
    const writer = [
      'try { Object.prototype.polluted = input.secret; } catch {}',
      'try { Array.prototype.push = () => input.secret; } catch {}',
      'try { JSON.stringify = () => input.secret; } catch {}',
      'try { Math = { secret: input.secret }; } catch {}',
      'try { Error.prepareStackTrace = () => input.secret; } catch {}',
      'try { Object.getPrototypeOf(function* () {}).leak = input.secret; } catch {}',
      'try { Object.getPrototypeOf([][Symbol.iterator]()).leak = input.secret; } catch {}',
    ].join('\n');
    const reader = "const a = []; a.push(1); return [({}).polluted, a.length, JSON.stringify({ a: 1 }), typeof Math.secret, typeof Error.prepareStackTrace, Object.getPrototypeOf(function* () {}).leak, Object.getPrototypeOf([][Symbol.iterator]()).leak];";
    assert.deepEqual(await afterWriter(writer, reader), { warm: true, seen: [null, 1, '{"a":1}', 'undefined', 'undefined', null, null] });
  });

  test('channels a freeze cannot close are absent: RegExp legacy statics, indirect eval, late callbacks', async () => {
    assert.deepEqual(await afterWriter('/(s3cret)/.exec(input.secret);', 'return [typeof RegExp.$1, typeof RegExp.lastMatch, typeof RegExp.input];'), { warm: true, seen: ['undefined', 'undefined', 'undefined'] });
    assert.deepEqual(await sandbox.run(hostless('return [typeof eval, typeof WebAssembly, typeof FinalizationRegistry, typeof Atomics.waitAsync];'), call()), ['undefined', 'undefined', 'undefined', 'undefined']);
  });

  test('ordinary code overrides inherited built-in properties on its own objects', async () => {
    const script = hostless([
      'function Money(n) { this.n = n; }',
      "Money.prototype.toString = function () { return '$' + this.n; };",
      'Money.prototype.valueOf = function () { return this.n; };',
      "class Failure extends Error { constructor(m) { super(m); this.name = 'Failure'; } }",
      'const o = {}; o.toString = () => "o"; o.constructor = Money;',
      'return [String(new Money(3)), new Money(3) + 1, new Failure("x").name, String(o), o.constructor === Money, [3, 1, 2].sort().join()];',
    ].join('\n'));
    assert.deepEqual(await sandbox.run(script, call()), ['$3', 4, 'Failure', 'o', true, '1,2,3']);
    await assert.rejects(sandbox.run(hostless("'use strict'; Object.prototype.toString = () => 'x';"), call()), /read only property 'toString'/);
  });

  test('errors keep their line; logs reach the caller', async () => {
    const lines: string[] = [];
    const value = await sandbox.run(hostless('log("one", { a: 1 });\nconsole.warn("two");\nreturn 5;'), call({ log: (line) => lines.push(line) }));
    assert.equal(value, 5);
    assert.deepEqual(lines, ['one {"a":1}', '[warn] two']);
    await assert.rejects(sandbox.run(hostless('const a = 1;\nthrow new TypeError("bad " + a);'), call()), (error: unknown) => error instanceof RuleError && error.message === 'script line 2: TypeError: bad 1');
  });

  test('an infinite loop (also after an await) stops at its limit, and the next run works', async () => {
    const limited = (ms: number) => call({ deadline: Date.now() + ms, timeoutMs: ms });
    await assert.rejects(sandbox.run(hostless('while (true) {}'), limited(200)), TimeoutError);
    await assert.rejects(sandbox.run(hostless('await 0;\nwhile (true) {}'), limited(200)), TimeoutError);
    assert.equal(await sandbox.run(hostless('return input.n * 2;'), call({ input: { n: 21 } })), 42);
  });

  test('a run that awaits what never settles ends at the deadline in a fresh context', async () => {
    await assert.rejects(sandbox.run(hostless('await new Promise(() => {});'), call({ deadline: Date.now() + 200, timeoutMs: 200 })), TimeoutError);
    assert.equal(await sandbox.run(hostless('return 1;'), call()), 1);
  });

  test('DR.solve is refused with a message naming the alternative', async () => {
    await assert.rejects(sandbox.run(hostless('return await DR.solve("x", {});'), call()), /not available here: a function node solves other decisions through decision nodes/);
  });

  test('concurrent runs each get their own answer', async () => {
    const script = hostless('globalThis.shared = input.n;\nawait 0;\nreturn [input.n, shared];');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => sandbox.run(script, call({ input: { n } }))));
    assert.deepEqual(answers, Array.from({ length: 30 }, (_, n) => [n, n]));
  });

  test('a function node uses big.js and Day.js in the warm realm, solve after solve', async () => {
    const source = [
      "import Big from 'big.js';",
      "import dayjs from 'dayjs';",
      'export const handler = async (input) => ({',
      '  total: new Big(input.a).plus(input.b).toString(),',
      "  day: dayjs('2024-03-01').add(input.days, 'day').format('YYYY-MM-DD'),",
      '  leftover: typeof globalThis.Big,',
      '});',
    ].join('\n');
    const rule = functionGraph(source);
    for (const [a, days, total, day] of [['0.1', 1, '0.3', '2024-03-02'], ['1.5', 29, '1.7', '2024-03-30']] as const) {
      const { result } = await solve(rule, { a, b: '0.2', days }, { sandbox });
      assert.deepEqual(result, [{ total, day, leftover: 'function' }]);
    }
  });

  // With one isolate the nested run gets an overflow isolate and a fresh context; with two, the idle one's realm
  // (once the first solve has made the second isolate).
  for (const isolates of [1, 2]) {
    test(`a scripting rule that solves a function-node graph through DR.solve gets its answer (nested, ${isolates} isolates)`, async () => {
      const nestedSandbox = createScriptSandbox({ maxIsolates: isolates });
      try {
        const graph = functionGraph('export const handler = (input) => ({ doubled: input.n * 2, warm: typeof eval === "undefined" });', { ruleAlias: 'graph', version: 1 });
        const outer = compileRule({ type: 'complex-rule', name: 'Outer', status: 'published', inputSchema: {}, outputSchema: {}, script: 'const [first] = await DR.solve("graph", { n: input.n });\nreturn { result: first.doubled + 1, warm: first.warm };' });
        const resolver = new MapResolver().add(graph);
        for (const n of [1, 2, 3]) {
          const solved = await solve(outer, { n }, { sandbox: nestedSandbox, resolver, deadline: Date.now() + UNHURRIED_MS });
          assert.deepEqual(solved.result, [{ result: 2 * n + 1, warm: isolates > 1 && n > 1 }]);
        }
      } finally {
        nestedSandbox.dispose();
      }
    });
  }
});
