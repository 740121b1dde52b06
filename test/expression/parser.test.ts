// Syntax of the expression language, spec/rule-format.md §4.1–4.6, and compile errors with positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/engine/errors.ts';
import { compileExpressionText, compileStoredExpression } from '../../src/engine/expression/index.ts';
import { parseExpression } from '../../src/engine/expression/parser.ts';
import { printExpression } from '../../src/engine/expression/print.ts';
import { context, out, raw, scopeOf } from './helpers.ts';

test('literals: numbers, booleans, null, strings in either quote with escapes', () => {
  assert.equal(raw('12.1'), 12.1);
  assert.equal(raw('4.20'), 4.2);
  assert.equal(raw('.5'), 0.5);
  assert.equal(raw('true'), true);
  assert.equal(raw('false'), false);
  assert.equal(raw('null'), null);
  assert.equal(raw(`'ab"cd'`), 'ab"cd');
  assert.equal(raw(`"ab'cd"`), "ab'cd");
  assert.equal(raw('"ab\\\\cd"'), 'ab\\cd');
  assert.equal(raw('"say \\"hi\\""'), 'say "hi"');
  assert.equal(raw("'it\\'s'"), "it's");
  assert.equal(raw('"\\d+"'), '\\d+');
  assert.equal(raw('"22"'), '22');
  assert.equal(raw(''), '');
  assert.equal(raw('   '), '');
});

test('bare words are strings that keep inner spaces', () => {
  assert.equal(raw('Western Europe'), 'Western Europe');
  assert.equal(raw('  Job will be run  '), 'Job will be run');
  assert.equal(raw('Thanks for your first order!'), 'Thanks for your first order!');
  assert.equal(raw('Notebook Blue A5'), 'Notebook Blue A5');
  assert.equal(raw("It's fine"), "It's fine");
  assert.equal(raw('4 apples'), '4 apples');
  assert.equal(raw('2nd'), '2nd');
  assert.equal(raw('1.2.3'), '1.2.3');
  assert.equal(raw('Note: important'), 'Note: important');
  assert.equal(raw('True'), 'True');
  assert.deepEqual(raw('CONCAT(Hello World, x)'), 'Hello Worldx');
});

test('a bare word with an operator character is arithmetic on text, which is invalid', () => {
  assert.equal(out('plant-items-example'), null);
  assert.equal(out('N/A'), null);
});

test('variables: dotted paths, [n] indexes, spaces around the path', () => {
  const vars = { client: { age: 30, 'first name': 'Ann' }, order: [{ price: 5 }, { price: 11 }] };
  assert.equal(raw('{client.age}', vars), 30);
  assert.equal(raw('{ client . age }', vars), 30);
  assert.equal(raw('{order[1].price}', vars), 11);
  assert.equal(raw('{client.first name}', vars), 'Ann');
  assert.deepEqual(raw('{order}', vars), vars.order);
});

test('an unresolved variable makes the expression invalid', () => {
  assert.equal(out('{missing}'), null);
  assert.equal(out('SUM({missing},1)'), null);
  assert.throws(() => raw('{missing}+1'), { name: 'ExpressionError', message: '{missing} is not defined' });
});

test('quoted strings interpolate {var}; unknown references and regex quantifiers stay literal', () => {
  assert.equal(out("'You get {discount}% discount!'", { discount: 15 }), 'You get 15% discount!');
  assert.equal(out('"1 equals \'1\', and absolute value of -2 is {calcVar}"', { calcVar: 2 }), "1 equals '1', and absolute value of -2 is 2");
  assert.equal(out('"obj {o}"', { o: { a: 1 } }), 'obj {"a":1}');
  assert.equal(out('"hello {nobody}"'), 'hello {nobody}');
  assert.equal(out('"^\\d{5}$"'), '^\\d{5}$');
  assert.equal(out('"a{2,3}"'), 'a{2,3}');
});

test('strings inside JSON literals are not interpolated (JSON_Example row 2)', () => {
  assert.deepEqual(out('{"animal":"{data}"}', { data: 'cat' }), { animal: '{data}' });
  assert.deepEqual(out('["{data}"]', { data: 'cat' }), ['{data}']);
  assert.deepEqual(out('{"price":"SUM(1,{data})"}', { data: 2 }), { price: 'SUM(1,{data})' });
  assert.deepEqual(out('{"a":CONCAT("{data}")}', { data: 'cat' }), { a: 'cat' });
});

test('JSON literals with expression members and computed keys (§4.5)', () => {
  assert.deepEqual(out('{"animal":{data}}', { data: 'cat' }), { animal: 'cat' });
  assert.deepEqual(out('{"price":SUM(1,{data})}', { data: 2 }), { price: 3 });
  assert.deepEqual(out('{"animals":["dog",{data},"bird"]}', { data: 'cat' }), { animals: ['dog', 'cat', 'bird'] });
  assert.deepEqual(out('{{data}:["dog","cat","bird"]}', { data: 'animals' }), { animals: ['dog', 'cat', 'bird'] });
  assert.deepEqual(out('{"9":"nine",SUM(1,{data}):"three"}', { data: 2 }), { '9': 'nine', '3': 'three' });
  const pets = [{ name: 'dog', legs: 4 }, { name: 'snake', legs: 0 }];
  assert.deepEqual(out('{"animals":{data},"number":COUNT({data})}', { data: pets }), { animals: pets, number: 2 });
  assert.deepEqual(out('{"group":"plant"}'), { group: 'plant' });
  assert.deepEqual(out('[1,2,3,4]'), [1, 2, 3, 4]);
  assert.deepEqual(out('{}'), {});
  assert.deepEqual(out('[]'), []);
  assert.deepEqual(out('{"a":1,"a":2}'), { a: 2 });
  assert.deepEqual(out('{a: hello world, "b": [x, 2]}'), { a: 'hello world', b: ['x', 2] });
  assert.deepEqual(out('{"n":{"m":{"k":[{"z":null}]}}}'), { n: { m: { k: [{ z: null }] } } });
});

