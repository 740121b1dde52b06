// Issue 28 in real Chromium, through accessible names: Export to Excel downloads the table; one cell edited in
// the file (with exceljs, as a spreadsheet would) comes back through Import from Excel as a new version, and the
// comparison shows exactly that cell changed. A broken file lists its problems by sheet and cell; "into the open
// draft" changes the draft only.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { chromiumSkip, compareVersions, gridCell, screenshot, StudioSuite, withFailureShot } from './support.ts';
import type { Page } from 'playwright-core';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();
// The workbooks the browser downloads and the test edits: a temporary folder, never the checkout (docs:screenshots
// points SCREENSHOTS into docs/).
const FILES = mkdtempSync(path.join(tmpdir(), 'verdict-excel-files-'));

describe('Studio: a decision table out to Excel and back', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  async function exportFile(page: Page, name: string): Promise<string> {
    mkdirSync(FILES, { recursive: true });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    const file = path.join(FILES, name);
    const done = await download;
    await done.saveAs(file);
    assert.match(done.suggestedFilename(), /-v1\.xlsx$/);
    return file;
  }

  async function editFile(from: string, to: string, change: (w: ExcelJS.Workbook) => void): Promise<string> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(from);
    change(workbook);
    const file = path.join(FILES, to);
    await workbook.xlsx.writeFile(file);
    return file;
  }

  async function importDialog(page: Page, file: string, choice: string) {
    await page.getByRole('button', { name: 'Import from Excel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import from Excel' });
    await dialog.getByLabel('Excel file').setInputFiles(file);
    await dialog.getByRole('radio', { name: choice }).check();
    return dialog;
  }

  test('export, edit one cell in the file, import as a new version: the comparison shows exactly that cell', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Excel discounts'));
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${v1.ruleId}/1`);
    await withFailureShot(page, 'excel-round-trip', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      const exported = await exportFile(page, 'excel-discounts.xlsx');
      const edited = await editFile(exported, 'excel-discounts-edited.xlsx', (w) => {
        const table = w.getWorksheet('Table')!;
        assert.deepEqual([table.getCell('G1').value, table.getCell('H6').value], ['col-discount', '20']);
        table.getCell('H6').value = '25';
      });
      const dialog = await importDialog(page, edited, 'As a new version of this rule');
      await screenshot(page, 'excel-import-dialog');
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Imported excel-discounts-edited.xlsx as v2 (pending)' }).waitFor();
      await page.getByLabel('Rule version').and(page.locator('select')).waitFor();
      assert.equal(await page.getByLabel('Rule version').inputValue(), '2', 'the new version is opened');

      await compareVersions(page, 1, 2);
      const table = page.getByRole('table', { name: 'Comparison of v1 and v2' });
      await table.waitFor();
      // One cell, marked on both sides: its old value on the left, its new one on the right.
      assert.deepEqual((await table.getByRole('cell', { name: /\(changed\)$/ }).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ')), ['20 (changed)', '25 (changed)']);
      assert.equal(await table.getByRole('cell', { name: '25 (changed)' }).count(), 1);
      await page.getByText('1 difference', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Next difference' }).click();
      assert.equal(await page.getByText(/^Difference 1 of 1/).innerText(), 'Difference 1 of 1: Row 1, Discount (discount) changed');
      await screenshot(page, 'excel-compare');
      const v2 = await api('GET', `/api/rule/${v1.ruleId}/2`);
      assert.deepEqual(v2.decisionTable.columns, v1.decisionTable.columns, 'the columns come back as they were');
    });
    assertClean();
    await close();
  });

  test('a broken file lists its problems by sheet and cell and imports nothing; into the draft changes the draft only', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Excel drafts'));
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${v1.ruleId}/1`);
    await withFailureShot(page, 'excel-problems', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      const exported = await exportFile(page, 'excel-drafts.xlsx');
      const broken = await editFile(exported, 'excel-drafts-broken.xlsx', (w) => {
        w.getWorksheet('Table')!.getCell('C7').value = 'roughly';
        w.getWorksheet('Table')!.getCell('F6').value = { formula: 'NOW()', result: 1 } as ExcelJS.CellFormulaValue;
      });
      const dialog = await importDialog(page, broken, 'As a new version of this rule');
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      const problems = dialog.getByRole('list', { name: 'Problems in the file' });
      await problems.waitFor();
      assert.match(await problems.innerText(), /Table!F6 holds a formula \(=NOW\(\)\); formulas are not executed/);
      await screenshot(page, 'excel-import-problems');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await api('GET', '/api/space/items')).filter((i: any) => i.ruleId === v1.ruleId).length, 1, 'nothing was imported');

      const edited = await editFile(exported, 'excel-drafts-edited.xlsx', (w) => {
        w.getWorksheet('Table')!.getCell('J7').value = 'Silver or bronze';
      });
      const into = await importDialog(page, edited, 'Into the open draft (nothing is saved until you save)');
      await into.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'excel-drafts-edited.xlsx is in the draft; save to keep it' }).waitFor();
      await gridCell(page, 2, 3).getByText('Silver or bronze').waitFor();
      await page.getByText('unsaved draft', { exact: true }).waitFor();
      assert.equal((await api('GET', `/api/rule/${v1.ruleId}/1`)).decisionTable.rows[1].cells[3].outputScalarValue.value, 'Member', 'the stored version is unchanged');
      await screenshot(page, 'excel-into-draft');
    });
    assertClean([400]);
    await close();
  });

  test('other rule types offer no Excel buttons', async () => {
    const tree = JSON.parse(readFileSync(new URL('../fixtures/tables/notice-period-tree.json', import.meta.url), 'utf8'));
    const { ruleId: _ruleId, ruleAlias: _alias, version: _version, baseId: _baseId, ...body } = tree;
    const created = await api('POST', '/api/rule', { ...body, name: 'Excel-less tree' });
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${created.ruleId}/1`);
    await page.getByRole('heading', { name: 'Excel-less tree', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New version' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Export to Excel' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Import from Excel' }).count(), 0);
    assertClean();
    await close();
  });
});
