// Property and fuzz tests: random and mutated expression text never hangs, never throws anything but a
// ValidationError at compile time, never throws at evaluation, and never executes injected code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ValidationError } from '../../src/engine/errors.ts';
import { compileExpressionText, compileStoredExpression, functionNames, type CompiledExpression } from '../../src/engine/expression/index.ts';
import { parseExpression } from '../../src/engine/expression/parser.ts';
import { printExpression } from '../../src/engine/expression/print.ts';
import { context, scopeOf } from './helpers.ts';
import { settledNow } from '../support/settled.ts';

const VARIABLES = {
  a: 3,
  s: 'text',
  list: [1, 'two', { k: 3 }, null],
  obj: { x: 1, nested: { y: [1, 2] } },
  flag: true,
  nothing: null,
  date: '2021-06-01T10:00',
};
// "Never hangs": one expression of at most 60 characters compiles and evaluates in well under a millisecond, and a
// hang (an endless loop, backtracking exponential in the length) runs for minutes. The bound sits between the two,
// far enough from the first that a loaded machine (a load average of 8 on two cores, a garbage collection) never
// reaches it.
const SLOW_MS = 10_000;

function compileOrReject(text: string): CompiledExpression | undefined {
  try {
    return compileExpressionText(text, 'fuzz');
  } catch (error) {
    if (error instanceof ValidationError) {
      assert.match(error.problems[0]!.message, /at line \d+, column \d+$/);
      return undefined;
    }
    throw error;
  }
}

/** Compiles and evaluates in every mode; only ExpressionError may escape evaluateRaw. */
function exercise(text: string): void {
  const started = performance.now();
  const compiled = compileOrReject(text);
  if (compiled) {
    const scope = scopeOf(VARIABLES);
    const ctx = context({ random: () => 0.25 });
    const value = compiled.evaluateOutput(scope, ctx);
    assert.notEqual(value, undefined);
    JSON.stringify(value);
    const outcome = settledNow(compiled.evaluateCondition(scope, ctx));
    assert.equal(typeof outcome.matched, 'boolean');
    try {
      compiled.evaluateRaw(scope, ctx);
    } catch (error) {
      assert.equal((error as Error).name, 'ExpressionError', text);
    }
  }
  const elapsed = performance.now() - started;
  assert.ok(elapsed < SLOW_MS, `${JSON.stringify(text)} took ${elapsed.toFixed(0)} ms`);
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
function assertNoPollution(): void {
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_KEYS);
  assert.equal((globalThis as Record<string, unknown>).pwned, undefined);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(([] as unknown as Record<string, unknown>).polluted, undefined);
}

const TOKENS = [
  '(', ')', '{', '}', '[', ']', ',', ':', '"', "'", '\\', '+', '-', '*', '/', '%', ' ', '\n', '.', '0', '1', '9', 'e',
  'a', 'x', 'true', 'null', '{a}', '{obj.nested.y[1]}', '{list[2].k}', '{missing}', '"str"', "'s{a}'", 'SUM(', 'IF(',
  'TEXT(', 'ARRAY_MAP(', '"x"', 'AND(', 'DATE(', 'CONCAT(', 'RE(', 'PICK(', 'SOLVE(', 'HTTP_GET(', 'NVL(', 'RAW_VALUE(',
  '__proto__', 'constructor', 'prototype', '$', '`', '${', '😀', '\u0000',
];

test('random token soup compiles or fails with a positioned ValidationError, and evaluates without throwing', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }), (tokens) => exercise(tokens.join(''))),
    { numRuns: 3000, seed: 20261121 },
  );
  assertNoPollution();
});

test('arbitrary unicode strings never crash the compiler', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => exercise(text)), { numRuns: 1000, seed: 7 });
});

const CORPUS = [
  '{basicPrice}*(1-{discount}/100)',
  'SOLVE("plant-items-example",{"group":{data}},{"strategy":"ARRAY","path":"name"})',
  '{"9":"nine",SUM(1,{a}):"three"}',
  "ARRAY_MAP([[0,0,1],[0,1,1]],'arr',COUNT(ARRAY_FILTER({arr},'x',EQ({x},1))))",
  'TEXT({"key":"Hello", "value":"World!"})',
  "'You get {a}% discount!'",
  'IF(LT(0,{a}),"Positive","Negative")',
  'DATE_FORMAT(DATE("04/16/2024 15:30 GMT+5"),"dddd, MMMM D, YYYY h:mm A")',
  'REPLACE("John Smith",RE("(\\w+)\\s(\\w+)"),"$2, $1")',
  'ARRAY_REDUCE({list},"x","y",CONCAT({x},{y}))',
];

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('insert', 'delete', 'replace'),
  token: fc.constantFrom(...TOKENS),
});

function mutate(text: string, steps: { at: number; kind: string; token: string }[]): string {
  let out = text;
  for (const step of steps) {
    const at = out.length === 0 ? 0 : step.at % (out.length + 1);
    if (step.kind === 'insert') out = out.slice(0, at) + step.token + out.slice(at);
    else if (step.kind === 'delete') out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + step.token + out.slice(at + 1);
  }
  return out;
}

