// Odd input never breaks the designer's model: arbitrary stored cell values, documents with missing or
// malformed parts, and arbitrary clipboard text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cellFromText, cellText, parseConditionText, readCondition, writeCondition } from '../../studio/src/designer/model/cells.ts';
import { parseTsv, serialiseTsv } from '../../studio/src/designer/model/tsv.ts';
import { blockTexts, pasteText } from '../../studio/src/designer/model/clipboard.ts';
import { addRow, deleteColumn, insertColumn, newColumn, setCellValue, tableOf } from '../../studio/src/designer/model/table.ts';
import { locateProblems } from '../../studio/src/designer/model/problems.ts';
import { readTrace } from '../../studio/src/designer/model/trace.ts';

test('any stored cell value renders as text, and that text reads back without throwing', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom('input', 'output', 'calc') as fc.Arbitrary<'input' | 'output' | 'calc'>, (value, kind) => {
      const text = cellText(value, kind);
      assert.equal(typeof text, 'string');
      cellFromText(text, kind);
    }),
    { numRuns: 500 },
  );
});

test('any typed condition text gives a stored condition that renders back to the same condition', () => {
  fc.assert(
    fc.property(fc.string(), (text) => {
      const stored = writeCondition(parseConditionText(text));
      assert.deepEqual(readCondition(writeCondition(parseConditionText(cellText(stored, 'input')))), readCondition(stored));
    }),
    { numRuns: 1000 },
  );
});

test('TSV: serialising any block and parsing it back gives the block', () => {
  const field = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '"', '|', 'é') });
  fc.assert(
    fc.property(fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
      assert.deepEqual(parseTsv(serialiseTsv(rows)), rows);
    }),
    { numRuns: 500 },
  );
});

test('any clipboard text pastes without throwing, and never loses rows it was given', () => {
  let rule: any = { type: 'decision-table', decisionTable: { columns: [], rows: [] } };
  rule = insertColumn(rule, 0, newColumn('input', { binding: 'a' }));
  rule = insertColumn(rule, 1, newColumn('output', { binding: 'b' }));
  fc.assert(
    fc.property(fc.string(), (text) => {
      const result = pasteText(rule, { top: 0, left: 0, bottom: 0, right: 0 }, text);
      if (result) assert.equal(tableOf(result.rule).rows.length, parseTsv(text).length);
    }),
    { numRuns: 500 },
  );
});

test('documents with missing or malformed parts are read as far as they go', () => {
  const docs: any[] = [
    null,
    {},
    { decisionTable: null },
    { decisionTable: { columns: 'x', rows: 5 } },
    { decisionTable: { columns: [null, { type: 'weird' }, { columnId: 1, type: 'output' }], rows: [null, { cells: null }, { cells: [null, { column: 1 }] }] } },
  ];
  for (const doc of docs) {
    const { columns, rows } = tableOf(doc);
    blockTexts(doc, { top: 0, left: 0, bottom: rows.length - 1, right: columns.length - 1 });
    locateProblems(doc, [{ path: 'decisionTable.rows[1].cells[0].scalarCondition', message: 'x' }, { path: 'decisionTable.rows[9].cells[9]', message: 'y' }, { path: '', message: 'z' }]);
    readTrace(doc, [{ rowNumber: 1, evaluationResult: true, conditions: [null, { columnId: 1 }] }]);
    const added = addRow(doc);
    assert.equal(tableOf(added).rows.length, rows.length + 1);
    if (columns.length > 0) {
      setCellValue(added, 0, 0, { operator: '=', value: 'x' });
      deleteColumn(added, 0);
    }
  }
});
