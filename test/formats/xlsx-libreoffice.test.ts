// A real spreadsheet application in the loop (issue 28): LibreOffice Calc, headless, opens each XLSX export and
// saves it as XLSX again; that file imports to the same rule. Skipped loudly without soffice locally; mandatory
// under CI=true (.ci/run installs libreoffice-calc-nogui). A private profile per run keeps parallel runs apart.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { readXlsx } from '../../src/formats/xlsx/index.ts';
import { tableToXlsx } from '../../src/service/management/xlsx.ts';
import { canonical, edgeTable, fixtureTables } from './xlsx-helpers.ts';

function sofficeSkip(): string | false {
  if (spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0) return false;
  if (process.env.CI === 'true') throw new Error('soffice (LibreOffice Calc) is required when CI=true (.ci/run installs libreoffice-calc-nogui)');
  console.warn('\n*** soffice not found: SKIPPING the LibreOffice round trip of XLSX exports (apt-get install libreoffice-calc-nogui) ***\n');
  return 'soffice not found';
}

const skip = sofficeSkip();
const tables = [{ label: 'edge cases', document: edgeTable() }, ...fixtureTables()];

describe('XLSX exports through LibreOffice Calc', { skip }, () => {
  let dir: string;
  const saved = new Map<number, Buffer>();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verdict-xlsx-lo-'));
    const input = join(dir, 'in');
    const output = join(dir, 'out');
    mkdirSync(input);
    mkdirSync(output);
    const files: string[] = [];
    for (const [i, { document }] of tables.entries()) {
      const file = join(input, `table-${i}.xlsx`);
      writeFileSync(file, await tableToXlsx(document));
      files.push(file);
    }
    // One LibreOffice process converts every file; its own profile, so parallel runs never share one.
    const run = spawnSync('soffice', [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--headless', '--norestore', '--convert-to', 'xlsx:Calc MS Excel 2007 XML', '--outdir', output, ...files,
    ], { encoding: 'utf8' });
    assert.equal(run.status, 0, `soffice failed: ${run.stderr}`);
    for (const i of tables.keys()) saved.set(i, readFileSync(join(output, `table-${i}.xlsx`)));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('LibreOffice wrote its own file (not ours unchanged), keeping the sheets and the operator dropdowns', async () => {
    const bytes = saved.get(0)!;
    assert.ok(!bytes.equals(await tableToXlsx(edgeTable())));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    assert.deepEqual(workbook.worksheets.map((s) => s.name), ['Settings', 'Rule Variables', 'Table', 'Valid Values']);
    assert.equal(workbook.getWorksheet('Table')!.getCell('C6').dataValidation?.type, 'list');
  });

  for (const [i, { label, document }] of tables.entries()) {
    test(`${label}: saved by LibreOffice, imports to the same rule`, async () => {
      const bytes = saved.get(i)!;
      assert.deepEqual(canonical((await readXlsx(bytes, { base: document })).document), canonical(document));
    });
  }
});