test('mutated real expressions compile or fail cleanly, and evaluate without throwing', () => {
  fc.assert(
    fc.property(fc.constantFrom(...CORPUS), fc.array(mutation, { minLength: 1, maxLength: 6 }), (text, steps) => exercise(mutate(text, steps))),
    { numRuns: 3000, seed: 42 },
  );
  assertNoPollution();
});

/** Well-formed expressions from the grammar; TEXT is left out because its raw text does not re-print exactly. */
const CALLABLE = functionNames().filter((name) => name !== 'TEXT');
const expression = fc.letrec<{ expr: string; leaf: string }>((tie) => ({
  leaf: fc.oneof(
    fc.integer({ min: 0, max: 1000 }).map(String),
    fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }).map(String),
    fc.constantFrom('true', 'false', 'null', '{a}', '{s}', '{list}', '{obj.nested.y[0]}', '{missing}', '{date}', 'bare words'),
    fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  ),
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.tuple(fc.constantFrom(...CALLABLE), fc.array(tie('expr'), { maxLength: 4 })).map(([name, args]) => `${name}(${args.join(',')})`),
    fc.tuple(tie('expr'), fc.constantFrom('+', '-', '*', '/', '%'), tie('expr')).map(([a, op, b]) => `(${a})${op}(${b})`),
    tie('expr').map((e) => `-(${e})`),
    fc.array(tie('expr'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(fc.string({ maxLength: 5 }), tie('expr')), { maxLength: 3 }).map(
      (members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`,
    ),
  ),
}));

test('generated well-formed expressions evaluate without throwing and survive print/re-parse', () => {
  fc.assert(
    fc.property(expression.expr, (text) => {
      exercise(text);
      let ast;
      try {
        ast = parseExpression(text);
      } catch {
        return; // e.g. a string key containing a quote the generator escaped differently
      }
      const printed = printExpression(ast);
      assert.equal(printExpression(parseExpression(printed)), printed);
    }),
    { numRuns: 2000, seed: 99 },
  );
});

test('injection attempts are data: no code runs, no prototype changes', () => {
  const attempts = [
    'constructor.constructor("return process")()',
    'constructor.constructor("globalThis.pwned = 1")()',
    '{constructor.constructor}',
    '{__proto__}',
    '{__proto__.polluted}',
    '{obj.__proto__.polluted}',
    '{obj.constructor.prototype}',
    'PICK({obj},"__proto__")',
    'PICK({obj},"constructor.prototype")',
    'PICK({},"__proto__.toString")',
    '{"__proto__":{"polluted":true}}',
    '{{k}:{"polluted":true}}',
    'ARRAY_MAP([1],"__proto__",{__proto__})',
    'ARRAY_MAP([1],"constructor",{constructor})',
    'STRINGFORMAT("{constructor}")',
    '"${globalThis.pwned = 1}"',
    'TEXT(${process.exit(1)})',
    '`${process.exit(1)}`',
    'SOLVE("__proto__",{})',
    'LOOKUP_VALUE("constructor","x")',
    'RE("(?<a>x)").constructor',
    'SUM(constructor)',
    '"); process.exit(1); ("',
  ];
  const scope = scopeOf({ ...VARIABLES, k: '__proto__' });
  for (const text of attempts) {
    const compiled = compileOrReject(text);
    if (!compiled) continue;
    const value = compiled.evaluateOutput(scope, context());
    assert.ok(value === null || typeof value !== 'function', text);
    assert.notEqual(value, Object.prototype, text);
    assertNoPollution();
  }
  const proto = compileExpressionText('{"__proto__":{"polluted":true}}', 'x').evaluateOutput(scope, context()) as object;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.equal(compileExpressionText('{__proto__}', 'x').evaluateOutput(scopeOf({}), context()), null);
  assert.equal(compileExpressionText('PICK({obj},"constructor")', 'x').evaluateOutput(scope, context()), null);
});

test('stored ASTs with hostile shapes compile or fail with ValidationError', () => {
  const stored = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('{a}', '"quoted"', '12', '__proto__', '{__proto__}'),
      fc.record({ functionName: fc.constantFrom(...CALLABLE, 'EVAL', 'TIMES_CHAR', 'NOPE', '', 'constructor'), parameters: fc.array(tie('node'), { maxLength: 3 }) }),
      fc.dictionary(fc.constantFrom('_kvp_0', '__proto__', 'k', 'functionName'), tie('node'), { maxKeys: 2 }),
    ),
  }));
  fc.assert(
    fc.property(stored.node, (value) => {
      let compiled: CompiledExpression;
      try {
        compiled = compileStoredExpression({ value }, 'cell');
      } catch (error) {
        assert.ok(error instanceof ValidationError, String(error));
        return;
      }
      const result = compiled.evaluateOutput(scopeOf(VARIABLES), context());
      assert.notEqual(result, undefined);
      assertNoPollution();
    }),
    { numRuns: 1500, seed: 3 },
  );
});
