// The XLSX routes over real HTTP (SQLite): export answers the file with its type and name; import creates a rule
// or a version like the JSON routes; read stores nothing; errors name sheet and cell, import nothing, and leak no
// stack; another rule type is a clear 400.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { writeXlsx } from '../../src/formats/xlsx/index.ts';
import { canonical, edgeTable } from '../formats/xlsx-helpers.ts';
import { asNew, assertError, startSuiteServer } from './helpers.ts';
import type { SuiteServer } from './helpers.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('XLSX routes', () => {
  let s: SuiteServer;
  before(async () => {
    s = await startSuiteServer('sqlite');
    const created = await s.api('POST', '/api/rule', asNew(edgeTable(), ['ruleId', 'ruleAlias']));
    assert.equal(created.status, 200, created.text);
  });
  after(async () => {
    await s.close();
  });

  async function download(path: string): Promise<{ status: number; type: string | null; disposition: string | null; bytes: Buffer }> {
    const response = await fetch(`${s.server.url}${path}`, { headers: { authorization: `Bearer ${s.space.managementKey}` } });
    return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), bytes: Buffer.from(await response.arrayBuffer()) };
  }

  function upload(path: string, bytes: Uint8Array, type = XLSX) {
    return s.server.call('POST', path, { key: s.space.managementKey, headers: { 'content-type': type }, raw: bytes });
  }

  async function edit(bytes: Buffer, change: (w: ExcelJS.Workbook) => void): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    change(workbook);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  async function ruleCount(): Promise<number> {
    const items = await s.api('GET', '/api/space/items');
    return items.json.length;
  }

  test('export answers the file, its content type and a name from alias and version', async () => {
    for (const path of ['/api/xlsx/export/edge-cases', '/api/xlsx/export/edge-1/1']) {
      const file = await download(path);
      assert.equal(file.status, 200);
      assert.equal(file.type, XLSX);
      assert.equal(file.disposition, 'attachment; filename="edge-cases-v1.xlsx"; filename*=UTF-8\'\'edge-cases-v1.xlsx');
      assert.deepEqual([...file.bytes.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04]);
    }
  });

  test('read answers the rule the file holds and stores nothing', async () => {
    const before = await ruleCount();
    const file = await download('/api/xlsx/export/edge-cases');
    const reply = await upload('/api/xlsx/read?rule=edge-cases', file.bytes);
    assert.equal(reply.status, 200, reply.text);
    const stored = await s.api('GET', '/api/rule/edge-cases');
    assert.deepEqual(canonical(reply.json), canonical(stored.json));
    assert.deepEqual(reply.json.decisionTable.columns.map((c: any) => c.columnId), stored.json.decisionTable.columns.map((c: any) => c.columnId));
    assert.equal(await ruleCount(), before);
  });

  test('import creates a new rule like POST /api/rule, and a new version keeps column ids', async () => {
    const file = await download('/api/xlsx/export/edge-cases');
    const renamed = await edit(file.bytes, (w) => {
      const settings = w.getWorksheet('Settings')!;
      settings.getCell('B2').value = 'Edge Copy';
      settings.getCell('B3').value = 'edge-copy';
      settings.getCell('B8').value = 'edge-copy-id';
    });
    const created = await upload('/api/xlsx/import', renamed);
    assert.equal(created.status, 200, created.text);
    assert.equal(created.json.ruleAlias, 'edge-copy');
    assert.equal(created.json.ruleId, 'edge-copy-id');
    assert.equal(created.json.version, 1);
    assert.ok(created.headers.get('etag'));
    const again = await upload('/api/xlsx/import', renamed);
    assertError(again, 409, /Rule id "edge-copy-id" already exists/);

    const changed = await edit(file.bytes, (w) => {
      w.getWorksheet('Table')!.getCell('N6').value = 'senior {Promo}';
      w.getWorksheet('Table')!.getCell('F7').value = 43;
    });
    const version = await upload('/api/xlsx/import/edge-cases', changed);
    assert.equal(version.status, 200, version.text);
    assert.equal(version.json.version, 2);
    assert.equal(version.json.status, 'pending');
    const first = (await s.api('GET', '/api/rule/edge-cases/1')).json;
    assert.deepEqual(version.json.decisionTable.columns, first.decisionTable.columns);
    assert.equal(version.json.decisionTable.rows[0].cells[5].outputScalarValue.value, 'senior {Promo}');
    // A value outside its column's valid values is stored, with a warning placed on its cell.
    const warnings = JSON.parse(version.headers.get('verdict-warnings') ?? '{"warnings":[]}').warnings as Array<{ path: string }>;
    assert.deepEqual(warnings.map((w) => w.path), ['Table!D7', 'Table!D7', 'Table!F7'], 'a|b and c in row 2 are no Segment values; 43 is no Age value');
  });

  test('a file with problems answers 400 naming sheet and cell, and imports nothing', async () => {
    const before = await ruleCount();
    const file = await download('/api/xlsx/export/edge-cases');
    const broken = await edit(file.bytes, (w) => {
      w.getWorksheet('Table')!.getCell('C7').value = 'betwixt';
      w.getWorksheet('Table')!.getCell('J6').value = 'SUM({a},';
    });
    const reply = await upload('/api/xlsx/import/edge-cases', broken);
    assertError(reply, 400, /^Table!C7: unknown operator "betwixt"/);
    assert.deepEqual(reply.json.error.problems.map((p: any) => p.path), ['Table!C7']);
    const compiled = await upload('/api/xlsx/import/edge-cases', await edit(file.bytes, (w) => {
      w.getWorksheet('Table')!.getCell('J6').value = 'SUM({a},';
    }));
    assertError(compiled, 400, /^Table!J6: /);
    assert.equal(await ruleCount(), before);
  });

  test('hostile, empty and mistyped bodies are refused with their reason', async () => {
    const file = await download('/api/xlsx/export/edge-cases');
    const formula = await edit(file.bytes, (w) => {
      w.getWorksheet('Table')!.getCell('D6').value = { formula: '1+1', result: 2 } as ExcelJS.CellFormulaValue;
    });
    assertError(await upload('/api/xlsx/import', formula), 400, 'Table!D6: holds a formula (=1+1); formulas are not executed: replace it with its value (Paste Special > Values)');
    assertError(await upload('/api/xlsx/import', Buffer.from('plain text')), 400, /not an XLSX workbook/);
    assertError(await upload('/api/xlsx/import', new Uint8Array()), 400, /Request body is empty: send the \.xlsx file/);
    assertError(await upload('/api/xlsx/import', file.bytes, 'application/pdf'), 415, /Unsupported content type "application\/pdf"/);
  });

  test('another rule type is a clear 400, on export and on import', async () => {
    const tree = JSON.parse(readFileSync(new URL('../fixtures/tables/notice-period-tree.json', import.meta.url), 'utf8'));
    const created = await s.api('POST', '/api/rule', { ...asNew(tree), ruleAlias: 'a-tree' });
    assert.equal(created.status, 200, created.text);
    assertError(await s.api('GET', '/api/xlsx/export/a-tree'), 400, 'Only decision tables can be written to XLSX; this rule is of type "decision-tree"');
    const file = await download('/api/xlsx/export/edge-cases');
    assertError(await upload('/api/xlsx/import/a-tree', file.bytes), 400, 'Rule "a-tree" is a decision-tree; only decision tables can be imported from XLSX');
    assertError(await s.api('GET', '/api/xlsx/export/nothing-here'), 404, /nothing-here/);
  });

  test('the routes are in the OpenAPI document with their permission declared', async () => {
    const openapi = await s.server.call('GET', '/api/docs/json');
    assert.equal(openapi.status, 200, openapi.text);
    for (const path of ['/api/xlsx/export/{idOrAlias}', '/api/xlsx/export/{idOrAlias}/{version}', '/api/xlsx/import', '/api/xlsx/import/{idOrAlias}', '/api/xlsx/read']) {
      assert.ok(openapi.json.paths[path], path);
    }
  });
});

describe('XLSX import within BODY_LIMIT_BYTES', () => {
  let s: SuiteServer;
  before(async () => {
    s = await startSuiteServer('sqlite', { BODY_LIMIT_BYTES: '4096' });
  });
  after(async () => {
    await s.close();
  });

  test('a file over the body limit is refused with 413 naming the limit, and nothing is imported', async () => {
    const bytes = await writeXlsx(edgeTable());
    assert.ok(bytes.length > 4096, `the file is ${bytes.length} bytes`);
    const reply = await s.server.call('POST', '/api/xlsx/import', { key: s.space.managementKey, headers: { 'content-type': XLSX }, raw: bytes });
    assertError(reply, 413, 'Request body exceeds the limit of 4096 bytes (BODY_LIMIT_BYTES)');
    assert.equal((await s.api('GET', '/api/space/items')).json.length, 0);
  });
});
