// The four strategies on one shared table (SPEC 3.1, spec §3.2, §3.6), including no row matching, inactive rows
// and the ELSE row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solveSync } from '../../src/index.ts';
import { common, compileTable, cond, solveJson, tableDoc } from './table-helpers.ts';

/** Plant items (§3.2): three plants, an inactive plant, a book, an ELSE row. */
function plantItems(): Record<string, unknown> {
  return tableDoc({
    outputSchema: { name: {}, price: {}, available: {} },
    columns: [
      { id: 'g', kind: 'input', target: 'group', alias: 'col-group' },
      { id: 'name', kind: 'output', target: 'name' },
      { id: 'price', kind: 'output', target: 'price' },
      { id: 'available', kind: 'output', target: 'available' },
    ],
    rows: [
      { cells: { g: cond('=', 'plant'), name: common('Monstera'), price: common('460'), available: common('true') } },
      { cells: { g: cond('=', 'plant'), name: common('Begonia'), price: common('590'), available: common('false') } },
      { active: false, cells: { g: cond('=', 'plant'), name: common('Retired fern'), price: common('1'), available: common('true') } },
      { cells: { g: cond('=', 'plant'), name: common('Maranta'), price: common('390'), available: common('true') } },
      { cells: { g: cond('=', 'book'), name: common('Plant Lovers'), price: common('470'), available: common('true') } },
    ],
  });
}

function withElse(): Record<string, unknown> {
  const doc = plantItems() as { decisionTable: { rows: unknown[] } };
  doc.decisionTable.rows.push({
    active: true,
    cells: [
      { column: 'g', type: 'input', scalarCondition: cond('ELSE') },
      { column: 'name', type: 'output', outputScalarValue: common('Unknown') },
      { column: 'price', type: 'output', outputScalarValue: common('0') },
      { column: 'available', type: 'output', outputScalarValue: common('false') },
    ],
  });
  return doc as unknown as Record<string, unknown>;
}

const monstera = { name: 'Monstera', price: 460, available: true };
const begonia = { name: 'Begonia', price: 590, available: false };
const maranta = { name: 'Maranta', price: 390, available: true };
const book = { name: 'Plant Lovers', price: 470, available: true };

test('STANDARD returns every matched row in row order, skipping inactive rows; [] when nothing matches', () => {
  const table = compileTable(plantItems());
  assert.deepEqual(solveJson(table, { group: 'plant' }), [monstera, begonia, maranta]);
  assert.deepEqual(solveJson(table, { group: 'book' }), [book]);
  assert.deepEqual(solveJson(table, { group: 'tool' }), []);
  assert.deepEqual(solveJson(table, {}), []);
});

test('FIRST_MATCH returns [first matched row], or [] when nothing matches', () => {
  const table = compileTable(plantItems());
  assert.deepEqual(solveJson(table, { group: 'plant' }, { strategy: 'FIRST_MATCH' }), [monstera]);
  assert.deepEqual(solveJson(table, { group: 'tool' }, { strategy: 'FIRST_MATCH' }), []);
});

test('ARRAY merges matched rows leaf by leaf into one object, [{}] when nothing matches', () => {
  const table = compileTable(plantItems());
  assert.deepEqual(solveJson(table, { group: 'plant' }, { strategy: 'ARRAY' }), [
    { name: ['Monstera', 'Begonia', 'Maranta'], price: [460, 590, 390], available: [true, false, true] },
  ]);
  assert.deepEqual(solveJson(table, { group: 'book' }, { strategy: 'ARRAY' }), [{ name: ['Plant Lovers'], price: [470], available: [true] }]);
  assert.deepEqual(solveJson(table, { group: 'tool' }, { strategy: 'ARRAY' }), [{}]);
});

test('EVALUATE_ALL lists every active row with _match as the last key', () => {
  const table = compileTable(plantItems());
  const result = solveJson(table, { group: 'book' }, { strategy: 'EVALUATE_ALL' }) as Record<string, unknown>[];
  assert.deepEqual(result, [
    { ...monstera, _match: false },
    { ...begonia, _match: false },
    { ...maranta, _match: false },
    { ...book, _match: true },
  ]);
  for (const row of result) assert.equal(Object.keys(row).at(-1), '_match');
  assert.equal((solveJson(table, { group: 'tool' }, { strategy: 'EVALUATE_ALL' }) as unknown[]).length, 4, 'no match still lists every active row');
});

