// Identical cells of a column compile once (table/shared-cells.ts): a cell may only share the compiled form of a
// cell that compiles exactly alike, and sharing must not hide problems or change results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SharedCells } from '../../src/engine/table/shared-cells.ts';
import { common, compileTable, cond, fnCondition, run, tableDoc, type RowSpec } from './table-helpers.ts';

test('cells share a compiled form only when type, operator, value and stringValue are exactly alike', () => {
  const shared = new SharedCells<string>();
  const cells: [string, unknown][] = [
    ['text one', { type: 'general', operator: '=', value: '1' }],
    ['number one', { type: 'general', operator: '=', value: 1 }],
    ['list', { type: 'general', operator: 'IN', value: ['1', '2'] }],
    ['shorter list', { type: 'general', operator: 'IN', value: ['1'] }],
    ['empty list', { type: 'general', operator: 'IN', value: [] }],
    ['number list', { type: 'general', operator: 'IN', value: [1, '2'] }],
    ['null value', { type: 'general', operator: '=', value: null }],
    ['no value', { type: 'general', operator: '=' }],
    ['date', { type: 'date', operator: '=', value: '1' }],
    ['function', { type: 'function', operator: 'function', value: 'x', stringValue: 'GT({a}, 1)' }],
    ['other function', { type: 'function', operator: 'function', value: 'x', stringValue: 'GT({a}, 2)' }],
    ['text like a list', { type: 'general', operator: 'IN', value: '\u0001j["1","2"]' }],
    ['ast', { type: 'function', value: { functionName: 'TIMES', parameters: ['{a}', 2] } }],
  ];
  for (const [name, cell] of cells) {
    assert.equal(shared.get(cell), undefined, `${name} is new`);
    shared.set(cell, name);
  }
  for (const [name, cell] of cells) assert.equal(shared.get(structuredClone(cell)), name, `an identical copy of ${name}`);
  assert.equal(shared.get(undefined), undefined);
  shared.set(undefined, 'missing');
  assert.equal(shared.get(null), 'missing', 'no cell and a null cell are both "anything"');
  const negativeZero = { type: 'general', operator: '=', value: -0 };
  shared.set(negativeZero, 'minus zero');
  assert.equal(shared.get(negativeZero), undefined, '-0 is never shared (Map keys equate it with 0)');
  const withUndefinedMember = { type: 'general', operator: 'IN', value: ['1', undefined] };
  shared.set(withUndefinedMember, 'hole');
  assert.equal(shared.get({ type: 'general', operator: 'IN', value: ['1', null] }), undefined, 'JSON would turn undefined into null');
});

test('a repeated cell that does not compile is reported at every place it occurs, and evaluates as no match', () => {
  const rows: RowSpec[] = [0, 1, 2].map((i) => ({ cells: { c: fnCondition('GT({a}, '), out: common(String(i)) } }));
  rows.push({ cells: { c: cond('anything'), out: common('"other"') } });
  const doc = tableDoc({ columns: [{ id: 'c', kind: 'input', target: 'a' }, { id: 'out', kind: 'output', target: 'row' }], rows });
  const table = compileTable(doc);
  assert.deepEqual(
    table.warnings?.map((problem) => problem.path),
    [0, 1, 2].map((i) => `decisionTable.rows[${i}].cells[0].scalarCondition.stringValue`),
  );
  assert.deepEqual(run(table, { a: 5 }).result, [{ row: 'other' }]);
});

test('rows sharing cells keep their own outputs, and object constants are handed out as copies', () => {
  const rows: RowSpec[] = [];
  for (let i = 0; i < 40; i++) rows.push({ cells: { c: cond('=', i % 2 === 0 ? 'even' : 'odd'), out: common('{"tags":["x"]}'), n: common(String(i)) } });
  const doc = tableDoc({
    columns: [
      { id: 'c', kind: 'input', target: 'kind' },
      { id: 'out', kind: 'output', target: 'meta' },
      { id: 'n', kind: 'output', target: 'row' },
    ],
    rows,
  });
  const table = compileTable(doc);
  const result = run(table, { kind: 'odd' }).result as { meta: { tags: string[] }; row: number }[];
  assert.deepEqual(result.map((r) => r.row), [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39]);
  result[0]!.meta.tags.push('changed');
  assert.deepEqual(result[1]!.meta, { tags: ['x'] });
  assert.deepEqual((run(table, { kind: 'odd' }).result as { meta: unknown }[])[0]!.meta, { tags: ['x'] });
});
