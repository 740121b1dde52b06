// The designer's table model: rows and columns of a decision-table rule document, edited immutably.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addColumn,
  addRow,
  bindColumn,
  blankTable,
  cellOf,
  cellValueOf,
  columnBinding,
  columnName,
  deleteColumn,
  deleteRows,
  duplicateRows,
  insertRows,
  isRowActive,
  moveColumn,
  moveRows,
  renameColumn,
  setCellValue,
  setRowsActive,
  tableOf,
} from '../../studio/src/designer/model/table.ts';
import { cellText } from '../../studio/src/designer/model/cells.ts';

/** A rule in the old export form: numeric column ids, cells out of column order, a missing cell. */
function sampleRule() {
  return {
    type: 'decision-table',
    name: 'Sample',
    status: 'published',
    inputSchema: { productType: {}, period: {} },
    outputSchema: { price: {} },
    unknownField: { kept: true },
    decisionTable: {
      columns: [
        { type: 'input', columnId: 0, condition: { name: 'Product', inputVariable: 'productType', type: 'simple' } },
        { type: 'input', columnId: 1, condition: { name: 'Period', definition: { content: 'period', type: 'INPUT_VARIABLE', valid: true }, type: 'simple' } },
        { type: 'output', columnId: 2, columnOutput: { name: 'Price', outputVariable: 'price', type: 'simple' } },
      ],
      rows: [
        {
          active: true,
          cells: [
            { type: 'output', column: 2, outputScalarValue: { type: 'common', value: '8' } },
            { type: 'input', column: 0, scalarCondition: { type: 'general', operator: '=', value: 'basic' } },
            { type: 'input', column: 1, scalarCondition: { type: 'general', operator: '=', value: 'month' } },
          ],
        },
        { active: false, cells: [{ type: 'input', column: 0, scalarCondition: { operator: '=', value: 'premium' } }] },
        { active: true, cells: [{ type: 'input', column: 0, scalarCondition: { operator: 'ELSE', value: '' } }] },
      ],
    },
  };
}

function texts(rule: any): string[][] {
  const { columns, rows } = tableOf(rule);
  return rows.map((row: any) => columns.map((c: any) => cellText(cellValueOf(row, c), c.type)));
}

test('cells are found by column id, not position; a missing cell reads as empty', () => {
  assert.deepEqual(texts(sampleRule()), [
    ['basic', 'month', '8'],
    ['premium', '', ''],
    ['ELSE', '', ''],
  ]);
});

test('editing one cell leaves the input document, its unknown fields and the other rows untouched', () => {
  const before = sampleRule();
  const snapshot = structuredClone(before);
  const after = setCellValue(before, 0, 2, { type: 'common', value: '9' });
  assert.deepEqual(before, snapshot);
  assert.equal(cellValueOf(tableOf(after).rows[0], tableOf(after).columns[2]).value, '9');
  assert.equal(tableOf(after).rows[1], tableOf(before).rows[1], 'untouched rows are shared');
  assert.deepEqual(after.unknownField, { kept: true });
});

test('setting a missing cell adds it with the column id and kind', () => {
  const after = setCellValue(sampleRule(), 1, 2, { type: 'common', value: 'x' });
  const cell = cellOf(tableOf(after).rows[1], tableOf(after).columns[2]);
  assert.deepEqual(cell, { column: 2, type: 'output', outputScalarValue: { type: 'common', value: 'x' } });
});

test('rows: add appends an empty row with one cell per column', () => {
  const after = addRow(sampleRule());
  const rows = tableOf(after).rows;
  assert.equal(rows.length, 4);
  assert.equal(rows[3].active, true);
  assert.deepEqual(rows[3].cells.map((c: any) => c.column), [0, 1, 2]);
  assert.deepEqual(rows[3].cells[0].scalarCondition, { operator: 'anything', value: '', type: 'general' });
  assert.deepEqual(rows[3].cells[2].outputScalarValue, { type: 'common', value: '' });
});

test('rows: insert before a position, clamped to the table', () => {
  const rule = insertRows(sampleRule(), 1, 2);
  assert.deepEqual(texts(rule).map((r) => r[0]), ['basic', '', '', 'premium', 'ELSE']);
  assert.equal(tableOf(insertRows(sampleRule(), 99)).rows.length, 4);
  assert.deepEqual(texts(insertRows(sampleRule(), -5)).map((r) => r[0]), ['', 'basic', 'premium', 'ELSE']);
});

test('rows: duplicate copies the picked rows after the last of them, deeply', () => {
  const rule = duplicateRows(sampleRule(), [0, 1]);
  assert.deepEqual(texts(rule).map((r) => r[0]), ['basic', 'premium', 'basic', 'premium', 'ELSE']);
  assert.notEqual(tableOf(rule).rows[2], tableOf(rule).rows[0]);
  assert.equal(isRowActive(tableOf(rule).rows[3]), false, 'an inactive row stays inactive');
});

