// Every general operator of spec/rule-format.md §2.7–2.9 with its documented examples and the edge cases of
// §2.8 (missing vs empty vs null, {} and [] as NULL).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCondition, DYNAMIC, staticResolver, RuleScope, type CellEnvironment } from '../../src/engine/cells/index.ts';
import type { Problem } from '../../src/engine/errors.ts';
import { context } from './table-helpers.ts';
import { settledNow } from '../support/settled.ts';

const MISSING = Symbol('missing');

const env: CellEnvironment = { timeZone: 'UTC', resolveStatic: () => DYNAMIC };

/** Evaluates one condition cell against a left operand (MISSING = the input has no such key). */
function check(operator: string, value: unknown, left: unknown, options: { variables?: Record<string, unknown>; input?: unknown } = {}): boolean {
  const problems: Problem[] = [];
  const variables = new Map(Object.entries(options.variables ?? {}));
  const condition = compileCondition({ operator, value, type: 'general' }, 'cell', { timeZone: 'UTC', resolveStatic: staticResolver(variables, () => false) }, problems);
  assert.deepEqual(problems, []);
  const scope = new RuleScope(options.input ?? {}, variables);
  return settledNow(condition.test(left === MISSING ? undefined : left, scope, context()));
}

test('anything matches every value, even a missing one', () => {
  for (const left of [MISSING, null, '', 0, 'x', {}, []]) assert.equal(check('anything', '', left), true);
});

test('= compares numbers, booleans and text with the coercions of §2.7', () => {
  assert.equal(check('=', '3', 3), true);
  assert.equal(check('=', '3', '3'), true);
  assert.equal(check('=', 3, '3'), true);
  assert.equal(check('=', '2.31', 2.31), true);
  assert.equal(check('=', '3.0', '3'), true);
  assert.equal(check('=', 'true', true), true);
  assert.equal(check('=', true, 'true'), true);
  assert.equal(check('=', '2', true), false, 'true = 2 is false');
  assert.equal(check('=', 'a', 'a'), true);
  assert.equal(check('=', 'a', 'A'), false, 'text equality is case-sensitive');
  assert.equal(check('=', 'a', ' a'), false, 'and space-sensitive');
  assert.equal(check('=', 'TRUE', true), false, 'only lower-case true/false are boolean-like');
});

test('= with an empty cell matches only the empty string: not missing, null, 0 or false', () => {
  assert.equal(check('=', '', ''), true);
  assert.equal(check('=', '', MISSING), false);
  assert.equal(check('=', '', null), false);
  assert.equal(check('=', '', 0), false);
  assert.equal(check('=', '', false), false);
  assert.equal(check('=', '', {}), false);
  assert.equal(check('=', '', []), false);
});

test('= never matches a missing or null input, whatever the cell', () => {
  assert.equal(check('=', 'null', null), false);
  assert.equal(check('=', 'x', MISSING), false);
});

test('= compares objects and arrays deeply with JSON text in the cell (§11 C4)', () => {
  assert.equal(check('=', '{"a":1,"b":[1,2]}', { b: [1, 2], a: 1 }), true);
  assert.equal(check('=', '{"a":1}', { a: 2 }), false);
  assert.equal(check('=', '[]', []), true);
  assert.equal(check('=', 'not json', { a: 1 }), false);
});

test('one pair of quotes around the cell text is removed', () => {
  assert.equal(check('=', '"abc"', 'abc'), true);
  assert.equal(check('=', "'abc'", 'abc'), true);
  assert.equal(check('=', '"abc', '"abc'), true);
});

test('<> is the negation of = for present values, and false for missing or null (§11 C2)', () => {
  assert.equal(check('<>', '3', '3'), false);
  assert.equal(check('<>', '3', 3), false);
  assert.equal(check('<>', '4', 3), true);
  assert.equal(check('<>', 'false', true), true);
  assert.equal(check('<>', 'x', MISSING), false);
  assert.equal(check('<>', 'x', null), false);
  assert.equal(check('<>', 'x', ''), true);
  assert.equal(check('<>', 'x', {}), true, '{} is a present value for <>');
});

test('< <= > >= order numbers, booleans and text (§2.7, §11 C1)', () => {
  assert.equal(check('<', '3', 3), false);
  assert.equal(check('<', 'b', 'a'), true);
  assert.equal(check('<', 'true', false), true);
  assert.equal(check('<=', 'a', 'a'), true);
  assert.equal(check('<=', 'true', false), true);
  assert.equal(check('>', '5', 5), false);
  assert.equal(check('>', 'false', true), true);
  assert.equal(check('>=', 'true', true), true);
  assert.equal(check('<', '9', '10'), false, 'numeric strings compare as numbers, not text');
  assert.equal(check('>', '9', '10'), true);
  assert.equal(check('>', '5', 'abc'), false, 'text that is not numeric cannot be ordered against a number');
  assert.equal(check('<', '5', 'abc'), false);
  assert.equal(check('<', '2', 10), false);
  assert.equal(check('>=', '-1.5', '-1.5'), true);
});

