// The designer's side of valid values: editing a column's list keeps an older export's form unless the list
// changes, and the cell flags land on the grid cell of the cell's column (cells are matched by column id).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnValidValues, setValidValues } from '../../studio/src/designer/model/table.ts';
import { cellKey, locateOutsideValues } from '../../studio/src/designer/model/problems.ts';

const OLD_FORM = ['car', 'bike'].map((v) => ({ type: 'GENERAL', value: { display: v, value: v } }));

function rule(value: string) {
  return {
    type: 'decision-table',
    name: 'Vehicles',
    decisionTable: {
      columns: [
        { columnId: 'o', type: 'output', columnOutput: { type: 'simple', name: 'Out', outputVariable: 'out' } },
        { columnId: 'v', type: 'input', condition: { type: 'simple', name: 'Vehicle', inputVariable: 'vehicle' }, validValues: OLD_FORM },
      ],
      rows: [
        {
          active: true,
          cells: [
            { column: 'v', type: 'input', scalarCondition: { operator: '=', value, type: 'general' } },
            { column: 'o', type: 'output', outputScalarValue: { type: 'common', value: 'x' } },
          ],
        },
      ],
    },
  };
}

test('an unchanged list leaves the column as stored; a changed one is written in the newer form', () => {
  const doc = rule('car');
  assert.deepEqual(columnValidValues(doc.decisionTable.columns[1]), ['car', 'bike']);
  assert.equal(setValidValues(doc, 1, ['car', 'bike']), doc, 'the same document: nothing to undo, the older form kept');
  const changed = setValidValues(doc, 1, ['car', 'bike', 'van']);
  assert.deepEqual(changed.decisionTable.columns[1].validValues, ['car', 'bike', 'van'].map((value) => ({ type: 'GENERAL', value })));
  assert.equal(changed.decisionTable.rows, doc.decisionTable.rows, 'rows are untouched');
  assert.deepEqual(setValidValues(doc, 1, []).decisionTable.columns[1].validValues, [], 'an emptied list restricts nothing');
  assert.equal(setValidValues(doc, 5, ['x']), doc, 'no such column');
});

test('cells outside the valid values are flagged on the grid cell of their column', () => {
  assert.deepEqual([...locateOutsideValues(rule('car'))], []);
  const flags = locateOutsideValues(rule('boat'));
  assert.deepEqual([...flags.keys()], [cellKey(0, 1)]);
  assert.deepEqual(flags.get(cellKey(0, 1)), ['"boat" is not a valid value of column "Vehicle" (valid values: "car", "bike")']);
});
