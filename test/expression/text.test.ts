// Text functions, spec/rule-format.md §4.9.3, §4.6 (TEXT), §11 Fn1, Fn3, Fn8.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { out, raw } from './helpers.ts';

test('CONCAT trims each argument, accepts arrays; the output cast makes numeric text a number', () => {
  assert.equal(out('CONCAT("pine","apple")'), 'pineapple');
  assert.equal(out('CONCAT(1,2)'), 12);
  assert.equal(out('CONCAT(1+1,"nd")'), '2nd');
  assert.equal(out('CONCAT(["a","b","c"])'), 'abc');
  assert.equal(out('CONCAT("The value is: ",10)'), 'The value is:10');
  assert.equal(out('CONCAT("{PromoDiscount}","% discount")', { PromoDiscount: 30 }), '30% discount');
  assert.equal(out('CONCAT({o})', { o: { a: 1 } }), '{"a":1}');
  assert.equal(out('CONCAT()'), null);
  assert.equal(out('CONCAT({missing}, "x")'), null);
});

test('CONCAT_WS joins without trimming', () => {
  assert.equal(out('CONCAT_WS("+","he","ll","o")'), 'he+ll+o');
  assert.equal(out('CONCAT_WS("separator","word")'), 'word');
  assert.equal(out('CONCAT_WS("!",["a","b","c"])'), 'a!b!c');
  assert.equal(out('CONCAT_WS("-"," a ","b")'), ' a -b');
  assert.equal(out('CONCAT_WS("x")'), null);
});

test('LEN, UPPER_CASE, LOWER_CASE', () => {
  assert.equal(out('LEN(555)'), 3);
  assert.equal(out('LEN("")'), 0);
  assert.equal(out('UPPER_CASE("2ae3")'), '2AE3');
  assert.equal(out('LOWER_CASE("AbC")'), 'abc');
  assert.equal(out('LEN()'), null);
});

test('LEFT and RIGHT default to one character', () => {
  assert.equal(out('LEFT("abcd",2)'), 'ab');
  assert.equal(out('LEFT("abcd")'), 'a');
  assert.equal(out('RIGHT("abcd",2)'), 'cd');
  assert.equal(out('RIGHT("")'), '');
  assert.equal(out('RIGHT("abc",0)'), '');
  assert.equal(out('RIGHT("abc",10)'), 'abc');
  assert.equal(out('LEFT("abc",-1)'), null);
  assert.equal(out('LEFT("abc","x")'), null);
});

test('TRIM, TRIM_LEFT, TRIM_RIGHT', () => {
  assert.equal(out('TRIM(" abcd ")'), 'abcd');
  assert.equal(out('TRIM_LEFT(" abcd ")'), 'abcd ');
  assert.equal(out('TRIM_RIGHT(" abcd ")'), ' abcd');
});

test('SUBSTR uses 1-based inclusive positions', () => {
  assert.equal(out('SUBSTR("ab123ABCD",3,5)'), 123);
  assert.equal(raw('SUBSTR("ab123ABCD",3,5)'), '123');
  assert.equal(out('SUBSTR("ab123ABCD",6,6)'), 'A');
  assert.equal(out('SUBSTR("ab123ABCD",0,5)'), 'ab123');
  assert.equal(out('SUBSTR("ab123ABCD",3)'), '123ABCD');
  assert.equal(out('SUBSTR("abc")'), null);
  assert.equal(out('SUBSTR("abc","x")'), null);
});

test('RE builds a regular expression value; TEST, MATCH, REPLACE, SPLIT use it', () => {
  assert.equal(out('RE("[A-Z]","g")'), '/[A-Z]/g');
  assert.ok(raw('RE("[A-Z]","g")') instanceof RegExp);
  assert.equal(out('RE("(")'), null);
  assert.equal(out('RE("a","q")'), null);
  assert.equal(out('TEST("Hello, World!","[A-Z]")'), true);
  assert.equal(out('TEST("Hello, World!",RE("h[ae]llo"))'), false);
  assert.equal(out('TEST("12345","^\\d{5}$")'), true);
  assert.equal(out('TEST("x", null)'), null);
});