test('comparisons are false for missing, null and object inputs', () => {
  for (const operator of ['<', '<=', '>', '>=']) {
    assert.equal(check(operator, '5', MISSING), false, `${operator} missing`);
    assert.equal(check(operator, '5', null), false, `${operator} null`);
    assert.equal(check(operator, '5', { a: 1 }), false, `${operator} object`);
  }
});

test('IN and NOT IN test exact membership with coercion, never substrings', () => {
  assert.equal(check('IN', ['1', '2', '3'], '3'), true);
  assert.equal(check('IN', ['1', '2', '3'], 3), true);
  assert.equal(check('IN', ['la-la', 'blah'], 'la'), false);
  assert.equal(check('IN', ['true', 'x'], true), true);
  assert.equal(check('IN', [], 'x'), false);
  assert.equal(check('IN', ['a'], MISSING), false);
  assert.equal(check('NOT IN', ['1', '2', '3'], 4), true);
  assert.equal(check('NOT IN', ['1', '2', '3'], '3'), false);
  assert.equal(check('NOT IN', ['1'], MISSING), false);
  assert.equal(check('NOT IN', ['1'], null), false);
  assert.equal(check('NOT IN', [], 'x'), true);
});

test('a set typed as text is split on |, then , then ;', () => {
  assert.equal(check('IN', '1|2|3', 2), true);
  assert.equal(check('IN', 'a, b, c', 'b'), true);
  assert.equal(check('IN', 'a;b', 'b'), true);
  assert.equal(check('IN', 'a|b,c', 'b,c'), true, '| wins over ,');
  assert.equal(check('IN', ['"a"', "'b'"], 'b'), true, 'members lose one pair of quotes');
});

test('the between family honours open and closed bounds', () => {
  assert.equal(check('between', ['3', '5'], 3), true);
  assert.equal(check('between', ['3', '5'], 5), true);
  assert.equal(check('between', ['3', '5'], 6), false);
  assert.equal(check('between', ['a', 'c'], 'a'), true);
  assert.equal(check('between', ['true', 'false'], true), false);
  assert.equal(check('betweenLeftOpen', ['3', '5'], 3), false);
  assert.equal(check('betweenLeftOpen', ['3.0', '5.5'], 5.5), true);
  assert.equal(check('betweenRightOpen', ['3', '5'], 5), false);
  assert.equal(check('betweenRightOpen', ['false', 'true'], false), true);
  assert.equal(check('notBetween', ['3', '5'], 2), true);
  assert.equal(check('notBetween', ['3', '5'], 4), false);
  assert.equal(check('notBetween', ['false', 'true'], false), false);
  // NOT BETWEEN is the negation of BETWEEN: a present value that cannot be ordered against the bounds is outside.
  assert.equal(check('between', ['3', '5'], 'abc'), false);
  assert.equal(check('notBetween', ['3', '5'], 'abc'), true, 'text that is not numeric against numeric bounds');
  assert.equal(check('notBetween', ['3', '5'], true), true, 'a boolean against numeric bounds');
  assert.equal(check('notBetween', ['a', 'c'], 4), true, 'a number against text bounds');
  assert.equal(check('notBetween', ['3', '5'], '4'), false, 'numeric text is still a number');
  assert.equal(check('between', ['0', '15'], '7'), true, 'numeric string input');
});

test('the between family is false for missing and null inputs, notBetween included', () => {
  for (const operator of ['between', 'betweenLeftOpen', 'betweenRightOpen', 'notBetween']) {
    assert.equal(check(operator, ['1', '5'], MISSING), false, operator);
    assert.equal(check(operator, ['1', '5'], null), false, operator);
  }
});

test('containsText looks for one substring in the text of the input or of each element', () => {
  assert.equal(check('containsText', '1', [11, 2, 3]), true);
  assert.equal(check('containsText', '1,2,3', 'This is 1,2,3 with true.'), true);
  assert.equal(check('containsText', 'true or false', 'This is false or true.'), false);
  assert.equal(check('containsText', 'ru', true), true, 'text of a boolean');
  assert.equal(check('containsText', 'a', MISSING), false);
  assert.equal(check('containsText', 'Ab', 'cab'), false, 'case-sensitive');
  assert.equal(check('containsText', ['x', 'is'], 'this'), true, 'a set behaves like containsIn (§11 F3)');
});

