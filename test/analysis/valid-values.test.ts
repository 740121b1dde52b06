// The valid-values checker (issue 28 item 2, docs/decisions/valid-values.md): which cells are outside their
// column's valid values, over both stored forms, and the analysis finding built from it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { compileRule } from '../../src/engine/index.ts';
import { analyseDecisionTable, cellsOutsideValidValues, hasDefects } from '../../src/engine/analysis/index.ts';
import { readContainer } from '../../src/rules/containers.ts';
import { validValuesField, validValuesOf } from '../../src/rules/valid-values.ts';
import { validateRuleDocument } from '../../src/rules/validate.ts';

const OLD_FORM = ['car', 'vacation'].map((v) => ({ type: 'GENERAL', value: { display: v, value: v } }));
const NEW_FORM = [{ type: 'GENERAL', value: 'SHOP_A' }, { type: 'GENERAL', value: 'SHOP_B' }];

type Cell = Record<string, unknown>;
const when = (operator: string, value: unknown, type = 'general'): Cell => ({ operator, value, type });
const simple = (value: unknown): Cell => ({ type: 'common', value });

/** A table: condition `kind` (old form), condition `shop` (new form), result `label` (new form), result `free`. */
function doc(rows: Array<{ kind?: Cell; shop?: Cell; label?: Cell; active?: boolean }>): Record<string, unknown> {
  return {
    type: 'decision-table',
    name: 'Valid values',
    status: 'published',
    inputSchema: { kind: {}, shop: {} },
    outputSchema: { label: {}, free: {} },
    decisionTable: {
      columns: [
        { columnId: 'k', type: 'input', condition: { type: 'simple', name: 'Loan type', inputVariable: 'kind' }, validValues: OLD_FORM },
        { columnId: 's', type: 'input', condition: { type: 'simple', name: 'Branch', inputVariable: 'shop' }, validValues: NEW_FORM },
        { columnId: 'l', type: 'output', columnOutput: { type: 'simple', name: 'Label', outputVariable: 'label' }, validValues: [{ type: 'GENERAL', value: 'yes' }, { type: 'GENERAL', value: 5 }] },
        { columnId: 'f', type: 'output', columnOutput: { type: 'simple', name: 'Free', outputVariable: 'free' } },
      ],
      rows: rows.map((row) => ({
        active: row.active ?? true,
        // Cells out of column order on purpose: cells are matched by column id.
        cells: [
          { column: 'f', type: 'output', outputScalarValue: simple('anything goes') },
          { column: 'l', type: 'output', outputScalarValue: row.label ?? simple('yes') },
          { column: 'k', type: 'input', scalarCondition: row.kind ?? when('anything', '') },
          { column: 's', type: 'input', scalarCondition: row.shop ?? when('anything', '') },
        ],
      })),
    },
  };
}

const outside = (d: unknown) => cellsOutsideValidValues(d).map((c) => [c.row, c.column, c.value]);

test('both stored forms are read; other kinds and malformed entries restrict nothing', () => {
  assert.deepEqual(validValuesOf({ validValues: OLD_FORM }), ['car', 'vacation']);
  assert.deepEqual(validValuesOf({ validValues: NEW_FORM }), ['SHOP_A', 'SHOP_B']);
  assert.deepEqual(validValuesOf({ validValues: [{ type: 'DATE', value: { date: '2024-01-01' } }, 'x', null, { type: 'GENERAL' }, { type: 'GENERAL', value: 3 }] }), [3]);
  assert.deepEqual(validValuesOf({ validValues: 'car' }), []);
  assert.deepEqual(validValuesOf({}), []);
  assert.deepEqual(validValuesField(['a', 'b']), [{ type: 'GENERAL', value: 'a' }, { type: 'GENERAL', value: 'b' }]);
});

