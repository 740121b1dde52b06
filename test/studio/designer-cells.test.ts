// Cell values: the operator editor's form, the one-line text used in the grid and on the clipboard, and the
// operator catalog (every operator of the rule format, with the value editor each needs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cellFromText,
  cellText,
  conditionText,
  parseConditionText,
  readCondition,
  readResult,
  splitList,
  splitPair,
  withOperator,
  writeCondition,
} from '../../studio/src/designer/model/cells.ts';
import { OPERATOR_CATALOG, operatorsFor } from '../../studio/src/designer/model/operators.ts';
import { OPERATOR_NAMES } from '../../src/rules/operators.ts';
import { validateRuleDocument } from '../../src/rules/validate.ts';
import { blankTable, setCellValue } from '../../studio/src/designer/model/table.ts';

test('the catalog covers every operator the validator accepts, with a fitting value editor', () => {
  assert.deepEqual(OPERATOR_CATALOG.map((e) => e.name).sort(), [...OPERATOR_NAMES].sort());
  const editor = Object.fromEntries(OPERATOR_CATALOG.map((e) => [e.name, e.editor]));
  assert.equal(editor.anything, 'none');
  assert.equal(editor.isNull, 'none');
  assert.equal(editor.isNotNull, 'none');
  assert.equal(editor.ELSE, 'none');
  assert.equal(editor['='], 'single');
  assert.equal(editor.containsText, 'single');
  for (const op of ['between', 'betweenLeftOpen', 'betweenRightOpen', 'notBetween']) assert.equal(editor[op], 'pair');
  for (const op of ['IN', 'NOT IN', 'containsIn', 'notContainsIn', 'equalArray']) assert.equal(editor[op], 'list');
  assert.equal(editor.function, 'expression');
});

test('date conditions offer only the date operators', () => {
  const date = operatorsFor('date').map((e) => e.name);
  assert.ok(date.includes('between') && date.includes('>=') && date.includes('ELSE'));
  assert.ok(!date.includes('containsText') && !date.includes('equalArray'));
  assert.ok(!operatorsFor('general').some((e) => e.name === 'function'), 'function is chosen as a cell type, not in the list');
});

const ROUND_TRIPS: [string, object][] = [
  ['', { operator: 'anything', value: '', type: 'general' }],
  ['basic', { operator: '=', value: 'basic', type: 'general' }],
  ['In stock', { operator: '=', value: 'In stock', type: 'general' }],
  ['=', { operator: '=', value: '', type: 'general' }],
  ['!= {PromoCode}', { operator: '<>', value: '{PromoCode}', type: 'general' }],
  ['>= 18', { operator: '>=', value: '18', type: 'general' }],
  ['< 3', { operator: '<', value: '3', type: 'general' }],
  ['IN a|b|c', { operator: 'IN', value: ['a', 'b', 'c'], type: 'general' }],
  ['!IN x|y', { operator: 'NOT IN', value: ['x', 'y'], type: 'general' }],
  ['BTW [10, 30]', { operator: 'between', value: ['10', '30'], type: 'general' }],
  ['BTW LO [0, 15]', { operator: 'betweenLeftOpen', value: ['0', '15'], type: 'general' }],
  ['BTW RO [0, 15]', { operator: 'betweenRightOpen', value: ['0', '15'], type: 'general' }],
  ['!BTW [1, 2]', { operator: 'notBetween', value: ['1', '2'], type: 'general' }],
  ['C TXT 1,2,3', { operator: 'containsText', value: '1,2,3', type: 'general' }],
  ['C IN true|3', { operator: 'containsIn', value: ['true', '3'], type: 'general' }],
  ['!C IN 2|3', { operator: 'notContainsIn', value: ['2', '3'], type: 'general' }],
  ['EQ ARR 1|11', { operator: 'equalArray', value: ['1', '11'], type: 'general' }],
  ['NULL', { operator: 'isNull', value: '', type: 'general' }],
  ['!NULL', { operator: 'isNotNull', value: '', type: 'general' }],
  ['ELSE', { operator: 'ELSE', value: '', type: 'general' }],
  ['DATE >= 2024-05-15 01:25 +00:00', { operator: '>=', value: '2024-05-15 01:25 +00:00', type: 'date' }],
  ['DATE BTW [2024-01-01 +01:00, 2024-12-31 +01:00]', { operator: 'between', value: ['2024-01-01 +01:00', '2024-12-31 +01:00'], type: 'date' }],
  ['fx LESS({loan}, {max})', { operator: 'function', type: 'function', value: 'LESS({loan}, {max})', stringValue: 'LESS({loan}, {max})' }],
];

test('condition text round-trips for every operator', () => {
  for (const [text, stored] of ROUND_TRIPS) {
    assert.deepEqual(writeCondition(parseConditionText(text)), stored, `parse ${JSON.stringify(text)}`);
    assert.equal(conditionText(stored), text, `render ${JSON.stringify(stored)}`);
  }
});

test('a value that looks like an operator is written with an explicit "="', () => {
  const stored = { operator: '=', value: 'IN transit', type: 'general' };
  assert.equal(conditionText(stored), '= IN transit');
  assert.deepEqual(writeCondition(parseConditionText('= IN transit')), stored);
});

