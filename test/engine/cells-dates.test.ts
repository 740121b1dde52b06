// Date cells (§2.11, §11 D1–D3): formats, partial values anchored to the solve's `now`, zones, legacy objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCondition, DYNAMIC, parseDateText, instantOf, RuleScope, staticResolver } from '../../src/engine/cells/index.ts';
import type { Problem } from '../../src/engine/errors.ts';
import { context } from './table-helpers.ts';
import { settledNow } from '../support/settled.ts';

const TODAY_BEFORE = Date.UTC(2024, 8, 20, 12, 0); // 2024-09-20 12:00 UTC
const TODAY_AFTER = Date.UTC(2024, 8, 30, 12, 0);

function dateCheck(operator: string, value: unknown, left: unknown, options: { now?: number; zone?: string; input?: unknown } = {}): boolean {
  const problems: Problem[] = [];
  const condition = compileCondition(
    { operator, value, type: 'date' },
    'cell',
    { timeZone: options.zone ?? 'UTC', resolveStatic: staticResolver(new Map(), () => false) },
    problems,
  );
  assert.deepEqual(problems, []);
  return settledNow(condition.test(left, new RuleScope(options.input ?? {}, new Map()), context({ now: options.now ?? TODAY_BEFORE })));
}

test('every documented cell format parses to the same instant', () => {
  const at = (text: string): number => instantOf(parseDateText(text)!, TODAY_BEFORE, 'UTC');
  assert.equal(at('2024-05-15 01:25 +00:00'), Date.UTC(2024, 4, 15, 1, 25));
  assert.equal(at('2024-05-15 01:25:02 +00:00'), Date.UTC(2024, 4, 15, 1, 25, 2));
  assert.equal(at('2024-05-15 +02:00'), Date.UTC(2024, 4, 14, 22, 0));
  assert.equal(at('01:25 +00:00'), Date.UTC(2024, 8, 20, 1, 25), 'a time alone is today');
  assert.equal(at('01:25:02 -01:00'), Date.UTC(2024, 8, 20, 2, 25, 2));
  assert.equal(at('+00:00'), Date.UTC(2024, 8, 20), 'a zone alone is today at midnight');
  assert.equal(at('2024-09-24T09:27:00+02:00'), Date.UTC(2024, 8, 24, 7, 27));
  assert.equal(at('2024-09-24T09:27:00.250Z'), Date.UTC(2024, 8, 24, 9, 27, 0, 250));
  assert.equal(at('2024-09-24 09:27 GMT+3'), Date.UTC(2024, 8, 24, 6, 27));
  assert.equal(at('2024-01-15 10:00 Europe/Prague'), Date.UTC(2024, 0, 15, 9, 0), 'an IANA zone name (CET, +01:00)');
  assert.equal(at('2024-07-15 10:00 Europe/Prague'), Date.UTC(2024, 6, 15, 8, 0), 'summer time (+02:00)');
});

test('text that is not a date is rejected', () => {
  for (const text of ['', 'tomorrow', '2024-13-01', '2024-02-30', '25:00 +00:00', '2024-01-01 Mars/Olympus', '12/01/2024']) {
    assert.equal(parseDateText(text), undefined, text);
  }
});

test('a missing time means midnight: a date-only cell is not equal to a time on that day (§2.11)', () => {
  assert.equal(dateCheck('=', '2024-09-24 +02:00', '2024-09-24 09:27 +02:00'), false);
  assert.equal(dateCheck('>', '2024-09-24 +02:00', '2024-09-24 09:27 +02:00'), true);
  assert.equal(dateCheck('=', '2024-09-24 +02:00', '2024-09-24 00:00 +02:00'), true);
  assert.equal(dateCheck('=', '2024-09-24 09:27 +02:00', '2024-09-24T07:27:00Z'), true, 'instants, not texts, are compared');
});

test('a value without a date means today in its own offset, so results follow the solve time (§11 D1)', () => {
  // "2024-09-24 09:27 +02:00" > "09:27 +02:00" is true only while 2024-09-24 is after today.
  assert.equal(dateCheck('>', '09:27 +02:00', '2024-09-24 09:27 +02:00', { now: TODAY_BEFORE }), true);
  assert.equal(dateCheck('>', '09:27 +02:00', '2024-09-24 09:27 +02:00', { now: TODAY_AFTER }), false);
  assert.equal(dateCheck('=', '14:30 +04:00', '14:30 +04:00'), true, 'a partial input equals the same partial cell');
  // Late evening UTC is already the next day at +04:00.
  const lateEvening = Date.UTC(2024, 8, 20, 22, 0);
  assert.equal(dateCheck('=', '2024-09-21 01:00 +04:00', '01:00 +04:00', { now: lateEvening }), true);
});

