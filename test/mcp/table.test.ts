// Structured table edits and compact views (src/mcp/table.ts) on the example rule: each edit does exactly its
// change, a refused edit names its path and applies nothing, and the view keys cells by column alias.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { applyTableEdits, tableView } from '../../src/mcp/table.ts';
import type { TableEdit } from '../../src/mcp/table.ts';
import { ValidationError } from '../../src/rules/problems.ts';
import { validateRuleDocument } from '../../src/rules/validate.ts';

const EXAMPLE = JSON.parse(readFileSync(new URL('../../examples/rules/shipping-fee.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const keys = (doc: Record<string, unknown>) => tableView(doc).shape.columns.map((c) => c.key);
const column = (doc: Record<string, unknown>, key: string) => tableView(doc, 1, 100).rows.items.map((r) => r.cells[key]);

function problemsOf(edits: TableEdit[]): Array<{ path: string; message: string }> {
  try {
    applyTableEdits(EXAMPLE, edits);
  } catch (err) {
    assert.ok(err instanceof ValidationError);
    return err.problems;
  }
  assert.fail('the edits were applied');
}

describe('table views', () => {
  test('the shape first, then a page of rows keyed by column alias, 1-based', () => {
    const view = tableView(EXAMPLE, 2, 1);
    assert.deepEqual(view.shape.columns.map((c) => [c.key, c.kind, c.path]), [
      ['col-country', 'condition', 'order.country'],
      ['col-total', 'condition', 'order.total'],
      ['col-fee', 'output', 'shipping.fee'],
      ['col-currency', 'output', 'shipping.currency'],
      ['col-message', 'output', 'message'],
    ]);
    assert.deepEqual([view.shape.rows, view.rows.from, view.rows.to, view.rows.more], [3, 2, 2, true]);
    assert.deepEqual(Object.keys(view.rows.items[0]!.cells), keys(EXAMPLE));
  });

  test('a rule that is not a decision table is named as such', () => {
    assert.throws(() => tableView({ type: 'decision-tree', nodes: [] }), /apply to decision tables; this rule is a decision-tree/);
  });
});

describe('table edits', () => {
  test('rows: add at a position, change only the cells given, move, delete; the original is untouched', () => {
    const before = JSON.stringify(EXAMPLE);
    const edited = applyTableEdits(EXAMPLE, [
      { op: 'add_row', at: 1, cells: { 'col-country': 'AT', 'col-fee': '9' } },
      { op: 'change_row', row: 2, cells: { 'col-message': 'changed' }, active: false },
      { op: 'move_row', row: 1, to: 4 },
      { op: 'delete_row', row: 3 },
    ]);
    assert.equal(JSON.stringify(EXAMPLE), before);
    const view = tableView(edited, 1, 10);
    assert.equal(view.shape.rows, 3);
    assert.deepEqual(view.rows.items.map((r) => r.active), [false, true, true]);
    assert.deepEqual(column(edited, 'col-message')[0], { type: 'common', value: 'changed' });
    assert.deepEqual(column(edited, 'col-country')[2], { operator: '=', value: 'AT', type: 'general' }, 'a bare value in a condition is "="');
    assert.deepEqual(column(edited, 'col-total')[2], { operator: 'anything', value: '', type: 'general' }, 'a new row matches anything where not given');
    assert.deepEqual(column(edited, 'col-fee')[2], { type: 'common', value: '9' });
    assert.deepEqual(validateRuleDocument(edited), []);
  });

  test('columns: add (conditions after the conditions, results last), rename, re-bind, move, delete with their cells', () => {
    const edited = applyTableEdits(EXAMPLE, [
      { op: 'add_column', kind: 'condition', name: 'Express', path: 'order.express', fill: { operator: '=', value: 'true', type: 'general' } },
      { op: 'add_column', kind: 'output', name: 'Days', path: 'shipping.days', alias: 'days' },
      { op: 'add_column', kind: 'calculation', name: 'Gross', path: 'gross', at: 1, fill: { type: 'function', stringValue: '{order.total} * 1.2' } },
      { op: 'change_column', column: 'col-total', name: 'Total', path: 'order.sum' },
      { op: 'move_column', column: 'col-message', to: 1 },
      { op: 'delete_column', column: 'col-currency' },
    ]);
    assert.deepEqual(keys(edited), ['col-message', 'col-gross', 'col-country', 'col-total', 'col-express', 'col-fee', 'days']);
    const total = tableView(edited).shape.columns.find((c) => c.key === 'col-total')!;
    assert.deepEqual([total.name, total.path], ['Total', 'order.sum']);
    assert.ok(tableView(edited, 1, 10).rows.items.every((r) => !('col-currency' in r.cells) && Object.keys(r.cells).length === 7));
    assert.deepEqual(column(edited, 'col-express'), Array(3).fill({ operator: '=', value: 'true', type: 'general' }));
    assert.deepEqual((edited.inputSchema as { order: Record<string, unknown> }).order, { country: {}, total: {}, express: {}, sum: {} }, 'new input paths join the model');
    assert.deepEqual((edited.outputSchema as { shipping: Record<string, unknown> }).shipping, { fee: {}, currency: {}, days: {} });
    assert.deepEqual(validateRuleDocument(edited), []);
  });

  test('a generated alias never clashes; a given one that clashes is refused', () => {
    const edited = applyTableEdits(EXAMPLE, [{ op: 'add_column', kind: 'output', name: 'Fee', path: 'fee2' }]);
    assert.ok(keys(edited).includes('col-fee-2'));
    assert.deepEqual(problemsOf([{ op: 'add_column', kind: 'output', name: 'Fee', path: 'x', alias: 'col-fee' }]), [
      { path: 'edits[0].alias', message: 'column alias "col-fee" is already used in this table' },
    ]);
  });

  test('every edit that cannot apply is named by its path, and none is applied', () => {
    assert.deepEqual(
      problemsOf([
        { op: 'change_row', row: 0, cells: {} },
        { op: 'move_row', row: 1, to: 7 },
        { op: 'add_row', cells: { nope: 'x' } },
        { op: 'delete_column', column: 'ghost' },
        { op: 'move_column', column: 'col-fee', to: 9 },
      ]),
      [
        { path: 'edits[0].row', message: 'must be a row number from 1 to 3 (got 0)' },
        { path: 'edits[1].to', message: 'must be a row number from 1 to 3 (got 7)' },
        { path: 'edits[2].cells.nope', message: 'no column "nope"; columns are "col-country", "col-total", "col-fee", "col-currency", "col-message"' },
        { path: 'edits[3].column', message: 'no column "ghost"; columns are "col-country", "col-total", "col-fee", "col-currency", "col-message"' },
        { path: 'edits[4].to', message: 'must be a column position from 1 to 5' },
      ],
    );
  });
});
