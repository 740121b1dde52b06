import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PROBLEMS } from '../../src/rules/check.ts';
import { OPERATORS, normaliseOperator, operatorSpec } from '../../src/rules/operators.ts';
import { fixture, problems } from './helpers.ts';

/** The pricing table with one condition cell replaced (row 1, column "c-promo" = cells[2]). */
function withCondition(scalarCondition: unknown): any {
  const doc = fixture('pricing-table.json');
  doc.decisionTable.rows[1].cells[2].scalarCondition = scalarCondition;
  return doc;
}

const CELL = 'decisionTable.rows[1].cells[2].scalarCondition';

test('an unknown operator is reported with its exact path, with a hint for a near miss', () => {
  assert.deepEqual(problems(withCondition({ operator: 'betwen', value: ['1', '2'], type: 'general' })), [
    `${CELL}.operator: unknown operator "betwen" (did you mean "between"?)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'resembles', value: 'x' })), [`${CELL}.operator: unknown operator "resembles"`]);
  assert.deepEqual(problems(withCondition({ value: 'x' })), [`${CELL}.operator: is required`]);
  assert.deepEqual(problems(withCondition({ operator: 5 })), [`${CELL}.operator: must be a string (got a number)`]);
});

test('every stored operator string is accepted, and the editor labels as aliases', () => {
  const valueFor: Record<string, unknown> = { none: '', scalar: '5', set: ['1', '2'], range: ['1', '5'], text: 'ab', expression: 'EQ(1,1)' };
  for (const op of OPERATORS) {
    const cell = { operator: op.name, value: valueFor[op.value], ...(op.value === 'expression' && { type: 'function', stringValue: 'EQ(1,1)' }) };
    assert.deepEqual(problems(withCondition(cell)), [], op.name);
  }
  for (const [label, name] of [['!=', '<>'], ['BTW', 'between'], ['NULL', 'isNull'], ['not in', 'NOT IN'], ['else', 'ELSE']]) {
    assert.equal(normaliseOperator(label), name);
    assert.equal(operatorSpec(label)?.name, name);
  }
  assert.deepEqual(problems(withCondition({ operator: '!=', value: 'x' })), []);
});

test('set operators take an array (or a string to split), never an object or nested values', () => {
  assert.deepEqual(problems(withCondition({ operator: 'IN', value: { a: 1 } })), [
    `${CELL}.value: must be an array of values for operator "IN" (got an object)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'NOT IN', value: ['a', ['b'], { c: 1 }] })), [
    `${CELL}.value[1]: must be a single value (got an array)`,
    `${CELL}.value[2]: must be a single value (got an object)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'IN', value: 'a|b|c' })), []);
  assert.deepEqual(problems(withCondition({ operator: 'containsIn', value: 7 })), [
    `${CELL}.value: must be an array of values for operator "containsIn" (got a number)`,
  ]);
});

test('range operators take exactly two values, or one variable holding the range', () => {
  assert.deepEqual(problems(withCondition({ operator: 'between', value: ['1', '5', '9'] })), [
    `${CELL}.value: must hold exactly two values [from, to] for operator "between" (got 3)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'notBetween', value: '1-5' })), [
    `${CELL}.value: must be a two-element array [from, to] for operator "notBetween" (got a string)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'betweenLeftOpen', value: ['1', { x: 1 }] })), [
    `${CELL}.value[1]: must be a single value (got an object)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'betweenRightOpen', value: '{limits}' })), []);
});

test('comparison operators take one value; containsText takes one substring or a set', () => {
  assert.deepEqual(problems(withCondition({ operator: '=', value: ['a', 'b'] })), [
    `${CELL}.value: must be a single value for operator "=" (got an array)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: '>=', value: { n: 1 } })), [
    `${CELL}.value: must be a single value for operator ">=" (got an object)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: '=', value: 3 })), []);
  assert.deepEqual(problems(withCondition({ operator: '=', value: true })), []);
  assert.deepEqual(problems(withCondition({ operator: 'containsText', value: ['a', 'b'] })), []);
});

test('date cells accept the date operators and legacy {date,time,timezone} values', () => {
  assert.deepEqual(problems(withCondition({ operator: 'containsText', value: '2024', type: 'date' })), [
    `${CELL}.operator: operator "containsText" cannot be used in a date condition`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: '<', value: { date: '2024-09-23', time: '13:27', timezone: '+02:00' }, type: 'date' })), []);
  assert.deepEqual(problems(withCondition({ operator: 'between', value: ['2024-01-01 +00:00', '2024-12-31 +00:00'], type: 'date' })), []);
  assert.deepEqual(problems(withCondition({ operator: '<', value: { date: '2024-09-23' }, type: 'general' })), [
    `${CELL}.value: must be a single value for operator "<" (got an object)`,
  ]);
});