test('a __proto__ key is stored as data and never changes prototypes', () => {
  const value = out('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.deepEqual(JSON.parse(JSON.stringify(value)), { ['__proto__']: { polluted: true } });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('results built from constants are fresh objects each time', () => {
  const compiled = compileExpressionText('{"a":{"b":1}}', 'x');
  const first = compiled.evaluateOutput(scopeOf(), context()) as { a: Record<string, unknown> };
  first.a.c = 2;
  assert.deepEqual(compiled.evaluateOutput(scopeOf(), context()), { a: { b: 1 } });
});

test('function names are case-insensitive and may have spaces before the bracket', () => {
  assert.equal(out('sum(1,2)'), 3);
  assert.equal(out('SUM (1, 2)'), 3);
  assert.equal(out('  SUM( 1 ,\n 2 )  '), 3);
});

test('the associativity option reproduces DecisionRules right-to-left grouping', () => {
  const right = { associativity: 'right' as const };
  const evalWith = (text: string): unknown => compileExpressionText(text, 'x', right).evaluateOutput(scopeOf({ a: 50, b: 20 }), context());
  assert.equal(evalWith('10 - 5 - 2'), 7);
  assert.equal(out('10 - 5 - 2'), 3);
  assert.equal(evalWith('100 / 10 / 5'), 50);
  assert.equal(evalWith('{a}*(100-{b})/100'), 40);
  assert.equal(evalWith('2*3+4'), 10);
  assert.equal(evalWith('8 - 2 * 3 - 1'), 3);
  assert.equal(printExpression(parseExpression('a*b/c', 'right')), printExpression(parseExpression('a*(b/c)', 'left')));
  assert.equal(printExpression(parseExpression('a*b/c', 'left')), '("a"*"b")/"c"');
});

test('syntax errors are ValidationErrors naming the place, reason, line and column', () => {
  const cases: [string, RegExp][] = [
    ['SUM(1,2', /missing '\)' to close SUM\( at line 1, column 4/],
    ['"abc', /unterminated string at line 1, column 1/],
    ['1 +', /expected a value but found end of expression at line 1, column 4/],
    ['SUM(1,,2)', /unexpected ',' at line 1, column 7/],
    [')', /unexpected '\)' without a matching '\(' at line 1, column 1/],
    ['{"a" 1}', /expected ':' after an object key but found '1' at line 1, column 6/],
    ['[1 "b"]', /expected ',' or '\]' in an array but found '"' at line 1, column 4/],
    ['[1 2', /missing '\]' for the '\[' here at line 1, column 1/],
    ['{"a":1', /missing '}' for the '{' here at line 1, column 1/],
    ['"a" "b"', /unexpected '"' at line 1, column 5/],
    ['SUM(1,\n  NOPE(2))', /unknown function NOPE at line 2, column 3/],
    ['hello there (world)', /unexpected '\(' \(only function names may be followed by '\('\) at line 1, column 13/],
    ['hello (world)', /unknown function HELLO at line 1, column 1/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => compileExpressionText(text, 'rows[0].cells[2]'), (error: unknown) => {
      assert.ok(error instanceof ValidationError, text);
      assert.equal(error.problems.length, 1);
      assert.equal(error.problems[0]!.path, 'rows[0].cells[2]');
      assert.match(error.problems[0]!.message, message, text);
      return true;
    });
  }
});

test('a stored cell reports errors under its stringValue path', () => {
  assert.throws(
    () => compileStoredExpression({ stringValue: 'SUM(1', value: null }, 'decisionTable.rows[1].cells[0].outputScalarValue'),
    /decisionTable\.rows\[1\]\.cells\[0\]\.outputScalarValue\.stringValue: missing '\)' to close SUM\( at line 1, column 4/,
  );
});

test('wrong argument counts are invalid at run time, not compile errors (§4.8)', () => {
  assert.equal(out('ABS()'), null);
  assert.throws(() => raw('EQ(10)'), /EQ expects 2 arguments, got 1/);
});

test('nesting is limited instead of overflowing the stack', () => {
  assert.equal(out(`${'('.repeat(150)}1${')'.repeat(150)}`), 1);
  assert.throws(() => compileExpressionText(`${'('.repeat(500)}1${')'.repeat(500)}`, 'x'), /nests deeper than 200 levels/);
  assert.throws(() => compileExpressionText(`${'-'.repeat(500)}1`, 'x'), /nests deeper than 200 levels/);
  assert.throws(() => compileExpressionText(`${'['.repeat(500)}`, 'x'), ValidationError);
});

test('the source of a compiled expression is its text', () => {
  assert.equal(compileExpressionText('SUM(1, 2)', 'x').source, 'SUM(1, 2)');
});

test('very long operator chains are rejected at compile time instead of overflowing the stack', () => {
  assert.equal(out(`${'1+'.repeat(900)}1`), 901);
  assert.throws(() => compileExpressionText(`${'1+'.repeat(20000)}1`, 'x'), /expression is too deep: more than 1000 nested operations/);
});

test('deeply nested input data never makes evaluation throw', () => {
  let deep: unknown = 1;
  let twin: unknown = 1;
  for (let i = 0; i < 100000; i++) {
    deep = [deep];
    twin = [twin];
  }
  assert.equal(out('[{d}, [1]]', { d: deep }), null);
  assert.equal(out('EQ({d}, {e})', { d: deep, e: twin }), null);
  assert.equal(out('COUNT({d})', { d: deep }), 1);
});
