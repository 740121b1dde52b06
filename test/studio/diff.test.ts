// The comparison of two decision-table versions (studio/src/compare/diff.ts): columns and rows only on one side,
// changed cells, and walking the differences; and the line diff other rule types compare their text with.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cellText, diffTables, lcs, stepDifference } from '../../studio/src/compare/diff.ts';
import { diffLines } from '../../studio/src/compare/lines.ts';

function condition(column: string, operator: string, value: unknown, type = 'general') {
  return { column, type: 'input', scalarCondition: { operator, value, type } };
}
function result(column: string, value: string) {
  return { column, type: 'output', outputScalarValue: { type: 'common', value } };
}
const cols = {
  a: { columnId: 'a', type: 'input', condition: { type: 'simple', name: 'Age', definition: { content: 'age', type: 'INPUT_VARIABLE' } } },
  b: { columnId: 'b', type: 'input', condition: { type: 'simple', name: 'Country', inputVariable: 'country' } },
  r: { columnId: 'r', type: 'output', columnOutput: { type: 'simple', name: 'Fee', outputVariable: 'fee' } },
};
function table(columns: unknown[], rows: unknown[], extra: Record<string, unknown> = {}) {
  return { type: 'decision-table', name: 'T', inputSchema: { age: {} }, outputSchema: { fee: {} }, decisionTable: { columns, rows }, ...extra };
}
const row = (age: string, fee: string) => ({ active: true, cells: [condition('a', '>', age), result('r', fee)] });

test('identical versions have no difference', () => {
  const doc = table([cols.a, cols.r], [row('1', 'x'), row('2', 'y')]);
  const diff = diffTables(doc, structuredClone(doc));
  assert.deepEqual(diff.differences, []);
  assert.ok(diff.rows.every((r) => r.status === 'same'));
  assert.ok(diff.columns.every((c) => c.status === 'same'));
});

test('an inserted row is only on the right; the rows around it stay paired as equal', () => {
  const left = table([cols.a, cols.r], [row('1', 'x'), row('2', 'y'), row('3', 'z')]);
  const right = table([cols.a, cols.r], [row('1', 'x'), row('9', 'new'), row('2', 'y'), row('3', 'z')]);
  const diff = diffTables(left, right);
  assert.deepEqual(diff.rows.map((r) => [r.leftIndex, r.rightIndex, r.status]), [
    [0, 0, 'same'], [undefined, 1, 'right-only'], [1, 2, 'same'], [2, 3, 'same'],
  ]);
  assert.deepEqual(diff.differences.map((d) => d.label), ['Row 2 only in the right version']);
});

test('a deleted row is only on the left', () => {
  const left = table([cols.a, cols.r], [row('1', 'x'), row('2', 'y'), row('3', 'z')]);
  const right = table([cols.a, cols.r], [row('1', 'x'), row('3', 'z')]);
  const diff = diffTables(left, right);
  assert.deepEqual(diff.rows.filter((r) => r.status !== 'same').map((r) => [r.leftIndex, r.status]), [[1, 'left-only']]);
});

test('an edited cell marks its row changed and names the column', () => {
  const left = table([cols.a, cols.r], [row('1', 'x'), row('2', 'y'), row('3', 'z')]);
  const right = table([cols.a, cols.r], [row('1', 'x'), row('2', 'CHANGED'), row('3', 'z')]);
  const diff = diffTables(left, right);
  const changed = diff.rows.filter((r) => r.status === 'changed');
  assert.equal(changed.length, 1);
  assert.deepEqual(changed[0].changedColumns, ['r']);
  assert.deepEqual([changed[0].leftIndex, changed[0].rightIndex], [1, 1]);
  assert.deepEqual(diff.differences.map((d) => [d.kind, d.columnId, d.label]), [['cell', 'r', 'Row 2, Fee (fee) changed']]);
});

test('columns only on one side, and a renamed column, are reported; cells of one-sided columns do not change rows', () => {
  const left = table([cols.a, cols.b, cols.r], [{ active: true, cells: [condition('a', '>', '1'), condition('b', '=', 'CZ'), result('r', 'x')] }]);
  const renamed = { ...cols.r, columnOutput: { ...cols.r.columnOutput, name: 'Price' } };
  const extra = { columnId: 'c', type: 'calc', calculation: { name: 'Disc', variable: 'disc' } };
  const right = table([cols.a, extra, renamed], [{ active: true, cells: [condition('a', '>', '1'), { column: 'c', type: 'calc', outputScalarValue: { type: 'function', value: '1' } }, result('r', 'x')] }]);
  const diff = diffTables(left, right);
  assert.deepEqual(diff.columns.map((c) => [c.columnId, c.status]), [['a', 'same'], ['b', 'left-only'], ['c', 'right-only'], ['r', 'changed']]);
  assert.deepEqual(diff.rows.map((r) => r.status), ['same']);
  assert.equal(diff.differences.filter((d) => d.kind === 'column').length, 3);
});

