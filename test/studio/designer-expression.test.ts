// The expression editor's highlighting tokens and inline problems come from the engine's lexer and parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expressionProblems, tokenizeExpression } from '../../studio/src/designer/model/expression.ts';

function tokens(text: string): string[] {
  return tokenizeExpression(text).map((t) => `${t.type}:${text.slice(t.from, t.to)}`);
}

test('tokens: functions, variables, strings, numbers, keywords and bare words', () => {
  assert.deepEqual(tokens('IF(LT({client.age}, 18), "minor", Adult person)'), [
    'function:IF', 'punctuation:(', 'function:LT', 'punctuation:(', 'variable:{client.age}', 'punctuation:,', 'number:18',
    'punctuation:)', 'punctuation:,', 'string:"minor"', 'punctuation:,', 'word:Adult person', 'punctuation:)',
  ]);
  assert.deepEqual(tokens('{a}*(1-{b}/100) % 2'), [
    'variable:{a}', 'operator:*', 'punctuation:(', 'number:1', 'operator:-', 'variable:{b}', 'operator:/', 'number:100', 'punctuation:)', 'operator:%', 'number:2',
  ]);
  assert.deepEqual(tokens('{"k": true, "n": null}'), ['punctuation:{', 'string:"k"', 'punctuation::', 'keyword:true', 'punctuation:,', 'string:"n"', 'punctuation::', 'keyword:null', 'punctuation:}']);
  assert.deepEqual(tokens('NOPE(1)'), ['unknownFunction:NOPE', 'punctuation:(', 'number:1', 'punctuation:)']);
  assert.deepEqual(tokens('"unterminated'), ['string:"unterminated']);
  assert.deepEqual(tokens(''), []);
});

test('tokens cover arbitrary text without throwing or looping', () => {
  for (const text of ['(((', '}}}', '{', '"\\', "'a", ',,', ':', '-', '1.2.3', 'a\tb\nc', '[1,{x}]']) {
    const list = tokenizeExpression(text);
    for (const t of list) assert.ok(t.from >= 0 && t.to <= text.length && t.to > t.from, text);
  }
});

test('problems: the parser\'s error at its position', () => {
  assert.deepEqual(expressionProblems('SUM(1, 2'), [{ from: 3, to: 4, message: "missing ')' to close SUM(", severity: 'error' }]);
  const [unexpected] = expressionProblems('1 + )');
  assert.equal(unexpected!.from, 4);
  assert.match(unexpected!.message, /unexpected '\)'/);
  const [string] = expressionProblems('CONCAT("abc');
  assert.equal(string!.message, 'unterminated string');
  assert.equal(string!.from, 7);
});

test('problems: unknown functions and wrong argument counts', () => {
  const [unknown] = expressionProblems('1 + FOO(2)');
  assert.deepEqual([unknown!.from, unknown!.to, unknown!.message], [4, 7, 'unknown function FOO']);
  const [arity] = expressionProblems('ROUND(1, 2, 3)');
  assert.deepEqual([arity!.from, arity!.to, arity!.message], [0, 5, 'ROUND expects 1 to 2 arguments, got 3']);
  assert.equal(expressionProblems('ABS()')[0]!.message, 'ABS expects 1 argument, got 0');
});

test('valid expressions have no problems', () => {
  for (const text of ['', 'Western Europe', '{basicPrice}*(1-{discount}/100)', 'ARRAY_MAP({data},"x",{x}/0.5)', '{"group":{data}}', 'TEXT(Hello, World!)', 'EQUAL(1, "1")']) {
    assert.deepEqual(expressionProblems(text), [], text);
  }
});

test('the signature line follows the call the cursor is in', async () => {
  const { callAt } = await import('../../studio/src/designer/model/expression.ts');
  const text = 'ROUND(SUM(1, 2), 1)';
  assert.equal(callAt(text, 6)!.name, 'ROUND');
  assert.equal(callAt(text, 11)!.name, 'SUM');
  assert.equal(callAt(text, 17)!.name, 'ROUND', 'after SUM(...) closes');
  assert.equal(callAt(text, text.length), undefined);
  assert.equal(callAt('IF([1, {x}', 9)!.name, 'IF', 'arrays and variables inside arguments');
});
