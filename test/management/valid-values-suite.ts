// Valid values over real HTTP (issue 28 item 2): a write that stores cells outside their column's valid values
// succeeds and says so in the Verdict-Warnings header; reads never carry it; the analysis lists the cells.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { skipReason, startSuiteServer } from './helpers.ts';
import type { Doc, SuiteServer } from './helpers.ts';
import type { Reply } from '../http/harness.ts';

/** A table over `product` (valid values in the ≤2023 form) with a result `tier` (valid values in the 2025 form). */
function table(alias: string, products: string[], tiers: string[] = products.map(() => 'gold'), columnName = 'Product'): Doc {
  return {
    type: 'decision-table',
    name: alias,
    ruleAlias: alias,
    inputSchema: { product: {} },
    outputSchema: { tier: {} },
    decisionTable: {
      columns: [
        {
          columnId: 'p',
          type: 'input',
          condition: { type: 'simple', name: columnName, inputVariable: 'product' },
          validValues: ['car', 'bike'].map((v) => ({ type: 'GENERAL', value: { display: v, value: v } })),
        },
        {
          columnId: 't',
          type: 'output',
          columnOutput: { type: 'simple', name: 'Tier', outputVariable: 'tier' },
          validValues: [{ type: 'GENERAL', value: 'gold' }, { type: 'GENERAL', value: 'silver' }],
        },
      ],
      rows: products.map((product, i) => ({
        active: true,
        cells: [
          { column: 'p', type: 'input', scalarCondition: { operator: '=', value: product, type: 'general' } },
          { column: 't', type: 'output', outputScalarValue: { type: 'common', value: tiers[i] } },
        ],
      })),
    },
  };
}

function warnings(reply: Reply): { count: number; warnings: Array<{ path: string; message: string }> } | null {
  const header = reply.headers.get('verdict-warnings');
  if (header === null) return null;
  assert.match(header, /^[\x20-\x7e]*$/, 'the header is printable ASCII');
  return JSON.parse(header);
}

export function validValuesSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`valid values on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;
    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind);
    });
    after(async () => {
      if (!skip) await s.close();
    });

    test('create, update and new version store cells outside the valid values and answer them as warnings', { skip }, async () => {
      const created = await s.api('POST', '/api/rule', table('vv-write', ['car', 'boat']));
      assert.equal(created.status, 200, created.text);
      assert.deepEqual(warnings(created), {
        count: 1,
        warnings: [{ path: 'decisionTable.rows[1].cells[0].scalarCondition.value', message: '"boat" is not a valid value of column "Product" (valid values: "car", "bike")' }],
      });
      assert.equal(created.json.decisionTable.rows[1].cells[0].scalarCondition.value, 'boat', 'the write stored the value');
      assert.equal((await s.solve('/rule/solve/vv-write', { product: 'boat' })).json[0].tier, 'gold', 'the solver ignores valid values');

      const get = await s.api('GET', '/api/rule/vv-write/1');
      assert.equal(get.status, 200);
      assert.equal(warnings(get), null, 'reads carry no warnings');

      const updated = await s.api('PUT', '/api/rule/vv-write/1', table('vv-write', ['plane', 'bike'], ['gold', 'bronze']));
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(warnings(updated)!.warnings.map((w) => w.path), [
        'decisionTable.rows[0].cells[0].scalarCondition.value',
        'decisionTable.rows[1].cells[1].outputScalarValue.value',
      ]);
      const clean = await s.api('PUT', '/api/rule/vv-write/1', table('vv-write', ['car', 'bike']));
      assert.equal(clean.status, 200, clean.text);
      assert.equal(warnings(clean), null, 'a clean write has no warnings header');

      const next = await s.api('POST', '/api/rule/vv-write/new-version', table('vv-write', ['truck']));
      assert.equal(next.status, 200, next.text);
      assert.equal(warnings(next)!.count, 1);
    });

    test('the header stays ASCII for any column name and lists the first 20 of many, with the count', { skip }, async () => {
      const many = Array.from({ length: 25 }, (_, i) => `boat-${i}`);
      const reply = await s.api('POST', '/api/rule', table('vv-many', many, undefined, 'Produkt für Kunden 🚗'));
      assert.equal(reply.status, 200, reply.text);
      const answered = warnings(reply)!;
      assert.equal(answered.count, 25);
      assert.equal(answered.warnings.length, 20);
      assert.equal(answered.warnings[19]!.message, '"boat-19" is not a valid value of column "Produkt für Kunden 🚗" (valid values: "car", "bike")');
    });

    test('the analysis lists each cell outside its column\'s valid values as a valid-value finding', { skip }, async () => {
      assert.equal((await s.api('POST', '/api/rule', table('vv-analysis', ['car', 'boat', 'bike'], ['gold', 'gold', 'tin']))).status, 200);
      const reply = await s.api('GET', '/api/tools/analysis/vv-analysis');
      assert.equal(reply.status, 200, reply.text);
      const found = reply.json.findings.filter((f: Doc) => f.kind === 'valid-value');
      assert.deepEqual(found.map((f: Doc) => [f.rows, f.columns]), [[[1], ['p']], [[2], ['t']]]);
      assert.equal(found[0].message, 'Row 2: "boat" is not a valid value of column "Product" (valid values: "car", "bike")');
    });
  });
}