test('rows: delete several, ignoring positions outside the table', () => {
  const rule = deleteRows(sampleRule(), [2, 0, 7, -1]);
  assert.deepEqual(texts(rule).map((r) => r[0]), ['premium']);
});

test('rows: move a block up and down, clamped at the ends', () => {
  let moved = moveRows(sampleRule(), 0, 2, 1);
  assert.deepEqual(texts(moved.rule).map((r) => r[0]), ['ELSE', 'basic', 'premium']);
  assert.equal(moved.start, 1);
  moved = moveRows(sampleRule(), 2, 1, -10);
  assert.deepEqual(texts(moved.rule).map((r) => r[0]), ['ELSE', 'basic', 'premium']);
  assert.equal(moved.start, 0);
  const same = moveRows(sampleRule(), 0, 1, -1);
  assert.equal(same.start, 0);
  assert.deepEqual(texts(same.rule).map((r) => r[0]), ['basic', 'premium', 'ELSE']);
});

test('rows: activate and deactivate', () => {
  const off = setRowsActive(sampleRule(), [0, 2], false);
  assert.deepEqual(tableOf(off).rows.map(isRowActive), [false, false, false]);
  const on = setRowsActive(off, [1], true);
  assert.deepEqual(tableOf(on).rows.map(isRowActive), [false, true, false]);
});

test('columns: add each kind at its default place with a cell in every row', () => {
  let rule: any = sampleRule();
  let added = addColumn(rule, 'input', { name: 'Promo', binding: 'promo' });
  assert.equal(added.index, 2, 'after the last condition');
  rule = added.rule;
  added = addColumn(rule, 'calc', { name: 'Discount', binding: 'discount' });
  assert.equal(added.index, 3, 'calculations go between conditions and results');
  rule = added.rule;
  added = addColumn(rule, 'output', { name: 'Message', binding: 'message' });
  assert.equal(added.index, 5, 'results at the end');
  rule = added.rule;
  const { columns, rows } = tableOf(rule);
  assert.deepEqual(columns.map((c: any) => c.type), ['input', 'input', 'input', 'calc', 'output', 'output']);
  assert.deepEqual(columns.map(columnBinding), ['productType', 'period', 'promo', 'discount', 'price', 'message']);
  for (const row of rows) for (const column of columns.slice(2, 4).concat(columns[5])) assert.ok(cellOf(row, column), 'new columns get a cell in every row');
  assert.deepEqual(cellValueOf(rows[0], columns[3]), { type: 'function', value: '', stringValue: '' });
  assert.equal(typeof columns[2].columnId, 'string');
  assert.notEqual(columns[2].columnId, columns[3].columnId);
});

test('columns: rename and rebind keep the form each column was written in', () => {
  let rule: any = renameColumn(sampleRule(), 0, 'Kind');
  rule = bindColumn(rule, 0, 'product.kind');
  rule = bindColumn(rule, 1, 'subscription.period');
  rule = bindColumn(rule, 2, 'prices.final');
  const [c0, c1, c2] = tableOf(rule).columns;
  assert.equal(columnName(c0), 'Kind');
  assert.equal(c0.condition.inputVariable, 'product.kind');
  assert.equal(c0.condition.definition, undefined);
  assert.equal(c1.condition.definition.content, 'subscription.period');
  assert.equal(c1.condition.definition.type, 'INPUT_VARIABLE');
  assert.equal(c2.columnOutput.outputVariable, 'prices.final');
});

test('columns: move reorders columns only; cells follow by id', () => {
  const base = sampleRule();
  const rule = moveColumn(base, 2, 0);
  assert.deepEqual(tableOf(rule).columns.map((c: any) => c.columnId), [2, 0, 1]);
  assert.equal(tableOf(rule).rows, tableOf(base).rows);
  assert.deepEqual(texts(rule)[0], ['8', 'basic', 'month']);
});

test('columns: delete removes the column and its cell in every row', () => {
  const rule = deleteColumn(sampleRule(), 0);
  assert.deepEqual(tableOf(rule).columns.map((c: any) => c.columnId), [1, 2]);
  for (const row of tableOf(rule).rows) assert.ok(row.cells.every((c: any) => c.column !== 0));
  assert.deepEqual(texts(rule), [['month', '8'], ['', ''], ['', '']]);
});

test('a blank table has one condition, one result and one row', () => {
  const rule = blankTable('T');
  assert.equal(rule.type, 'decision-table');
  assert.deepEqual(tableOf(rule).columns.map((c: any) => c.type), ['input', 'output']);
  assert.equal(tableOf(rule).rows.length, 1);
});
