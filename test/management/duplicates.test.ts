// Duplicate-row detection of the tools endpoint: what counts as "the same conditions".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDuplicateRows } from '../../src/service/management/duplicates.ts';

type Doc = Record<string, unknown>;

const cond = (column: string, operator: string, value: unknown = ''): Doc => ({ column, type: 'input', scalarCondition: { operator, value, type: 'general' } });
const out = (value: unknown): Doc => ({ column: 'o', type: 'output', outputScalarValue: { type: 'common', value } });

function table(rows: Doc[]): Doc {
  return {
    columns: [
      { columnId: 'a', type: 'input', condition: { inputVariable: 'a' } },
      { columnId: 'b', type: 'input', condition: { inputVariable: 'b' } },
      { columnId: 'o', type: 'output', columnOutput: { outputVariable: 'o' } },
    ],
    rows,
  };
}

test('operators are compared by meaning, values as JSON whatever the key order, cells in any order', () => {
  const groups = findDuplicateRows(table([
    { active: true, cells: [cond('a', '='), cond('b', 'IN', ['x', 'y']), out('1')] },
    { active: true, cells: [out('1'), cond('b', 'in', ['x', 'y']), cond('a', '==')] },
    { active: true, cells: [cond('a', '='), cond('b', 'IN', ['y', 'x']), out('1')] },
    { active: true, cells: [cond('a', 'between', { b: 2, a: 1 }), cond('b', 'anything'), out('2')] },
    { active: true, cells: [cond('a', 'BTW', { a: 1, b: 2 }), cond('b', 'anything', 'ignored'), out('3')] },
  ]));
  assert.deepEqual(groups, [
    { rows: [0, 1], sameResults: true },
    { rows: [3, 4], sameResults: false },
  ]);
});

test('a missing cell means anything; inactive rows and rows valid at other times are not duplicates', () => {
  const window = (from: string): Doc => ({ timeValidation: { dateFrom: from, dateTo: '2030-01-01' } });
  const groups = findDuplicateRows(table([
    { active: true, cells: [cond('a', '=', 'k'), out('1')] },
    { active: true, cells: [cond('a', '=', 'k'), cond('b', 'anything'), out('1')] },
    { active: false, cells: [cond('a', '=', 'k'), out('1')] },
    { active: true, ...window('2020-01-01'), cells: [cond('a', '=', 'z'), out('1')] },
    { active: true, ...window('2021-01-01'), cells: [cond('a', '=', 'z'), out('1')] },
  ]));
  assert.deepEqual(groups, [{ rows: [0, 1], sameResults: true }]);
});

test('a table without rows or columns has no duplicates', () => {
  assert.deepEqual(findDuplicateRows({ columns: [], rows: [] }), []);
  assert.deepEqual(findDuplicateRows(undefined), []);
});
