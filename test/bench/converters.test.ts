// The JDM <-> neutral <-> Verdict converters of the benchmark harness.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromJdmTable, parseZenCondition, parseZenOutput } from '../../bench/lib/from-jdm.ts';
import { call, lit, ref } from '../../bench/lib/table-spec.ts';
import type { TableSpec } from '../../bench/lib/table-spec.ts';
import { renderZenCondition, renderZenExpr, toJdmDecision } from '../../bench/lib/to-jdm.ts';
import { renderVerdictExpr, toVerdictTable } from '../../bench/lib/to-verdict.ts';

test('ZEN unary cells become neutral conditions', () => {
  assert.deepEqual(parseZenCondition(''), { op: 'any' });
  assert.deepEqual(parseZenCondition(undefined), { op: 'any' });
  assert.deepEqual(parseZenCondition("'GB'"), { op: 'eq', value: 'GB' });
  assert.deepEqual(parseZenCondition('"GB"'), { op: 'eq', value: 'GB' });
  assert.deepEqual(parseZenCondition('42'), { op: 'eq', value: 42 });
  assert.deepEqual(parseZenCondition('< 100'), { op: 'lt', value: 100 });
  assert.deepEqual(parseZenCondition(">= 2.5"), { op: 'ge', value: 2.5 });
  assert.deepEqual(parseZenCondition("!= 'x'"), { op: 'ne', value: 'x' });
  assert.deepEqual(parseZenCondition("'a', 'b, c', 3"), { op: 'in', values: ['a', 'b, c', 3] });
  assert.deepEqual(parseZenCondition("not in ['a', 'b']"), { op: 'notIn', values: ['a', 'b'] });
  assert.deepEqual(parseZenCondition('[1..10]'), { op: 'between', lo: 1, hi: 10 });
  assert.deepEqual(parseZenCondition("endsWith($, '@gmail.com')"), { op: 'endsWith', value: '@gmail.com' });
  assert.deepEqual(parseZenCondition("startsWith($, 'SKU')"), { op: 'startsWith', value: 'SKU' });
  assert.equal(parseZenCondition('$ > other.field'), undefined);
  assert.equal(parseZenCondition('(1..10)'), undefined);
});

test('ZEN output expressions become literals or input references', () => {
  assert.deepEqual(parseZenOutput('5'), { kind: 'lit', value: 5 });
  assert.deepEqual(parseZenOutput('"USD"'), { kind: 'lit', value: 'USD' });
  assert.deepEqual(parseZenOutput('product.currency'), { kind: 'ref', path: 'product.currency' });
  assert.equal(parseZenOutput('a + b'), undefined);
});

test('an unsupported JDM cell is reported with its row and column', () => {
  const jdm = {
    nodes: [{ type: 'decisionTableNode', content: { hitPolicy: 'first', inputs: [{ id: 'c', name: 'Country', field: 'country' }], outputs: [{ id: 'o', field: 'x' }], rules: [{ _id: 'r', c: "'GB'", o: '1' }, { _id: 'r2', c: 'matches($, "x")', o: '2' }] } }],
  };
  assert.throws(() => fromJdmTable(jdm, 't'), /row 2, column "Country": unsupported ZEN cell/);
});

test('expressions render with every infix operation bracketed, so precedence cannot differ', () => {
  const e = call('round2', call('mul', ref('a.b'), call('sub', lit(1), call('div', ref('pct'), lit(100)))));
  assert.equal(renderVerdictExpr(e), 'ROUND(({a.b} * (1 - ({pct} / 100))), 2)');
  assert.equal(renderZenExpr(e), 'round((a.b * (1 - (pct / 100))), 2)');
  const text = call('upper', call('concat', ref('tier'), lit('-'), ref('n')));
  assert.equal(renderVerdictExpr(text), 'UPPER_CASE(CONCAT({tier}, "-", {n}))');
  assert.equal(renderZenExpr(text), "upper((string(tier) + '-' + string(n)))");
  assert.equal(renderVerdictExpr(call('endsWith', ref('email'), lit('.com'))), 'EQ(RIGHT({email}, 4), ".com")');
});

test('a neutral table renders to both formats with the same cells', () => {
  const spec: TableSpec = {
    name: 't',
    hitPolicy: 'first',
    inputs: [{ field: 'customer.country' }, { field: 'total' }],
    outputs: [{ field: 'shipping.price' }, { field: 'shipping.currency' }],
    rows: [{ when: [{ op: 'in', values: ['GB', 'IE'] }, { op: 'between', lo: 1, hi: 5 }], then: [lit(5), ref('currency')] }],
  };
  const verdict = toVerdictTable(spec) as { decisionTable: { rows: { cells: Record<string, unknown>[] }[] }; inputSchema: unknown; outputSchema: unknown };
  assert.deepEqual(verdict.inputSchema, { customer: { country: {} }, total: {} });
  assert.deepEqual(verdict.outputSchema, { shipping: { price: {}, currency: {} } });
  const cells = verdict.decisionTable.rows[0].cells;
  assert.deepEqual(cells[0].scalarCondition, { operator: 'IN', value: ['GB', 'IE'], type: 'general' });
  assert.deepEqual(cells[1].scalarCondition, { operator: 'between', value: ['1', '5'], type: 'general' });
  assert.deepEqual(cells[2].outputScalarValue, { type: 'common', value: '5' });
  assert.deepEqual(cells[3].outputScalarValue, { type: 'function', value: '{currency}', stringValue: '{currency}' });
  const jdm = toJdmDecision(spec);
  const rule = (jdm.nodes[1].content as { rules: Record<string, string>[] }).rules[0];
  assert.deepEqual(Object.values(rule).slice(1), ["'GB', 'IE'", '[1..5]', '5', 'currency']);
  assert.equal(renderZenCondition({ op: 'notIn', values: [1, 2] }), 'not in [1, 2]');
});

test('text results that the simple-value cast would change are refused rather than silently altered', () => {
  const spec: TableSpec = { name: 't', hitPolicy: 'first', inputs: [{ field: 'a' }], outputs: [{ field: 'x' }], rows: [{ when: [{ op: 'any' }], then: [lit('123')] }] };
  assert.throws(() => toVerdictTable(spec), /would be cast/);
});

test('JDM -> neutral -> JDM keeps the cells of a ZEN table', () => {
  const content = {
    hitPolicy: 'first',
    inputs: [{ id: 'a', name: 'Country', field: 'customer.country' }, { id: 'b', name: 'Email', field: 'customer.email' }],
    outputs: [{ id: 'o', name: 'Price', field: 'shipping.price' }],
    rules: [{ _id: 'r1', a: "'GB'", b: "endsWith($, '@gmail.com')", o: '5' }, { _id: 'r2', a: '', b: '', o: '10' }],
  };
  const spec = fromJdmTable({ nodes: [{ type: 'decisionTableNode', content }] }, 'x');
  const back = (toJdmDecision(spec).nodes[1].content as { rules: Record<string, string>[] }).rules.map((r) => Object.values(r).slice(1));
  assert.deepEqual(back, [["'GB'", "endsWith($, '@gmail.com')", '5'], ['', '', '10']]);
});