test('condition types: unknown types, and function types that are not function conditions', () => {
  assert.deepEqual(problems(withCondition({ operator: '=', value: 'x', type: 'fancy' })), [
    `${CELL}.type: unknown condition type "fancy" (expected general, date or function)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: '=', value: 'x', type: 'function' })), [
    `${CELL}.type: a function condition needs operator "function" (got "=")`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'function', type: 'function' })), [
    `${CELL}: a function condition needs an expression (stringValue or value)`,
  ]);
  assert.deepEqual(problems(withCondition({ operator: 'function', type: 'function', stringValue: 42 })), [
    `${CELL}.stringValue: must be a string or null`.concat(' (got a number)'),
    `${CELL}: a function condition needs an expression (stringValue or value)`,
  ]);
  assert.deepEqual(
    problems(withCondition({ operator: 'function', type: 'function', value: { functionName: 'LESS', parameters: ['{a}', '{b}'] } })),
    [],
  );
});

test('cells must reference a column of the table, once per row, with the payload of that column', () => {
  const doc = fixture('pricing-table.json');
  const cells = doc.decisionTable.rows[0].cells;
  cells[1].column = 'c-nope';
  cells.push({ column: 'c-product', type: 'input', scalarCondition: { operator: 'anything', value: '' } });
  delete cells[3].outputScalarValue;
  cells[4].outputScalarValue = { type: 'formula', value: '1' };
  cells[5].column = undefined;
  assert.deepEqual(problems(doc), [
    'decisionTable.rows[0].cells[1].column: unknown column "c-nope"',
    'decisionTable.rows[0].cells[3].outputScalarValue: is required in a cell of a column of type "output"',
    'decisionTable.rows[0].cells[4].outputScalarValue.type: unknown value type "formula" (expected common or function)',
    "decisionTable.rows[0].cells[5].column: is required (the columnId of the cell's column)",
    'decisionTable.rows[0].cells[6].column: a second cell for column "c-product" (first at decisionTable.rows[0].cells[0])',
  ]);
});

test('a column named twice is a problem of its own row only, pointing at that row\'s first cell for it', () => {
  // Validation remembers, per column, the last cell that named it for the whole table: rows must not leak into
  // each other, and a third cell for the column points at the first.
  const doc = fixture('pricing-table.json');
  const rows = doc.decisionTable.rows;
  const product = structuredClone(rows[1].cells[0]);
  rows[1].cells.push(product, structuredClone(product));
  assert.ok(rows.length > 2, 'the fixture has rows after the one changed');
  assert.deepEqual(problems(doc), [
    `decisionTable.rows[1].cells[${rows[1].cells.length - 2}].column: a second cell for column "c-product" (first at decisionTable.rows[1].cells[0])`,
    `decisionTable.rows[1].cells[${rows[1].cells.length - 1}].column: a second cell for column "c-product" (first at decisionTable.rows[1].cells[0])`,
  ]);
});

test('a condition cell without scalarCondition, and a function result without an expression', () => {
  const doc = fixture('pricing-table.json');
  delete doc.decisionTable.rows[2].cells[0].scalarCondition;
  doc.decisionTable.rows[2].cells[4].outputScalarValue = { type: 'function' };
  assert.deepEqual(problems(doc), [
    'decisionTable.rows[2].cells[0].scalarCondition: is required in a cell of a column of type "input"',
    'decisionTable.rows[2].cells[4].outputScalarValue: a function value needs an expression (stringValue or value)',
  ]);
});

test('columns: ids, types, aliases and bindings, in both condition forms', () => {
  const doc = fixture('segment-table.json');
  const columns = doc.decisionTable.columns;
  columns[0].condition.definition.content = '';
  columns[1].columnId = 's-region';
  columns[2].alias = 'col-region';
  columns[3].alias = 'a'.repeat(31);
  columns.push({ columnId: 's-x', type: 'result', columnOutput: { outputVariable: 'x' } });
  columns.push({ columnId: 's-y', type: 'output', columnOutput: { name: 'Y' } });
  columns.push({ columnId: 's-z', type: 'input', condition: { type: 'simple', name: 'Z' } });
  columns.push({ columnId: 's-c', type: 'calc', calculation: { name: 'Calc' } });
  columns.push({ type: 'output', alias: 'bad alias', columnOutput: { outputVariable: 'w' } });
  assert.deepEqual(problems(doc), [
    'decisionTable.columns[0].condition.definition.content: must not be empty',
    'decisionTable.columns[1].columnId: duplicate column id "s-region" (also decisionTable.columns[0])',
    'decisionTable.columns[2].alias: duplicate column alias "col-region" (also decisionTable.columns[0].alias)',
    `decisionTable.columns[3].alias: must be at most 30 characters (got 31)`,
    'decisionTable.columns[4].type: unknown column type "result" (expected input, output or calc)',
    'decisionTable.columns[5].columnOutput.outputVariable: is required (the output path this column writes)',
    'decisionTable.columns[6].condition: needs the input it tests (inputVariable or definition.content)',
    'decisionTable.columns[7].calculation.variable: is required (the name of the calculated variable)',
    'decisionTable.columns[8].columnId: is required',
    'decisionTable.columns[8].alias: may contain only letters, digits and "-" (got "bad alias")',
    // The column renamed to a duplicate id no longer exists under its old id.
    ...[0, 1, 2, 3].map((row) => `decisionTable.rows[${row}].cells[1].column: unknown column "s-revenue"`),
  ]);
});

test('a column payload missing for its type is reported once', () => {
  const doc = fixture('pricing-table.json');
  delete doc.decisionTable.columns[3].columnOutput;
  doc.decisionTable.columns[0].condition = 'productType';
  assert.deepEqual(problems(doc), [
    'decisionTable.columns[0].condition: must be an object (got a string)',
    'decisionTable.columns[3].columnOutput: is required for a column of type "output"',
  ]);
});

test('numeric column ids are accepted and matched by their text', () => {
  const doc = fixture('segment-table.json');
  doc.decisionTable.columns[0].columnId = 17;
  for (const row of doc.decisionTable.rows) row.cells[0].column = '17';
  assert.deepEqual(problems(doc), []);
});

test('a table needs a result column and a condition or calc column', () => {
  const doc = fixture('segment-table.json');
  doc.decisionTable = { columns: [], rows: [] };
  assert.deepEqual(problems(doc), [
    'decisionTable.columns: a decision table needs at least one result column (type "output")',
    'decisionTable.columns: a decision table needs at least one condition or calculation column (type "input" or "calc")',
  ]);
  doc.decisionTable = { columns: [{ columnId: 'k', type: 'calc', calculation: { variable: 'v' } }, { columnId: 'o', type: 'output', columnOutput: { outputVariable: 'o' } }], rows: [] };
  assert.deepEqual(problems(doc), []);
});

test('the body itself: missing table, columns or rows', () => {
  const doc = fixture('segment-table.json');
  delete doc.decisionTable;
  assert.deepEqual(problems(doc), ['decisionTable: is required for a decision table ({"columns": [...], "rows": [...]})']);
  doc.decisionTable = { columns: {}, rows: null };
  assert.deepEqual(problems(doc), [
    'decisionTable.columns: must be an array (got an object)',
    'decisionTable.rows: is required (it may be empty)',
  ]);
});

test('rows: active flag, cells and time validity in both encodings', () => {
  const doc = fixture('segment-table.json');
  const rows = doc.decisionTable.rows;
  rows[0].active = 'yes';
  rows[1].timeValidation = { from: '2025-01-01 00:00 +01:00', to: { date: '2025-12-31', time: '23:59', timezone: '+01:00' } };
  rows[2].timeValidation = { from: 'next monday', to: 20250101 };
  delete rows[3].cells;
  rows.push('row');
  assert.deepEqual(problems(doc), [
    'decisionTable.rows[0].active: must be true or false (got a string)',
    'decisionTable.rows[2].timeValidation.from: must be a date such as "2024-05-15 01:25 +00:00" or {"date":"2024-05-15","time":"01:25","timezone":"+00:00"} (got "next monday")',
    'decisionTable.rows[2].timeValidation.to: must be a date such as "2024-05-15 01:25 +00:00" or {"date":"2024-05-15","time":"01:25","timezone":"+00:00"} (got a number)',
    'decisionTable.rows[3].cells: is required',
    'decisionTable.rows[4]: must be an object (got a string)',
  ]);
});

test('a row may leave out cells (a missing condition cell means "anything")', () => {
  const doc = fixture('segment-table.json');
  doc.decisionTable.rows[0].cells.splice(1, 1);
  assert.deepEqual(problems(doc), []);
});

test('every problem of a document is reported in one pass, in document order', () => {
  const doc = fixture('pricing-table.json');
  doc.status = 'live';
  doc.decisionTable.rows[0].cells[0].scalarCondition.operator = 'equals';
  doc.decisionTable.rows[2].cells[0].scalarCondition.value = { premium: true };
  doc.decisionTable.rows[2].cells[5].column = 'c-gone';
  assert.deepEqual(problems(doc), [
    'status: unknown status "live" (expected published or pending)',
    'decisionTable.rows[0].cells[0].scalarCondition.operator: unknown operator "equals"',
    'decisionTable.rows[2].cells[0].scalarCondition.value: must be an array of values for operator "IN" (got an object)',
    'decisionTable.rows[2].cells[5].column: unknown column "c-gone"',
  ]);
});

test(`a document with more than ${MAX_PROBLEMS} problems lists the first ${MAX_PROBLEMS} and counts the rest`, () => {
  const doc = fixture('pricing-table.json');
  const template = doc.decisionTable.rows[0];
  doc.decisionTable.rows = Array.from({ length: 300 }, () => {
    const row = structuredClone(template);
    row.cells[0].scalarCondition.operator = '~';
    return row;
  });
  const list = problems(doc);
  assert.equal(list.length, MAX_PROBLEMS + 1);
  assert.equal(list[0], 'decisionTable.rows[0].cells[0].scalarCondition.operator: unknown operator "~"');
  assert.equal(list[MAX_PROBLEMS], `${300 - MAX_PROBLEMS} more problems not listed`);
});
