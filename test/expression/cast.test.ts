// Output casting (spec/rule-format.md §2.10, §11 C7, C8) and the three evaluation modes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { castExpressionOutput, castSimpleValueText, compileExpressionText, ExpressionError } from '../../src/engine/expression/index.ts';
import { context, out, raw, scopeOf } from './helpers.ts';
import { settledNow } from '../support/settled.ts';

test('string results that are decimal literals or true/false are cast; nothing else is', () => {
  assert.equal(castExpressionOutput('12'), 12);
  assert.equal(castExpressionOutput('0001'), 1);
  assert.equal(castExpressionOutput('-2.50'), -2.5);
  assert.equal(castExpressionOutput('1e3'), 1000);
  assert.equal(castExpressionOutput('true'), true);
  assert.equal(castExpressionOutput('false'), false);
  assert.equal(castExpressionOutput(' 12'), ' 12');
  assert.equal(castExpressionOutput('1e999'), '1e999');
  assert.equal(castExpressionOutput('True'), 'True');
  assert.equal(castExpressionOutput('{"a":1}'), '{"a":1}');
  assert.equal(castExpressionOutput('[1]'), '[1]');
  assert.equal(castExpressionOutput('null'), 'null');
  assert.equal(castExpressionOutput(''), '');
  assert.deepEqual(castExpressionOutput({ a: '1' }), { a: '1' });
  assert.equal(castExpressionOutput(/a/g), '/a/g');
});

test('the simple-value cast JSON-parses cell text (data-types table)', () => {
  assert.equal(castSimpleValueText('true'), true);
  assert.equal(castSimpleValueText('"true"'), 'true');
  assert.equal(castSimpleValueText('25.0'), 25);
  assert.equal(castSimpleValueText('25.01'), 25.01);
  assert.equal(castSimpleValueText('""'), '');
  assert.equal(castSimpleValueText(''), '');
  assert.equal(castSimpleValueText('hello world'), 'hello world');
  assert.deepEqual(castSimpleValueText('{"data":"123"}'), { data: '123' });
  assert.deepEqual(castSimpleValueText('[12, 36, "542", [1,2] ]'), [12, 36, '542', [1, 2]]);
  assert.equal(castSimpleValueText('[12,36,"542"'), '[12,36,"542"');
});

test('evaluateOutput casts, evaluateRaw does not', () => {
  assert.equal(out('CONCAT(1,2)'), 12);
  assert.equal(raw('CONCAT(1,2)'), '12');
  assert.equal(out('"6.00"'), 6);
  assert.equal(out('6.00'), 6);
  assert.equal(out('"true"'), true);
  assert.equal(out('"N/A"'), 'N/A');
});

test('evaluateRaw throws ExpressionError with the reason; evaluateOutput gives null', () => {
  const compiled = compileExpressionText('ABS("a")', 'x');
  assert.equal(compiled.evaluateOutput(scopeOf(), context()), null);
  assert.throws(
    () => compiled.evaluateRaw(scopeOf(), context()),
    (error: unknown) => error instanceof ExpressionError && error.message === 'ABS: "a" is not a number' && error.source === 'ABS("a")',
  );
});

test('an expression that does not wait answers directly from every method, never with a promise', () => {
  const compiled = compileExpressionText('IF(GT({a},1),CONCAT("x",{a}),RAW_VALUE("01"))', 'x');
  assert.equal(compiled.async, false);
  assert.equal(settledNow(compiled.evaluateOutput(scopeOf({ a: 5 }), context())), 'x5');
  assert.equal(settledNow(compiled.evaluateRaw(scopeOf({ a: 0 }), context())), '01');
  assert.deepEqual(settledNow(compiled.evaluateCondition(scopeOf({ a: 5 }), context())), { matched: false, error: 'the condition gave "x5", not a boolean' });
  assert.throws(() => compileExpressionText('{nope}', 'x').evaluateRaw(scopeOf(), context()), ExpressionError);
});

test('a compiled expression is reusable and keeps no state between evaluations', () => {
  const compiled = compileExpressionText('ARRAY_MAP({xs},"x",{x}*{k})', 'x');
  assert.deepEqual(compiled.evaluateOutput(scopeOf({ xs: [1, 2], k: 2 }), context()), [2, 4]);
  assert.equal(compiled.evaluateOutput(scopeOf({ xs: 'no', k: 2 }), context()), null);
  assert.deepEqual(compiled.evaluateOutput(scopeOf({ xs: [3], k: 3 }), context()), [9]);
});