test('typing accepts stored names, labels and the other separators', () => {
  assert.deepEqual(writeCondition(parseConditionText('between 1;5')), { operator: 'between', value: ['1', '5'], type: 'general' });
  assert.deepEqual(writeCondition(parseConditionText('NOT IN a, b')), { operator: 'NOT IN', value: ['a', 'b'], type: 'general' });
  assert.deepEqual(writeCondition(parseConditionText('ANY')), { operator: 'anything', value: '', type: 'general' });
  assert.deepEqual(writeCondition(parseConditionText('<>x')), { operator: '<>', value: 'x', type: 'general' });
  assert.deepEqual(writeCondition(parseConditionText('DATE C TXT x')), { operator: 'containsText', value: 'x', type: 'general' }, 'no text operators on dates');
});

test('legacy cells are read: untyped, string sets, legacy date objects and stored ASTs', () => {
  assert.deepEqual(readCondition({ operator: 'IN', value: 'a|b' }).values, ['a', 'b']);
  assert.deepEqual(readCondition({ operator: 'IN', value: '{codes}' }).values, ['{codes}']);
  assert.deepEqual(readCondition({ operator: '=', type: 'date', value: { date: '2024-09-24', time: '09:27', timezone: '+02:00' } }).values, ['2024-09-24 09:27 +02:00']);
  const fn = readCondition({ operator: 'function', type: 'function', value: { functionName: 'LESS', parameters: ['{loan}', '{maxClientLoan}'] } });
  assert.equal(fn.type, 'function');
  assert.equal(fn.expression, 'LESS({loan},{maxClientLoan})');
  assert.equal(readCondition({ operator: 'ELSE' }).operator, 'ELSE');
  assert.equal(readCondition({ operator: 'btw', value: ['1', '2'] }).operator, 'between', 'labels are canonicalised');
});

test('switching operators carries the value over where it fits', () => {
  const eq = parseConditionText('5');
  assert.deepEqual(withOperator(eq, 'between').values, ['5', '']);
  assert.deepEqual(withOperator(eq, 'IN').values, ['5']);
  assert.deepEqual(withOperator(eq, 'isNull').values, []);
  assert.deepEqual(withOperator(parseConditionText('BTW [1, 9]'), 'notBetween').values, ['1', '9']);
  assert.deepEqual(withOperator(parseConditionText('IN a|b'), 'NOT IN').values, ['a', 'b']);
  const fx = withOperator(eq, 'function');
  assert.equal(fx.type, 'function');
  assert.equal(withOperator(fx, '=').type, 'general');
});

test('list and pair splitting', () => {
  assert.deepEqual(splitList(' a | b |c '), ['a', 'b', 'c']);
  assert.deepEqual(splitList('a,b'), ['a', 'b']);
  assert.deepEqual(splitList('a;b'), ['a', 'b']);
  assert.deepEqual(splitList(''), []);
  assert.deepEqual(splitPair('[{lo}, SUM(1,2)]'), ['{lo}', 'SUM(1,2)']);
  assert.deepEqual(splitPair('(1; 2)'), ['1', '2']);
  assert.deepEqual(splitPair('7'), ['7', '']);
});

test('result cells: simple, function and JSON text', () => {
  assert.equal(cellText({ type: 'common', value: '8' }, 'output'), '8');
  assert.equal(cellText({ type: 'function', value: 'x', stringValue: 'SUM(1,2)' }, 'output'), 'fx SUM(1,2)');
  assert.equal(cellText({ type: 'function', stringValue: '{a}+1' }, 'calc'), '{a}+1', 'calc cells are always expressions');
  assert.equal(readResult({ type: 'common', value: '{"a":1}' }, 'output').kind, 'json');
  assert.equal(readResult({ value: { functionName: 'ABS', parameters: [{ functionName: 'MINUS_CHAR', parameters: [2] }] } }, 'output').text, 'ABS(-2)');
  assert.equal(readResult({ value: 0 }, 'output').text, '0');
  assert.deepEqual(cellFromText('fx CONCAT("a","b")', 'output'), { type: 'function', value: 'CONCAT("a","b")', stringValue: 'CONCAT("a","b")' });
  assert.deepEqual(cellFromText('hello world', 'output'), { type: 'common', value: 'hello world' });
  assert.deepEqual(cellFromText('{a}*2', 'calc'), { type: 'function', value: '{a}*2', stringValue: '{a}*2' });
});

test('every cell the designer writes passes the server validator', () => {
  let rule: any = blankTable('V');
  for (const [text] of ROUND_TRIPS) {
    rule = setCellValue(rule, 0, 0, cellFromText(text, 'input'));
    rule = setCellValue(rule, 0, 1, cellFromText('fx SUM(1,2)', 'output'));
    const problems = validateRuleDocument(rule);
    assert.deepEqual(problems, [], `cell ${JSON.stringify(text)}`);
  }
});

test('date values split into date, time and offset for the pickers, in every partial form', async () => {
  const { dateParts, joinDate } = await import('../../studio/src/designer/model/cells.ts');
  assert.deepEqual(dateParts('2024-05-15 01:25 +00:00'), { date: '2024-05-15', time: '01:25', zone: '+00:00' });
  assert.deepEqual(dateParts('2024-05-15T01:25:02+02:00'), { date: '2024-05-15', time: '01:25:02', zone: '+02:00' });
  assert.deepEqual(dateParts('01:25 +00:00'), { date: '', time: '01:25', zone: '+00:00' });
  assert.deepEqual(dateParts('2024-05-15'), { date: '2024-05-15', time: '', zone: '' });
  assert.equal(dateParts('{deadline}'), undefined);
  assert.equal(joinDate({ date: '2024-05-15', time: '', zone: '+01:00' }), '2024-05-15 +01:00');
});
