// Parsing FEEL: names with spaces and operator characters read against the names in scope, and syntax errors
// that name the offset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeelSyntaxError, compileFeel, feelText, num, parseFeel } from '../../../src/engine/feel/index.ts';
import { show } from './helpers.ts';

test('names hold spaces; names in scope hold operator characters', () => {
  assert.equal(show('Monthly Salary * 12', { 'Monthly Salary': 1000 }), '12000');
  assert.equal(show("Applicant's age + 1", { "Applicant's age": 41 }), '42');
  assert.equal(show('Loan-Term - 1', { 'Loan-Term': 36 }), '35');
  assert.equal(show('a-b', { a: 5, b: 3 }), '2', 'without the name a-b in scope, a-b is a subtraction');
  assert.equal(show('{first name: "Ann", greeting: "Hi " + first name}.greeting'), '"Hi Ann"');
});

test('built-in functions with spaces in their names are called by them', () => {
  assert.equal(show('string length("abc")'), '3');
  assert.equal(show('day of week(date("2026-11-27"))'), '"Friday"');
  assert.equal(show('date and time("2020-01-01T10:00:00").hour'), '10');
});

test('a syntax error names what was expected and where', () => {
  const result = parseFeel('1 + (2 * 3');
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.ok(result.error instanceof FeelSyntaxError);
    assert.equal(result.error.offset, 10);
    assert.match(result.error.message, /expected "\)" but found the end of the text at offset 10/);
  }
  assert.throws(() => compileFeel('if x then 1'), (error: unknown) => error instanceof FeelSyntaxError && /expected "else"/.test(error.message));
  assert.throws(() => compileFeel('{a: 1, a: 2}'), /the context key "a" appears twice at offset 7/);
  assert.throws(() => compileFeel('@"not a date"'), /is not a date, time, date and time or duration at offset 0/);
  assert.throws(() => compileFeel('"open'), /unterminated string at offset 0/);
});

test('comments are ignored and unary tests parse in their own mode', () => {
  assert.equal(show('1 + /* two */ 2 // trailing'), '3');
  const tests = parseFeel('< 10, [20..30]', { mode: 'unaryTests' });
  assert.equal(tests.ok, true);
  const bad = parseFeel('< ', { mode: 'unaryTests' });
  assert.equal(bad.ok, false);
});

test('hostile nesting and loops are refused with a clear error or null, never a stack overflow', () => {
  assert.throws(() => compileFeel(`${'('.repeat(5000)}1${')'.repeat(5000)}`), /nests deeper than 150 levels at offset 150/);
  assert.throws(() => compileFeel(`${'-'.repeat(5000)}1`), /nests deeper than 150 levels/);
  assert.throws(() => compileFeel(`1${'+1'.repeat(100_000)}`), /deeper than 1000 operations/);
  assert.equal(show(`1${'+1'.repeat(900)}`), '901');
  assert.equal(show('for i in 1..2000000 return i'), 'null', 'a range of more than a million items is not iterated');
});

test('an undeclared name that starts with a built-in name is read whole', () => {
  assert.equal(feelText(compileFeel('sum total * 2')({ variables: { 'sum total': num(5) } })), '10', 'no names passed: read as one name');
  assert.equal(show('sum([1, 2])'), '3');
  assert.equal(show('date and time("2020-01-01T00:00:00").year'), '2020');
});
