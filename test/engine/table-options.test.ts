// includedConditionCols / excludedConditionCols (§3.5), row time validity (§2.3) and rule variables as
// column bindings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/engine/errors.ts';
import { common, compileTable, cond, solveJson, tableDoc } from './table-helpers.ts';

/** Clients (§3.6): two condition columns on client.age and two on client.salary, old column form. */
function clients(): Record<string, unknown> {
  const row = (minAge: string, maxAge: string, minSalary: string, maxSalary: string, hazard: string) => ({
    cells: {
      ageMin: cond('>=', minAge),
      ageMax: cond('<', maxAge),
      salaryMin: cond('>=', minSalary),
      salaryMax: cond('<', maxSalary),
      hazard: common(hazard),
    },
  });
  return tableDoc({
    outputSchema: { client: { hazard: {} } },
    columns: [
      { id: 'ageMin', kind: 'input', target: 'client.age', alias: 'col-min-age', form: 'old' },
      { id: 'ageMax', kind: 'input', target: 'client.age', alias: 'col-max-age', form: 'old' },
      { id: 'salaryMin', kind: 'input', target: 'client.salary', alias: 'col-min-salary', form: 'old' },
      { id: 'salaryMax', kind: 'input', target: 'client.salary', alias: 'col-max-salary', form: 'old' },
      { id: 'hazard', kind: 'output', target: 'client.hazard' },
    ],
    rows: [
      row('0', '25', '0', '1000', '5'),
      row('25', '40', '0', '1000', '4'),
      row('25', '40', '1000', '3000', '2'),
      row('25', '40', '3000', '100000', '1'),
      row('40', '200', '0', '100000', '3'),
    ],
  });
}

const input = { client: { age: 30, salary: 4000 } };
const hazards = (result: unknown): unknown[] => (result as { client: { hazard: unknown } }[]).map((r) => r.client.hazard);

test('without options every condition column counts', () => {
  assert.deepEqual(hazards(solveJson(compileTable(clients()), input)), [1]);
});

test('excluding an input path switches off every column bound to it', () => {
  const table = compileTable(clients());
  assert.deepEqual(hazards(solveJson(table, input, { excludedConditionCols: ['client.salary'] })), [4, 2, 1]);
});

test('columns can be named by alias; an alias names just that column', () => {
  const table = compileTable(clients());
  assert.deepEqual(hazards(solveJson(table, input, { excludedConditionCols: ['col-min-salary'] })), [1], 'only the upper bounds count');
  assert.deepEqual(hazards(solveJson(table, input, { excludedConditionCols: ['col-max-salary'] })), [4, 2, 1], 'only the lower bounds count');
  assert.deepEqual(hazards(solveJson(table, input, { includedConditionCols: ['col-min-age', 'col-max-age'] })), [4, 2, 1]);
});

test('includedConditionCols wins over excludedConditionCols', () => {
  const table = compileTable(clients());
  const result = solveJson(table, input, { includedConditionCols: ['client.age'], excludedConditionCols: ['client.age'] });
  assert.deepEqual(hazards(result), [4, 2, 1]);
});

test('included names that match nothing leave no condition evaluated; unknown excluded names are ignored', () => {
  const table = compileTable(clients());
  assert.deepEqual(hazards(solveJson(table, input, { includedConditionCols: ['nope'] })), [5, 4, 2, 1, 3]);
  assert.deepEqual(hazards(solveJson(table, input, { excludedConditionCols: ['nope'] })), [1]);
  assert.deepEqual(hazards(solveJson(table, input, { excludedConditionCols: [] })), [1], 'an empty list is no option');
});

test('an ELSE cell in a skipped column counts as true; the row still needs its other ELSE cells (§11 T1)', () => {
  const table = compileTable(
    tableDoc({
      columns: [
        { id: 'a', kind: 'input', target: 'a' },
        { id: 'b', kind: 'input', target: 'b' },
        { id: 'o', kind: 'output', target: 'out' },
      ],
      rows: [
        { cells: { a: cond('=', '1'), b: cond('=', '1'), o: common('one') } },
        { cells: { a: cond('ELSE'), b: cond('ELSE'), o: common('else') } },
      ],
    }),
  );
  assert.deepEqual(solveJson(table, { a: 1, b: 1 }, { excludedConditionCols: ['a'] }), [{ out: 'one' }]);
  assert.deepEqual(solveJson(table, { a: 1, b: 2 }, { excludedConditionCols: ['a'] }), [{ out: 'else' }]);
});

function windowed(timeValidation: unknown): Record<string, unknown> {
  return tableDoc({
    columns: [
      { id: 'c', kind: 'input', target: 'x' },
      { id: 'o', kind: 'output', target: 'out' },
    ],
    rows: [
      { timeValidation, cells: { c: cond('anything'), o: common('promo') } },
      { cells: { c: cond('ELSE'), o: common('regular') } },
    ],
  });
}

