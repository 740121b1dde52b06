// Every decision table among the fixtures goes rule -> XLSX -> rule unchanged (ids aside) and solves the same
// (issue 28). Read back without a base rule (a new rule: columns get ids and, where they had none, aliases) and
// with the original as base (a new version: column ids, binding forms and missing aliases come back too).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileRule, solve } from '../../src/engine/index.ts';
import { readXlsx } from '../../src/formats/xlsx/index.ts';
import { tableToXlsx } from '../../src/service/management/xlsx.ts';
import { canonical, fixtureTables, sampleInputs } from './xlsx-helpers.ts';

const NOW = Date.parse('2025-06-15T12:00:00Z');

async function outcomes(document: Record<string, unknown>, inputs: unknown[]): Promise<unknown[]> {
  const compiled = compileRule(document);
  const out: unknown[] = [];
  for (const input of inputs) {
    try {
      out.push({ result: (await solve(compiled, input, { now: NOW })).result });
    } catch (err) {
      out.push({ error: (err as Error).message });
    }
  }
  return out;
}

const tables = fixtureTables();

describe('XLSX round trip of every fixture decision table', () => {
  test('the fixtures hold decision tables, DecisionRules\' own among them', () => {
    assert.ok(tables.length >= 20, `found ${tables.length}`);
    assert.ok(tables.some((t) => t.label.includes('shared/fixtures/decisionrules') || t.label.includes('Loan_Type')), 'DecisionRules fixtures are read');
  });

  for (const { label, document } of tables) {
    test(label, async () => {
      const bytes = await tableToXlsx(document);
      const asNew = (await readXlsx(bytes)).document;
      assert.deepEqual(canonical(asNew, { aliases: false }), canonical(document, { aliases: false }));
      const asVersion = (await readXlsx(bytes, { base: document })).document as any;
      assert.deepEqual(canonical(asVersion), canonical(document));
      assert.deepEqual(asVersion.decisionTable.columns.map((c: any) => c.columnId), (document as any).decisionTable.columns.map((c: any) => c.columnId));
      const inputs = sampleInputs(document);
      assert.deepEqual(await outcomes(asNew, inputs), await outcomes(document, inputs));
    });
  }
});