test('a global RE value gives the same answer on every evaluation (no lastIndex state)', () => {
  assert.equal(out('AND(TEST("ab",RE("a","g")), TEST("ab",RE("a","g")))'), true);
  assert.deepEqual(out('ARRAY_MAP([1,2,3],"x",TEST("aaa",RE("a","g")))'), [true, true, true]);
});

test('MATCH', () => {
  assert.deepEqual(out('MATCH("Hello, World!","[A-Z]")'), ['H', 'W']);
  assert.deepEqual(out('MATCH("Hello, World!",RE("[A-Z]"))'), ['H']);
  assert.equal(out('MATCH("Hello, World!",RE("l{3}"))'), null);
  assert.deepEqual(out('MATCH("ab",RE("(a)(x)?"))'), ['a', 'a', null]);
});

test('REPLACE replaces globally for a plain pattern and supports $n', () => {
  assert.equal(out('REPLACE("Hello, World!","ll","zz")'), 'Hezzo, World!');
  assert.equal(out('REPLACE("John Smith",RE("(\\w+)\\s(\\w+)"),"$2, $1")'), 'Smith, John');
  assert.equal(out('REPLACE("Hello World","o","a")'), 'Hella Warld');
  assert.equal(out('REPLACE("a","b")'), null);
});

test('SPLIT', () => {
  assert.deepEqual(out('SPLIT("Hello, World!","ll")'), ['He', 'o, World!']);
  assert.deepEqual(out('SPLIT("Hello, World!",RE("[A-Z]","g"))'), ['', 'ello, ', 'orld!']);
  assert.equal(out('SPLIT("a",{o})', { o: { a: 1 } }), null);
});

test('SPLIT: a plain text separator is a regular expression with the global flag, as DecisionRules documents', () => {
  assert.deepEqual(out('SPLIT("Hello, World! Hello","l{2}")'), ['He', 'o, World! He', 'o']);
  assert.deepEqual(out('SPLIT({t},{sep})', { t: 'a1b22c', sep: '[0-9]+' }), ['a', 'b', 'c']);
  assert.deepEqual(out('SPLIT("1.5.2","\\.")'), ['1', '5', '2']); // a literal dot is escaped, as in any pattern
  assert.deepEqual(out('SPLIT("1.5.2",".")'), ['', '', '', '', '', '']);
  assert.deepEqual(out('SPLIT("a, b",", ")'), ['a', 'b']);
  assert.deepEqual(out('SPLIT("abc","")'), ['a', 'b', 'c']);
});

test('SPLIT with an invalid pattern is an invalid cell naming the function and the pattern, not a crash', () => {
  assert.equal(out('SPLIT("a(b","(")'), null);
  assert.throws(() => raw('SPLIT("a(b","(")'), { name: 'ExpressionError', message: /SPLIT: invalid regular expression "\(": / });
  assert.equal(out('SPLIT("a[b",{sep})', { sep: '[' }), null);
});

test('TEXT returns the raw source of its argument', () => {
  assert.equal(out('TEXT(Hello, World!)'), 'Hello, World!');
  assert.equal(out("TEXT('Hello, World!')"), 'Hello, World!');
  assert.equal(out('TEXT("^\\d{5}$")'), '^\\d{5}$');
  assert.equal(out('TEXT(TEXT())'), 'TEXT()');
  assert.equal(out('TEXT({"key":"Hello", "value":"World!"})'), '{"key":"Hello", "value":"World!"}');
  assert.equal(out('TEXT({missing})'), '{missing}');
  assert.throws(() => out('TEXT(a)b)'), /unexpected 'b' at line 1, column 8/);
  assert.throws(() => out('TEXT(abc'), /missing '\)' to close TEXT\(/);
  assert.equal(out("TEXT(It's)"), "It's");
  assert.equal(out('TEXT(true)'), true);
  assert.equal(out('RAW_VALUE(TEXT(true))'), 'true');
});

test('STRINGFORMAT substitutes references in text known only at run time', () => {
  assert.equal(out('STRINGFORMAT("Hello,World")'), 'Hello,World');
  assert.equal(out('STRINGFORMAT({t})', { t: 'Hi {name}, {unknown}', name: 'Ann' }), 'Hi Ann, {unknown}');
});