test('an unknown or lower-case strategy falls back to STANDARD, lower case is normalised', () => {
  const table = compileTable(plantItems());
  assert.deepEqual(solveJson(table, { group: 'book' }, { strategy: 'SOMETHING' }), [book]);
  assert.deepEqual(solveJson(table, { group: 'plant' }, { strategy: 'first_match' }), [monstera]);
});

test('ELSE fires only when no active row above matched, under every strategy (§3.6)', () => {
  const table = compileTable(withElse());
  const unknown = { name: 'Unknown', price: 0, available: false };
  assert.deepEqual(solveJson(table, { group: 'tool' }), [unknown]);
  assert.deepEqual(solveJson(table, {}), [unknown], 'a missing input reaches the ELSE row');
  assert.deepEqual(solveJson(table, { group: 'book' }), [book]);
  assert.deepEqual(solveJson(table, { group: 'tool' }, { strategy: 'FIRST_MATCH' }), [unknown]);
  assert.deepEqual(solveJson(table, { group: 'tool' }, { strategy: 'ARRAY' }), [{ name: ['Unknown'], price: [0], available: [false] }]);
  const all = solveJson(table, { group: 'plant' }, { strategy: 'EVALUATE_ALL' }) as { _match: boolean }[];
  assert.deepEqual(all.map((row) => row._match), [true, true, true, false, false]);
});

test('an inactive row that would match does not count as "matched above" for ELSE (§11 T1)', () => {
  const doc = withElse() as { decisionTable: { rows: { active: boolean }[] } };
  for (const row of doc.decisionTable.rows.slice(0, 4)) row.active = false;
  const table = compileTable(doc as unknown as Record<string, unknown>);
  assert.deepEqual(solveJson(table, { group: 'plant' }), [{ name: 'Unknown', price: 0, available: false }]);
});

test('ELSE ignores rows below it; of two ELSE rows only the first fires', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'code' },
        { id: 'o', kind: 'output', target: 'out' },
      ],
      rows: [
        { cells: { c: cond('=', 'A'), o: common('a') } },
        { cells: { c: cond('ELSE'), o: common('else-1') } },
        { cells: { c: cond('=', 'B'), o: common('b') } },
        { cells: { c: cond('ELSE'), o: common('else-2') } },
      ],
    }),
  );
  assert.deepEqual(solveJson(table, { code: 'B' }), [{ out: 'else-1' }, { out: 'b' }]);
  assert.deepEqual(solveJson(table, { code: 'Z' }), [{ out: 'else-1' }]);
  assert.deepEqual(solveJson(table, { code: 'A' }), [{ out: 'a' }]);
});

test('ELSE combined with an ordinary condition in the same row is ANDed', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'code' },
        { id: 'r', kind: 'input', target: 'region' },
        { id: 'o', kind: 'output', target: 'out' },
      ],
      rows: [
        { cells: { c: cond('=', 'A'), r: cond('anything'), o: common('a') } },
        { cells: { c: cond('ELSE'), r: cond('=', 'EU'), o: common('else-eu') } },
        { cells: { c: cond('ELSE'), r: cond('ELSE'), o: common('else') } },
      ],
    }),
  );
  assert.deepEqual(solveJson(table, { code: 'Z', region: 'EU' }), [{ out: 'else-eu' }]);
  assert.deepEqual(solveJson(table, { code: 'Z', region: 'US' }), [{ out: 'else' }]);
});

test('a row without a cell for a condition column treats it as anything; a missing result cell gives ""', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'c', kind: 'input', target: 'code' },
        { id: 'o', kind: 'output', target: 'out' },
        { id: 'p', kind: 'output', target: 'other' },
      ],
      rows: [{ cells: { o: common('x') } }],
    }),
  );
  assert.deepEqual(solveJson(table, { code: 'whatever' }), [{ out: 'x', other: '' }]);
});

test('the engine entry compiles and solves a table document end to end', () => {
  const doc = plantItems();
  const rule = compileRule(doc);
  assert.equal(rule.type, 'decision-table');
  assert.equal(rule.async, false);
  assert.deepEqual(JSON.parse(JSON.stringify(solveSync(rule, { group: 'plant' }, { strategy: 'FIRST_MATCH' }).result)), [monstera]);
});