test('model and name changes are listed before the table differences', () => {
  const left = table([cols.a, cols.r], [row('1', 'x')]);
  const right = table([cols.a, cols.r], [row('1', 'x')], { name: 'Renamed', inputSchema: { age: {}, extra: {} } });
  assert.deepEqual(diffTables(left, right).differences.map((d) => d.label), ['name changed', 'Input model changed']);
});

test('deactivating a row is a change', () => {
  const left = table([cols.a, cols.r], [row('1', 'x'), row('2', 'y')]);
  const right = table([cols.a, cols.r], [row('1', 'x'), { ...row('2', 'y'), active: false }]);
  const diff = diffTables(left, right);
  assert.deepEqual(diff.rows.map((r) => r.status), ['same', 'changed']);
  assert.deepEqual(diff.differences.map((d) => d.label), ['Row 2 activation changed']);
});

// How long a large diff takes is not asserted (a loaded machine can miss any window): what keeps it short is. The
// LCS table is only built for the rows between the common start and end, and only up to its budget of cells;
// beyond it rows pair in order. Each case below fails if that part is gone.
test('large tables: the common start and end are trimmed, so a row inserted among 10,000 is the one difference', () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => row(String(i), `r${i}`));
  const inserted = [...rows.slice(0, 5_000), row('new', 'inserted'), ...rows.slice(5_000)];
  const diff = diffTables(table([cols.a, cols.r], rows), table([cols.a, cols.r], inserted));
  // Untrimmed, the 10,000 x 10,001 rows are beyond the LCS budget and would pair in order: 5,000 changed rows.
  assert.deepEqual(diff.differences.map((d) => d.label), ['Row 5001 only in the right version']);
  assert.equal(diff.rows.length, 10_001);
});

test('the LCS works on at most 4,000,000 cells (rows x rows); beyond that it finds no anchor and rows pair in order', () => {
  const same = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
  assert.equal(lcs(same(2_000), same(2_000)).length, 2_000, '2,000 x 2,000 rows: within the budget');
  assert.deepEqual(lcs(same(2_001), same(2_001)), [], '2,001 x 2,001 rows: beyond it');
  assert.deepEqual(lcs(['a', 'b'], ['a', 'b'], 3), []);
  assert.deepEqual(lcs(['a', 'b'], ['a', 'b'], 4), [[0, 0], [1, 1]]);
  // Beyond the budget, 10 edited rows spread over 10,000 (9,001 x 9,001 rows between the first and the last) are
  // still found as such, each row paired with the one at its place.
  const rows = Array.from({ length: 10_000 }, (_, i) => row(String(i), `r${i}`));
  const changed = rows.map((r, i) => (i % 1000 === 500 ? row(String(i), 'changed') : r));
  const diff = diffTables(table([cols.a, cols.r], rows), table([cols.a, cols.r], changed));
  assert.equal(diff.differences.length, 10);
  assert.equal(diff.rows.length, 10_000);
  assert.ok(diff.rows.every((r) => r.leftIndex === r.rightIndex));
});

test('cell text is the designer\'s one-line form of the cell', () => {
  const column = cols.a;
  const text = (scalarCondition: unknown) => cellText({ active: true, cells: [{ column: 'a', type: 'input', scalarCondition } as any] }, column as any);
  assert.equal(text({ operator: 'anything', value: '', type: 'general' }), '');
  assert.match(text({ operator: 'between', value: ['1', '5'], type: 'general' }), /\[1, 5\]/);
  assert.equal(text({ operator: 'function', type: 'function', value: {}, stringValue: 'LT(1,2)' }), 'fx LT(1,2)');
  assert.equal(cellText(undefined, column as any), '');
});

test('next and previous difference wrap around', () => {
  assert.equal(stepDifference(3, -1, 1), 0);
  assert.equal(stepDifference(3, -1, -1), 2);
  assert.equal(stepDifference(3, 2, 1), 0);
  assert.equal(stepDifference(3, 0, -1), 2);
  assert.equal(stepDifference(0, -1, 1), -1);
});

describe('line diff (scripts)', () => {
  test('common start and end stay, changed lines are removed then added, with both sides\' line numbers', () => {
    const left = 'a\nb\nc\nd\ne';
    const right = 'a\nB\nc\nd\nx\ne';
    assert.deepEqual(diffLines(left, right), [
      { kind: 'same', text: 'a', left: 1, right: 1 },
      { kind: 'removed', text: 'b', left: 2 },
      { kind: 'added', text: 'B', right: 2 },
      { kind: 'same', text: 'c', left: 3, right: 3 },
      { kind: 'same', text: 'd', left: 4, right: 4 },
      { kind: 'added', text: 'x', right: 5 },
      { kind: 'same', text: 'e', left: 5, right: 6 },
    ]);
  });

  test('equal texts are all same; CRLF and LF compare equal; one empty side is all added', () => {
    assert.ok(diffLines('x\ny', 'x\r\ny').every((l) => l.kind === 'same'));
    assert.deepEqual(diffLines('', 'p\nq').map((l) => l.kind), ['removed', 'added', 'added']);
    const moved = diffLines('1\n2\n3', '3\n1\n2');
    assert.deepEqual(moved.map((l) => `${l.kind[0]}${l.text}`), ['a3', 's1', 's2', 'r3']);
  });
});
