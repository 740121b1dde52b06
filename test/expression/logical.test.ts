// Logical functions, spec/rule-format.md §4.9.2, §4.6 (lazy IF/AND/OR), §11 C5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpressionText } from '../../src/engine/expression/index.ts';
import { context, matches, out, scopeOf } from './helpers.ts';
import { settledNow } from '../support/settled.ts';

test('EQ / EQUAL coerce numeric strings and compare objects deeply; null and {} are accepted', () => {
  assert.equal(out('EQ(10,"10")'), true);
  assert.equal(out('EQ(10,"aa")'), false);
  assert.equal(out('EQ([1,3],{input2})', { input2: [1, 3] }), true);
  assert.equal(out('EQ({"price":10},{"price":11})'), false);
  assert.equal(out('EQ(1, "1")'), true);
  assert.equal(out('EQUAL(1, 1)'), true);
  assert.equal(out('EQ(null, {missing})'), true);
  assert.equal(out('EQ({}, {})'), true);
  assert.equal(out('EQ(true, "true")'), true);
  assert.equal(out('EQ(10)'), null);
});

test('NE / NOT_EQUAL', () => {
  assert.equal(out('NE("a","b")'), true);
  assert.equal(out('NE(3,"3")'), false);
  assert.equal(out('NOT_EQUAL(1,2)'), true);
  assert.equal(out('NE(1)'), null);
});

test('GT, GTE, LT, LTE compare numbers, or strings alphabetically', () => {
  assert.equal(out('GT("b","a")'), true);
  assert.equal(out('LTE(20,20)'), true);
  assert.equal(out('LT(2, 6)'), true);
  assert.equal(out('GTE("10", 9)'), true);
  assert.equal(out('GT("10", "9")'), true);
  assert.equal(out('LESS({loan},{max})', { loan: 100, max: 200 }), true);
  assert.equal(out('GREATER(1,2)'), false);
  assert.equal(out('LESS_EQUAL(2,2)'), true);
  assert.equal(out('GREATER_EQUAL(1,2)'), false);
  assert.equal(out('GT(null,1)'), null);
  assert.equal(out('LT({"a":1},1)'), null);
  assert.equal(matches('GT({missing},1)'), false);
});

test('BTW and its open / negated variants test the middle argument', () => {
  assert.equal(out('BTW(10,15,20)'), true);
  assert.equal(out('BTW(20,10,15)'), false);
  assert.equal(out('BTW("a","f","z")'), true);
  assert.equal(out('BTW(10,10,20)'), true);
  assert.equal(out('NOT_BTW(10,5,20)'), true);
  assert.equal(out('NOT_BTW(10,15,20)'), false);
  assert.equal(out('BTW_LEFT_OPEN(10,10,20)'), false);
  assert.equal(out('BTW_LEFT_OPEN(10,20,20)'), true);
  assert.equal(out('BTW_RIGHT_OPEN(10,10,20)'), true);
  assert.equal(out('BTW_RIGHT_OPEN(10,20,20)'), false);
  assert.equal(out('BTW(1,null,3)'), null);
  assert.equal(out('BTW(1,2)'), null);
});

test('AND and OR accept arrays, numbers and null; strings are invalid', () => {
  assert.equal(out('AND([true,true,true])'), true);
  assert.equal(out('AND(1,true)'), true);
  assert.equal(out('AND(0,true)'), false);
  assert.equal(out('AND("a","b")'), null);
  assert.equal(out('AND(true, null)'), false);
  assert.equal(out('OR(false,EQ(10,10))'), true);
  assert.equal(out('OR(false,[false,0])'), false);
  assert.equal(out('OR({missing}, true)'), true);
  assert.equal(out('AND()'), null);
});

test('AND and OR stop at the deciding argument without validating the rest', () => {
  assert.equal(out('OR(true, "not a boolean", 1/0)'), true);
  assert.equal(out('AND(false, "not a boolean")'), false);
  assert.equal(out('OR(false, "not a boolean")'), null);
});

test('IS_NULL and IS_NOT_NULL', () => {
  assert.equal(out('IS_NULL({})'), true);
  assert.equal(out('IS_NULL([])'), true);
  assert.equal(out('IS_NULL(null)'), true);
  assert.equal(out('IS_NULL("null")'), true);
  assert.equal(out('IS_NULL({missing})'), true);
  assert.equal(out('IS_NULL(3)'), false);
  assert.equal(out('IS_NULL("")'), false);
  assert.equal(out('IS_NULL(0)'), false);
  assert.equal(out('IS_NOT_NULL("abc")'), true);
  assert.equal(out('IS_NOT_NULL({missing})'), false);
  assert.equal(out('IS_NULL()'), null);
});

test('NVL picks the default for null-like values and the third argument otherwise', () => {
  assert.equal(out('NVL("null","d")'), 'd');
  assert.equal(out('NVL([],"d")'), 'd');
  assert.equal(out('NVL("v","d","nn")'), 'nn');
  assert.equal(out('NVL("v","d")'), 'v');
  assert.equal(out('NVL({missing},"d")'), 'd');
  assert.equal(out('NVL("v", 1/0)'), 'v');
  assert.equal(out('NVL("v")'), null);
});

test('NOT', () => {
  assert.equal(out('NOT(LT(1,4))'), false);
  assert.equal(out('NOT(false)'), true);
  assert.equal(out('NOT("false")'), true);
  assert.equal(out('NOT("maybe")'), null);
});

test('IF evaluates only the chosen branch and needs a boolean condition', () => {
  assert.equal(out('IF(LT(0,{number}),"Positive","Negative")', { number: 8 }), 'Positive');
  assert.equal(out('IF(LT(0,{number}),"Positive","Negative")', { number: -1 }), 'Negative');
  assert.equal(out('IF(true, 1, 1/0)'), 1);
  assert.equal(out('IF(false, {missing}, 2)'), 2);
  assert.equal(out('IF(false, 1)'), null);
  assert.equal(out('IF("yes", 1, 2)'), null);
  assert.equal(out('IF(1, 1, 2)'), null);
  assert.equal(out('IF({c}, "a", "b")', { c: 'true' }), 'a');
});

test('REGEXP (deprecated TEST)', () => {
  assert.equal(out('REGEXP(12233,23)'), true);
  assert.equal(out('REGEXP("hello","ho")'), false);
  assert.equal(out('REGEXP("a","(")'), null);
});

test('function conditions match only boolean true; failures and non-booleans are false with a reason', () => {
  const ctx = context();
  assert.deepEqual(compileExpressionText('EQ(1, "1")', 'c').evaluateCondition(scopeOf(), ctx), { matched: true });
  assert.deepEqual(compileExpressionText('LT(5, 2)', 'c').evaluateCondition(scopeOf(), ctx), { matched: false });
  const text = settledNow(compileExpressionText('"true"', 'c').evaluateCondition(scopeOf(), ctx));
  assert.equal(text.matched, false);
  assert.match(text.error!, /not a boolean/);
  const failed = settledNow(compileExpressionText('LESS({loan},{max})', 'c').evaluateCondition(scopeOf({ loan: 1 }), ctx));
  assert.equal(failed.matched, false);
  assert.match(failed.error!, /\{max\} is not defined/);
});
