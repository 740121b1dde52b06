import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, problems } from './helpers.ts';

function rowsOf(doc: any): any[] {
  return Object.values(doc.data).map((row: any) => {
    const copy = { ...row };
    delete copy._position;
    return copy;
  });
}

test('every data encoding is accepted: keyed object, array of rows, [key, row] pairs, sourceData', () => {
  const keyed = fixture('banks-lookup.json');
  assert.deepEqual(problems(keyed), []);
  const array = { ...keyed, data: rowsOf(keyed) };
  assert.deepEqual(problems(array), []);
  const pairs = { ...keyed, data: rowsOf(keyed).map((row) => [row.bic, row]) };
  assert.deepEqual(problems(pairs), []);
  const source = { ...keyed, data: {}, sourceData: rowsOf(keyed) };
  assert.deepEqual(problems(source), []);
  const objectKey = { ...keyed, primaryKeyColumn: { alias: 'bic', name: 'BIC' } };
  assert.deepEqual(problems(objectKey), []);
});

test('the primary key comes from primaryKeyColumn or the one isPrimaryKey column', () => {
  const doc = fixture('banks-lookup.json');
  delete doc.primaryKeyColumn;
  assert.deepEqual(problems(doc), []);
  doc.columns[0].isPrimaryKey = false;
  assert.deepEqual(problems(doc), ['primaryKeyColumn: is required (the alias of the primary-key column)']);
});

test('exactly one primary-key column, and primaryKeyColumn must name it', () => {
  const twoKeys = fixture('banks-lookup.json');
  twoKeys.columns[2].isPrimaryKey = true;
  assert.deepEqual(problems(twoKeys), ['columns: a lookup table has exactly one primary-key column (isPrimaryKey is true on columns[0], columns[2])']);
  const unknown = fixture('banks-lookup.json');
  unknown.primaryKeyColumn = 'swift';
  assert.deepEqual(problems(unknown), ['primaryKeyColumn: names no column: "swift" is not the alias of any column']);
  const disagree = fixture('banks-lookup.json');
  disagree.primaryKeyColumn = { alias: 'country' };
  assert.deepEqual(problems(disagree), ['primaryKeyColumn.alias: "country" disagrees with columns[0], which has isPrimaryKey true']);
  const wrongType = fixture('banks-lookup.json');
  wrongType.primaryKeyColumn = 3;
  assert.deepEqual(problems(wrongType), ['primaryKeyColumn: must be the alias of the primary-key column, as a string or {"alias": …} (got a number)']);
});

test('columns need a unique name and alias', () => {
  const doc = fixture('banks-lookup.json');
  doc.columns[1].name = 'Country';
  delete doc.columns[3].alias;
  doc.columns[4].alias = 'bic';
  doc.columns.push('Notes');
  assert.deepEqual(problems(doc), [
    'columns[2].name: duplicate column name "Country" (also columns[1])',
    'columns[3].alias: is required',
    'columns[4].alias: duplicate column alias "bic" (also columns[0])',
    'columns[5]: must be an object (got a string)',
  ]);
  doc.columns = [];
  assert.deepEqual(problems(doc), ['columns: a lookup table needs at least its primary-key column']);
});

test('primary keys are unique, present, and agree with the key they are filed under', () => {
  const doc = fixture('banks-lookup.json');
  doc.data.NORDSESS.bic = 'NORDSEXX';
  doc.data.EMPTY = { bic: '', bankname: 'No key' };
  assert.deepEqual(problems(doc), ['data.NORDSESS.bic: primary key "NORDSEXX" differs from the row\'s key "NORDSESS"']);
  const array = fixture('banks-lookup.json');
  array.data = [...rowsOf(array), { bic: 'ALPSATWW', bankname: 'Copy' }, { bankname: 'Keyless' }, { bic: { id: 1 } }, 7];
  assert.deepEqual(problems(array), [
    'data[6]: must be a row object or a [key, row] pair (got a number)',
    'data[3].bic: duplicate primary key "ALPSATWW" (also data[2])',
    'data[4].bic: is required (every row needs a primary key)',
    'data[5].bic: a primary key must be text or a number (got an object)',
  ]);
});

test('a row filed under its key may leave the key cell out', () => {
  const doc = fixture('banks-lookup.json');
  delete doc.data.ALPSATWW.bic;
  assert.deepEqual(problems(doc), []);
});

test('data is required and must be rows', () => {
  const doc = fixture('banks-lookup.json');
  delete doc.data;
  assert.deepEqual(problems(doc), ['data: is required for a lookup table (an object keyed by primary key, or an array of rows)']);
  doc.data = 'BIC;Bank';
  assert.deepEqual(problems(doc), ['data: must be an object keyed by primary key or an array of rows (got a string)']);
  doc.data = { X: 'row' };
  assert.deepEqual(problems(doc), ['data.X: must be an object (got a string)']);
});