test('comparisons, IN and the between family work on instants with inclusive bounds', () => {
  const range = ['2024-01-01 00:00 +00:00', '2024-12-31 23:59 +00:00'];
  assert.equal(dateCheck('between', range, '2024-01-01T00:00:00Z'), true);
  assert.equal(dateCheck('between', range, '2025-01-01T00:00:00Z'), false);
  assert.equal(dateCheck('betweenLeftOpen', range, '2024-01-01T00:00:00Z'), false);
  assert.equal(dateCheck('betweenRightOpen', range, '2024-12-31T23:59:00Z'), false);
  assert.equal(dateCheck('notBetween', range, '2023-06-01 +00:00'), true);
  assert.equal(dateCheck('notBetween', range, '2024-06-01 +00:00'), false);
  assert.equal(dateCheck('<', '2024-06-01 +00:00', '2024-05-31 23:59 +00:00'), true);
  assert.equal(dateCheck('<=', '2024-06-01 +00:00', '2024-06-01 +00:00'), true);
  assert.equal(dateCheck('>=', '2024-06-01 +00:00', '2024-05-31 +00:00'), false);
  assert.equal(dateCheck('<>', '2024-06-01 +00:00', '2024-06-02 +00:00'), true);
  assert.equal(dateCheck('IN', ['2024-06-01 +00:00', '2024-06-02 +00:00'], '2024-06-02T00:00:00Z'), true);
  assert.equal(dateCheck('NOT IN', ['2024-06-01 +00:00'], '2024-06-02T00:00:00Z'), true);
});

test('the legacy {date, time, timezone} object is accepted as cell value and as input', () => {
  const legacy = { date: '2024-09-23', time: '13:27', timezone: '+02:00' };
  assert.equal(dateCheck('=', legacy, '2024-09-23 13:27 +02:00'), true);
  assert.equal(dateCheck('=', '2024-09-23T11:27:00Z', legacy), true);
  assert.equal(dateCheck('=', { date: '2024-09-23', timezone: '+00:00' }, '2024-09-23T00:00:00Z'), true, 'time is optional');
});

test('a value without zone uses the configured zone (§11 D3)', () => {
  assert.equal(dateCheck('=', '2024-01-15 10:00', '2024-01-15T09:00:00Z', { zone: 'Europe/Prague' }), true);
  assert.equal(dateCheck('=', '2024-01-15 10:00', '2024-01-15T10:00:00Z', { zone: 'UTC' }), true);
  assert.equal(dateCheck('=', '2024-01-15 10:00 +00:00', '2024-01-15 11:00', { zone: 'Europe/Prague' }), true, 'inputs too');
});

test('inputs that are not dates make value-comparing operators false, and NULL operators see nulls', () => {
  for (const operator of ['=', '<>', '<', '>', 'NOT IN']) {
    const value = operator === 'NOT IN' ? ['2024-01-01 +00:00'] : '2024-01-01 +00:00';
    assert.equal(dateCheck(operator, value, 'not a date'), false, operator);
    assert.equal(dateCheck(operator, value, undefined), false, `${operator} missing`);
    assert.equal(dateCheck(operator, value, null), false, `${operator} null`);
  }
  assert.equal(dateCheck('isNull', '', undefined), true);
  assert.equal(dateCheck('isNotNull', '', '2024-01-01'), true);
  assert.equal(dateCheck('anything', '', 'garbage'), true);
  assert.equal(dateCheck('=', '1970-01-01T00:00:01Z', 1000), true, 'a number is epoch milliseconds');
});

test('date cells resolve {variables} per solve', () => {
  assert.equal(dateCheck('<', '{deadline}', '2024-06-01 +00:00', { input: { deadline: '2024-06-02 +00:00' } }), true);
  assert.equal(dateCheck('<', '{deadline}', '2024-06-03 +00:00', { input: { deadline: '2024-06-02 +00:00' } }), false);
  assert.equal(dateCheck('<', '{deadline}', '2024-06-03 +00:00', { input: { deadline: 'soon' } }), false, 'a variable that is not a date');
});

test('a date cell that cannot be parsed, or a non-date operator, is reported with its path', () => {
  const problems: Problem[] = [];
  const env = { timeZone: 'UTC', resolveStatic: () => DYNAMIC };
  compileCondition({ operator: '=', value: 'next tuesday', type: 'date' }, 'rows[0].cells[2].scalarCondition', env, problems);
  compileCondition({ operator: 'between', value: ['2024-01-01', 'x'], type: 'date' }, 'b', env, problems);
  compileCondition({ operator: 'containsText', value: '2024', type: 'date' }, 'c', env, problems);
  assert.deepEqual(problems.map((p) => p.path), ['rows[0].cells[2].scalarCondition.value', 'b.value[1]', 'c.operator']);
  assert.match(problems[0]!.message, /"next tuesday" is not a date/);
});
