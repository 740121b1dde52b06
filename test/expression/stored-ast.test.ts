// The stored `value` form (spec/rule-format.md §4.7): the parser test vectors evaluate the same from
// `stringValue` and from the stored AST; internal names, EVAL, _kvp_ and the parameter string rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StoredExpression } from '../../src/engine/expression/index.ts';
import { ValidationError } from '../../src/engine/errors.ts';
import { compileStoredExpression } from '../../src/engine/expression/index.ts';
import { context, scopeOf } from './helpers.ts';

const vars = {
  basicPrice: 100,
  discount: 15,
  prices: { crudePrice: 8 },
  PromoDiscount: 30,
  regularDiscount: 10,
  data: [1, 3, 7],
  item: { price: 450 },
  items_unavailable: 'pen, ink',
  key: 'animals',
  n: 2,
};

function fromStored(stored: StoredExpression): unknown {
  return compileStoredExpression(stored, 'cell').evaluateOutput(scopeOf(vars), context());
}

const m = (functionName: string, ...parameters: unknown[]): Record<string, unknown> => ({ functionName, parameters });

/** [stringValue, stored value, expected output with `vars`] — the §4.7 vectors. */
const VECTORS: [string, unknown, unknown][] = [
  ['{basicPrice}*(1-{discount}/100)', { ...m('TIMES_CHAR', '{basicPrice}', { ...m('MINUS_CHAR', 1, m('DIVIDED_CHAR', '{discount}', 100)), isInBrackets: true }) }, 85],
  ['{prices.crudePrice}*(100-{PromoDiscount})/100', m('TIMES_CHAR', '{prices.crudePrice}', m('DIVIDED_CHAR', { ...m('MINUS_CHAR', 100, '{PromoDiscount}'), isInBrackets: true }, 100)), 5.6],
  ['ABS(-2)', m('ABS', m('MINUS_CHAR', 2)), 2],
  ['{regularDiscount}+5', m('PLUS_CHAR', '{regularDiscount}', 5), 15],
  ['ARRAY_MAP({data},"x",{x}/0.5)', m('ARRAY_MAP', '{data}', 'x', m('DIVIDED_CHAR', '{x}', '0.5')), [2, 6, 14]],
  ['LTE(PICK({item},"price"),500)', m('LESS_EQUAL', m('PICK', '{item}', 'price'), '500'), true],
  ['EQ(1, "1")', m('EQUAL', 1, '1'), true],
  ['{{key}:["dog","cat","bird"]}', { _kvp_0: { key: m('EVAL', '{key}'), value: ['dog', 'cat', 'bird'] } }, { animals: ['dog', 'cat', 'bird'] }],
  ['{"9":"nine",SUM(1,{n}):"three"}', { '9': 'nine', _kvp_1: { key: m('SUM', '1', '{n}'), value: 'three' } }, { '9': 'nine', '3': 'three' }],
  [
    'CONCAT("Thank you: ",{items_unavailable},". We appreciate it.")',
    m('CONCAT', '"Thank you: "', '{items_unavailable}', '. We appreciate it.'),
    'Thank you:pen, ink. We appreciate it.',
  ],
  ['"Thank you for your order!"', 'Thank you for your order!', 'Thank you for your order!'],
  ["'You get {discount}% discount!'", "'You get {discount}% discount!'", 'You get 15% discount!'],
  ['4.20', 4.2, 4.2],
  ['true', true, true],
  ['0', 0, 0],
  ['{"group":"plant"}', { group: 'plant' }, { group: 'plant' }],
  ['[1,2,3,4]', [1, 2, 3, 4], [1, 2, 3, 4]],
  ['Western Europe', 'Western Europe', 'Western Europe'],
  ['{"animal":{key}}', { animal: m('EVAL', '{key}') }, { animal: 'animals' }],
  ['{"animal":"{key}"}', { animal: '{key}' }, { animal: '{key}' }],
  ['{"n":"500"}', { n: '500' }, { n: '500' }],
  ['TIMES(12, TIMES(3, {n}))', m('TIMES', 12, m('TIMES', 3, '{n}')), 72],
  ['CONCAT("{PromoDiscount}","% discount")', m('CONCAT', '"{PromoDiscount}"', '"% discount"'), '30% discount'],
  ['{prices.crudePrice}', '{prices.crudePrice}', 8],
];