test('a row is used only inside its time window, with inclusive bounds (text encoding)', () => {
  const table = compileTable(windowed({ from: '2024-06-01 00:00 +00:00', to: '2024-06-30 12:00 +00:00' }));
  const at = (iso: string): unknown => solveJson(table, {}, { now: Date.parse(iso) });
  assert.deepEqual(at('2024-05-31T23:59:59Z'), [{ out: 'regular' }], 'before: behaves like an inactive row, ELSE fires');
  assert.deepEqual(at('2024-06-01T00:00:00Z'), [{ out: 'promo' }], 'from is inclusive');
  assert.deepEqual(at('2024-06-30T12:00:00Z'), [{ out: 'promo' }], 'to is inclusive');
  assert.deepEqual(at('2024-06-30T12:00:01Z'), [{ out: 'regular' }]);
});

test('time windows accept the legacy {date, time, timezone} objects and open-ended bounds', () => {
  const legacy = compileTable(windowed({ from: { date: '2024-06-01', time: '08:00', timezone: '+02:00' }, to: { date: '2024-06-30', timezone: '+02:00' } }));
  const at = (iso: string): unknown => solveJson(legacy, {}, { now: Date.parse(iso) });
  assert.deepEqual(at('2024-06-01T05:59:00Z'), [{ out: 'regular' }]);
  assert.deepEqual(at('2024-06-01T06:00:00Z'), [{ out: 'promo' }]);
  assert.deepEqual(at('2024-06-30T21:59:00Z'), [{ out: 'promo' }], 'a to-date without time covers that whole day');
  assert.deepEqual(at('2024-06-30T22:00:00Z'), [{ out: 'regular' }]);
  const openEnded = compileTable(windowed({ from: '2024-06-01 00:00 +00:00' }));
  assert.deepEqual(solveJson(openEnded, {}, { now: Date.parse('2031-01-01T00:00:00Z') }), [{ out: 'promo' }]);
  assert.deepEqual(solveJson(openEnded, {}, { now: Date.parse('2024-01-01T00:00:00Z') }), [{ out: 'regular' }]);
});

test('an out-of-window row is left out of EVALUATE_ALL like an inactive row', () => {
  const table = compileTable(windowed({ to: '2020-01-01 00:00 +00:00' }));
  assert.deepEqual(solveJson(table, {}, { strategy: 'EVALUATE_ALL' }), [{ out: 'regular', _match: true }]);
});

test('an unparseable time window is reported with its path', () => {
  // The reading of the document (src/rules) refuses it, before any compiling, as compileRule does.
  assert.throws(
    () => compileTable(windowed({ from: 'soon' })),
    (error: unknown) =>
      error instanceof ValidationError && error.problems.some((p) => p.path === 'decisionTable.rows[0].timeValidation.from' && /must be a date/.test(p.message)),
  );
});

test('a condition column bound to a rule variable tests the variable, not the input (§11 F1)', () => {
  const table = compileTable(
    tableDoc({
      userVariables: [{ name: 'mode', value: 'strict' }, {}],
      columns: [
        { id: 'm', kind: 'input', target: 'mode' },
        { id: 'o', kind: 'output', target: 'out' },
      ],
      rows: [
        { cells: { m: cond('=', 'strict'), o: common('strict rules') } },
        { cells: { m: cond('ELSE'), o: common('lenient rules') } },
      ],
    }),
  );
  assert.deepEqual(solveJson(table, { mode: 'lenient' }), [{ out: 'strict rules' }]);
});

test('broken documents report every problem at once, each with its path', () => {
  const doc = tableDoc({
    columns: [
      { id: 'c', kind: 'input', target: 'x' },
      { id: 'o', kind: 'output', target: 'out' },
    ],
    rows: [
      { cells: { c: cond('betwen', ['1', '2']), o: common('a') } },
      { cells: { c: cond('=', 'x'), o: { type: 'mystery', value: 'b' } } },
    ],
  }) as { decisionTable: { columns: Record<string, unknown>[] } };
  doc.decisionTable.columns.push({ columnId: 'o', type: 'output', columnOutput: { outputVariable: 'dup' } });
  doc.decisionTable.columns.push({ columnId: 'z', type: 'weird' });
  assert.throws(
    () => compileTable(doc as unknown as Record<string, unknown>),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.deepEqual(
        error.problems.map((p) => p.path),
        [
          'decisionTable.columns[2].columnId',
          'decisionTable.columns[3].type',
          'decisionTable.rows[0].cells[0].scalarCondition.operator',
          'decisionTable.rows[1].cells[1].outputScalarValue.type',
        ],
      );
      assert.match(error.message, /unknown operator "betwen"/);
      return true;
    },
  );
});