test('containsIn, notContainsIn and equalArray follow the documented examples', () => {
  assert.equal(check('containsIn', ['true', '3'], [1, 2, 3]), true);
  assert.equal(check('containsIn', ['true', 'false'], ['true or falseee', 'haha']), true);
  assert.equal(check('containsIn', ['test', '2'], 'This is 1 with true.'), false);
  assert.equal(check('notContainsIn', ['true', '3'], [1, 2, 3]), false);
  assert.equal(check('notContainsIn', ['2', '3', '4'], 'This is 1 with true.'), true);
  assert.equal(check('notContainsIn', ['2'], MISSING), false);
  assert.equal(check('equalArray', ['1', '11', '111'], [1111, 111]), true);
  assert.equal(check('equalArray', ['1', '2', '3', '4', '6'], [1, 2, 3, 4, 5]), false);
  assert.equal(check('equalArray', ['1'], '1'), false, 'equalArray needs an array input');
});

test('isNull is true for missing, null, {} and []; isNotNull is its exact negation', () => {
  const nulls = [MISSING, null, {}, []];
  const present = ['', 0, false, 'a', 3, { a: 1 }, [0]];
  for (const left of nulls) {
    assert.equal(check('isNull', '', left), true);
    assert.equal(check('isNotNull', '', left), false);
  }
  for (const left of present) {
    assert.equal(check('isNull', '', left), false);
    assert.equal(check('isNotNull', '', left), true);
  }
});

test('cell values resolve {rule variables}, {input paths} and variables holding whole sets', () => {
  assert.equal(check('=', '{PromoCode}', 'SUMMER SALE', { variables: { PromoCode: 'SUMMER SALE' } }), true);
  assert.equal(check('<>', '{PromoCode}', 'X', { variables: { PromoCode: 'SUMMER SALE' } }), true);
  assert.equal(check('IN', ['{PromoCode}', 'BUSINESS SALE'], 'BUSINESS SALE', { variables: { PromoCode: 'SUMMER SALE' } }), true);
  assert.equal(check('IN', ['{PromoCode}', 'BUSINESS SALE'], 'SUMMER SALE', { variables: { PromoCode: 'SUMMER SALE' } }), true);
  assert.equal(check('IN', '{codes}', 'b', { variables: { codes: ['a', 'b'] } }), true, 'a variable holding an array is the set');
  assert.equal(check('<=', '{limits.max}', 10, { input: { limits: { max: 12 } } }), true, '{input.path} read per solve');
  assert.equal(check('<=', '{limits.max}', 13, { input: { limits: { max: 12 } } }), false);
  assert.equal(check('between', ['{lo}', '{hi}'], 5, { input: { lo: 1, hi: '5' } }), true);
  assert.equal(check('=', 'code-{suffix}', 'code-7', { input: { suffix: 7 } }), true, 'references mixed with text');
  assert.equal(check('=', '{unknown}', '{unknown}'), true, 'an unresolved reference stays literal text');
});

test('operator names from the editor are accepted, unknown ones are reported with their path', () => {
  assert.equal(check('!=', '3', 4), true);
  assert.equal(check('BTW', ['1', '3'], 2), true);
  assert.equal(check('not in', ['1'], 2), true);
  const problems: Problem[] = [];
  compileCondition({ operator: 'betwen', value: ['1', '2'] }, 'decisionTable.rows[3].cells[1].scalarCondition', env, problems);
  assert.deepEqual(problems, [{ path: 'decisionTable.rows[3].cells[1].scalarCondition.operator', message: 'unknown operator "betwen"' }]);
});

test('malformed operands are reported: a between without two bounds, a list for a scalar operator', () => {
  const problems: Problem[] = [];
  compileCondition({ operator: 'between', value: ['1'] }, 'c1', env, problems);
  compileCondition({ operator: '=', value: ['1', '2'] }, 'c2', env, problems);
  compileCondition({ operator: '=', value: '1', type: 'datetime' }, 'c3', env, problems);
  assert.deepEqual(
    problems.map((p) => p.path),
    ['c1.value', 'c2.value', 'c3.type'],
  );
  assert.match(problems[0]!.message, /two bounds/);
});

test('a condition without type is general, and operator "function" without type is a function cell', () => {
  const problems: Problem[] = [];
  const legacy = compileCondition({ value: '', operator: 'anything' }, 'c', env, problems);
  assert.equal(legacy.test(undefined, undefined, context()), true);
  const less = compileCondition({ operator: 'function', value: { functionName: 'LESS', parameters: ['{a}', '{b}'] } }, 'fc', env, problems);
  assert.deepEqual(problems, []);
  assert.equal(less.kind, 'function');
  assert.equal(less.test(undefined, new RuleScope({ a: 1, b: 2 }, new Map()), context()), true);
  assert.equal(less.test(undefined, new RuleScope({ a: 3, b: 2 }, new Map()), context()), false);
  assert.deepEqual(settledNow(less.explain(undefined, new RuleScope({ a: 'x', b: 2 }, new Map()), context())).result, false);
});

test('a function cell with a syntax error is reported at its stringValue', () => {
  const problems: Problem[] = [];
  compileCondition({ operator: 'function', type: 'function', stringValue: 'LESS({a},', value: null }, 'rows[1].cells[0].scalarCondition', env, problems);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.path, 'rows[1].cells[0].scalarCondition.stringValue');
});