test('= and != values, each IN / NOT IN member and simple result values outside the list are listed with row and column', () => {
  const d = doc([
    { kind: when('=', 'car'), shop: when('IN', ['SHOP_A', 'SHOP_C']) },
    { kind: when('=', 'boat'), shop: when('NOT IN', 'SHOP_B|SHOP_X|SHOP_A'), label: simple('no') },
    { kind: when('<>', 'plane'), label: simple('5') },
  ]);
  assert.deepEqual(outside(d), [
    [0, 's', 'SHOP_C'],
    [1, 'k', 'boat'],
    [1, 's', 'SHOP_X'],
    [1, 'l', 'no'],
    [2, 'k', 'plane'],
  ]);
  const [first] = cellsOutsideValidValues(d);
  assert.equal(first!.path, 'decisionTable.rows[0].cells[3].scalarCondition.value');
  assert.equal(first!.message, '"SHOP_C" is not a valid value of column "Branch" (valid values: "SHOP_A", "SHOP_B")');
});

test('cells naming no single value are exempt: other operators, functions, dates, empty cells, {variables}', () => {
  const d = doc([
    { kind: when('between', ['a', 'z']), shop: when('containsText', 'SHOP_Z') },
    { kind: when('function', 'kind == "boat"', 'function'), shop: when('>', 'SHOP_Z') },
    { kind: when('=', '2024-01-01', 'date'), shop: when('=', '') },
    { kind: when('=', '{otherKind}'), shop: when('IN', '{shops}') },
    { kind: when('ELSE', ''), shop: when('isNull', ''), label: { type: 'function', value: 'no', stringValue: '"no"' } },
    { label: simple('{computed}') },
  ]);
  assert.deepEqual(outside(d), []);
});

test('values compare as the solver\'s = does: numbers and their text are one value, quotes are stripped, case counts', () => {
  const d = doc([
    { kind: when('=', '"car"'), label: simple(5) },
    { kind: when('=', 'Car'), label: simple('5.0') },
  ]);
  assert.deepEqual(outside(d), [[1, 'k', 'Car']]);
});

test('inactive rows are checked too, and a column without valid values restricts nothing', () => {
  assert.deepEqual(outside(doc([{ kind: when('=', 'boat'), active: false }])), [[0, 'k', 'boat']]);
});

test('the analysis lists each outside cell as a valid-value finding, not a defect, after the other kinds', () => {
  const d = doc([
    { kind: when('=', 'car'), shop: when('=', 'SHOP_A') },
    { kind: when('=', 'car'), shop: when('=', 'SHOP_A') },
    { kind: when('=', 'boat') },
  ]);
  assert.deepEqual(validateRuleDocument(d), []);
  const report = analyseDecisionTable(compileRule(d), { document: d });
  const kinds = report.findings.map((f) => f.kind);
  assert.equal(kinds.at(-1), 'valid-value');
  const finding = report.findings.find((f) => f.kind === 'valid-value')!;
  assert.deepEqual([finding.rows, finding.columns], [[2], ['k']]);
  assert.match(finding.message, /^Row 3: "boat" is not a valid value of column "Loan type"/);
  assert.equal(hasDefects({ ...report, findings: [finding] }), false);
  // Without the document (the compiled table carries no valid values) there is no such finding.
  assert.equal(analyseDecisionTable(compileRule(d)).findings.some((f) => f.kind === 'valid-value'), false);
});

const SHARED = fileURLToPath(new URL('../../../shared/fixtures/decisionrules/', import.meta.url));

test('DecisionRules exports with valid values in both forms: clean as exported, one edited cell is flagged', { skip: !existsSync(SHARED) && 'no ../shared fixtures' }, () => {
  const read = (file: string) => readContainer(JSON.parse(readFileSync(`${SHARED}${file}`, 'utf8'))).rules.map((e) => e.document).filter((d) => d.type === 'decision-table');
  const [loan] = read('Loan_Type_v1.json'); // ≤2023 form {display, value}
  const [catalogue] = read('Decision_Flow_tutorial.json'); // 2025 form, IN lists
  for (const table of [loan!, catalogue!]) assert.deepEqual(outside(table), []);
  const edited = structuredClone(loan!) as any;
  edited.decisionTable.rows[3].cells[0].scalarCondition.value = 'yacht';
  assert.deepEqual(outside(edited), [[3, edited.decisionTable.columns[0].columnId, 'yacht']]);
  const shops = structuredClone(catalogue!) as any;
  shops.decisionTable.rows[0].cells[1].scalarCondition.value = ['SHOP_A', 'SHOP_Q'];
  assert.deepEqual(outside(shops), [[0, shops.decisionTable.columns[1].columnId, 'SHOP_Q']]);
});
