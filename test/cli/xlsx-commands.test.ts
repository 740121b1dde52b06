// `verdict convert` and `verdict import` with XLSX workbooks, in real processes: JSON -> XLSX -> JSON gives the same
// table back; a workbook is recognised by its content whatever its name; problems name sheet and cell, exit 1, and
// import nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { withServices } from '../../src/server/one-shot.ts';
import { runCli } from '../http/process.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { canonical, edgeTable } from '../formats/xlsx-helpers.ts';

describe('verdict convert and verdict import with XLSX', () => {
  let backend: Backend;
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: backend.url });

  before(async () => {
    backend = sqliteBackend();
    dir = mkdtempSync(join(tmpdir(), 'verdict-cli-xlsx-'));
    writeFileSync(join(dir, 'edge.json'), JSON.stringify(edgeTable()));
    await withServices((services) => services.spaces.create('acme'), { DATABASE_URL: backend.url });
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await backend.cleanup();
  });

  test('convert RULE.json --to xlsx, then FILE.xlsx --to decisionrules, gives the table back', async () => {
    const out = join(dir, 'edge.xlsx');
    const written = await cli('convert', join(dir, 'edge.json'), '--to', 'xlsx', '--output', out);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stderr, `wrote ${out}: decision table "Edge Cases", 3 rows\n`);
    assert.deepEqual([...readFileSync(out).subarray(0, 2)], [0x50, 0x4b]);
    const back = await cli('convert', out, '--to', 'decisionrules');
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(canonical(JSON.parse(back.stdout)), canonical(edgeTable()));
  });

  test('import FILE recognises a workbook by content, whatever its name', async () => {
    const disguised = join(dir, 'table.data');
    await cli('convert', join(dir, 'edge.json'), '--to', 'xlsx', '--output', disguised);
    const result = await cli('import', disguised, '--space', 'acme');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'imported decision-table edge-cases (id edge-1) version 3: pending (not solvable until: verdict rule publish edge-1 --version 3 --space acme)\n');
    const stored = await withServices((services) => services.management.rules.get('acme', 'edge-cases', 3), { DATABASE_URL: backend.url });
    assert.deepEqual(canonical(stored.document), canonical(edgeTable()));
  });

  test('a broken workbook exits 1 naming sheet and cell, and imports nothing', async () => {
    const out = join(dir, 'broken.xlsx');
    await cli('convert', join(dir, 'edge.json'), '--to', 'xlsx', '--output', out);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(out);
    workbook.getWorksheet('Settings')!.getCell('B3').value = 'other-alias';
    workbook.getWorksheet('Settings')!.getCell('B8').value = 'other-id';
    workbook.getWorksheet('Table')!.getCell('A6').value = 'Perhaps';
    await workbook.xlsx.writeFile(out);
    for (const args of [['import', out, '--space', 'acme'], ['convert', out, '--to', 'decisionrules']]) {
      const result = await cli(...args);
      assert.equal(result.code, 1, result.stdout);
      assert.equal(result.stderr, 'verdict: Table!A6: Active must be Yes or No (got "Perhaps")\n');
    }
    const found = await withServices((services) => services.management.rules.items('acme'), { DATABASE_URL: backend.url });
    assert.ok(!found.some((r) => r.ruleAlias === 'other-alias'));
  });

  test('usage: xlsx needs --output; decisionrules needs a workbook; an unknown target is refused', async () => {
    const noOutput = await cli('convert', join(dir, 'edge.json'), '--to', 'xlsx');
    assert.equal(noOutput.code, 2);
    assert.equal(noOutput.stderr, 'verdict: --to xlsx needs --output FILE.xlsx (a workbook is not written to the terminal)\n');
    const notWorkbook = await cli('convert', join(dir, 'edge.json'), '--to', 'decisionrules');
    assert.equal(notWorkbook.code, 1);
    assert.match(notWorkbook.stderr, /edge\.json is not an XLSX workbook/);
    const unknown = await cli('convert', join(dir, 'edge.json'), '--to', 'pdf');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /argument 'pdf' is invalid\. Allowed choices are xlsx, decisionrules/);
  });
});