test('every §4.7 vector gives the same result from stringValue and from the stored value', () => {
  for (const [stringValue, value, expected] of VECTORS) {
    assert.deepEqual(fromStored({ stringValue, value }), expected, `stringValue ${stringValue}`);
    assert.deepEqual(fromStored({ value }), expected, `stored value of ${stringValue}`);
    assert.deepEqual(fromStored({ stringValue: null, value }), expected, `stored value (null stringValue) of ${stringValue}`);
  }
});

test('stored SOLVE arguments keep their quotes inside the string and unquote to the alias', () => {
  const solve = m('SOLVE', '"plant-items-example"', { group: m('EVAL', '{data}') }, { strategy: 'ARRAY', path: 'name' });
  const compiled = compileStoredExpression({ value: solve }, 'cell');
  assert.deepEqual(compiled.ruleRefs, [{ idOrAlias: 'plant-items-example' }]);
  assert.equal(compiled.async, true);
});

test('legacy operator names with other argument counts stay callable', () => {
  assert.equal(fromStored({ value: m('TIMES', 2, 3, 4) }), 24);
  assert.equal(fromStored({ value: m('TIMES_CHAR', 2, 3, 4) }), 24);
  assert.equal(fromStored({ value: m('MINUS', 0, m('POW', 2, 2)) }), -4);
  assert.equal(fromStored({ value: m('DIVIDED', 1, 4) }), 0.25);
  assert.equal(fromStored({ value: m('GREATER', m('TIMES', '{n}', 3), 0) }), true);
  assert.equal(fromStored({ value: m('NOT_EQUAL', 1, 2) }), true);
  assert.equal(fromStored({ value: m('GREATER_EQUAL', 2, 2) }), true);
  assert.equal(fromStored({ value: m('MODULO_CHAR', 7, 4) }), 3);
});

test('stored parameter strings: number text is a number, quoted text a string, bare text a string', () => {
  assert.equal(fromStored({ value: m('SUM', '1', '2') }), 3);
  assert.equal(fromStored({ value: m('CONCAT', '"1"', '"2"') }), 12);
  assert.equal(fromStored({ value: m('LEN', 'price') }), 5);
  assert.equal(fromStored({ value: m('LEN', "'price'") }), 5);
  assert.equal(fromStored({ value: m('EQ', 'true', true) }), true);
  assert.equal(fromStored({ value: m('TEXT', '"Hello, World!"') }), 'Hello, World!');
  assert.equal(fromStored({ value: '' }), '');
  assert.equal(fromStored({}), '');
});

test('an empty stringValue yields "" even when value holds something else', () => {
  assert.equal(fromStored({ stringValue: '', value: 'ignored' }), '');
});

test('unknown functions and malformed nodes in a stored AST are reported with their JSON path', () => {
  assert.throws(
    () => compileStoredExpression({ value: m('SUM', 1, m('FROBNICATE', 2)) }, 'rows[0].cells[1].outputScalarValue'),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.deepEqual(error.problems, [
        { path: 'rows[0].cells[1].outputScalarValue.value.parameters[1].functionName', message: 'unknown function FROBNICATE' },
      ]);
      return true;
    },
  );
  assert.throws(() => compileStoredExpression({ value: { functionName: 7, parameters: [] } }, 'c'), /c\.value\.functionName: functionName must be a non-empty string/);
  assert.throws(() => compileStoredExpression({ value: { functionName: 'SUM', parameters: 'x' } }, 'c'), /c\.value\.parameters: parameters must be an array/);
});

test('deeply nested stored ASTs are rejected instead of overflowing the stack', () => {
  let node: unknown = 1;
  for (let i = 0; i < 1000; i++) node = m('ABS', node);
  assert.throws(() => compileStoredExpression({ value: node }, 'c'), /nests deeper than 200 levels/);
});

test('the source of a stored AST is a rendering of it', () => {
  const compiled = compileStoredExpression({ value: m('TIMES_CHAR', '{basicPrice}', m('MINUS_CHAR', 1, m('DIVIDED_CHAR', '{discount}', 100))) }, 'c');
  assert.equal(compiled.source, '{basicPrice}*(1-({discount}/100))');
});

test('a stringValue that does not parse falls back to the stored AST, but not to a plain value', () => {
  assert.equal(fromStored({ stringValue: 'SUM(1,2', value: m('SUM', 1, 2) }), 3);
  assert.throws(() => compileStoredExpression({ stringValue: 'SUM(1,2', value: 'SUM(1,2' }, 'cell'), /cell\.stringValue: missing '\)'/);
});
