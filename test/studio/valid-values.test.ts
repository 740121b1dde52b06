// Valid values in the table designer (issue 28 item 2), in real Chromium through accessible names: a column's
// valid values are edited in its dialog, the cell editor offers them, a typed value outside them is flagged on the
// cell (its accessible description says so) and saving stores it with the warning shown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { chromiumSkip, gridCell, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

/** The text of what a cell's aria-describedby points at (its accessible description). */
async function description(cell: Locator): Promise<string> {
  return cell.evaluate((el) => {
    const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return ids.map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' ');
  });
}

describe('Studio: valid values of a column', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  test('set a column\'s valid values, type a value outside them: the cell is flagged and the save warns', async () => {
    const rule = await api('POST', '/api/rule', pricingTable('Valid tiers', { status: 'pending' }));
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${rule.ruleId}/1`);
    await withFailureShot(page, 'valid-values', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await page.getByRole('button', { name: 'Edit column Tier' }).click();
      const dialog = page.getByRole('dialog', { name: 'Condition column' });
      const values = dialog.getByRole('list', { name: 'Valid values' });
      for (const value of ['gold', 'silver', 'bronze', 'steel']) {
        await dialog.getByRole('textbox', { name: 'New valid value' }).fill(value);
        await dialog.getByRole('button', { name: 'Add valid value' }).click();
        await values.getByText(value, { exact: true }).waitFor();
      }
      await dialog.getByRole('button', { name: 'Remove valid value steel' }).click();
      assert.equal(await values.getByRole('listitem').count(), 3);
      for (const kept of ['gold', 'silver', 'bronze']) assert.equal(await dialog.getByRole('button', { name: `Remove valid value ${kept}` }).count(), 1);
      await screenshot(page, 'valid-values-column');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Every tier the table names is listed: nothing flagged yet.
      assert.doesNotMatch(await description(gridCell(page, 1, 0)), /not a valid value/);
      assert.doesNotMatch(await description(gridCell(page, 2, 0)), /not a valid value/);

      // The cell editor offers the valid values and still takes free text.
      await gridCell(page, 1, 0).dblclick();
      const editor = page.getByRole('dialog', { name: 'Edit cell: Tier, row 1' });
      const value = editor.getByRole('combobox', { name: 'Value' });
      assert.deepEqual(await value.evaluate((input) => Array.from((input as unknown as { list: { options: ArrayLike<{ value: string }> } | null }).list?.options ?? [], (o) => o.value)), ['gold', 'silver', 'bronze']);
      await value.fill('platinum');
      await editor.getByRole('button', { name: 'Apply' }).click();
      await editor.waitFor({ state: 'hidden' });

      const flagged = gridCell(page, 1, 0);
      await flagged.getByText('= platinum', { exact: true }).waitFor();
      assert.equal(await description(flagged), 'Warning: "platinum" is not a valid value of column "Tier" (valid values: "gold", "silver", "bronze")');
      assert.doesNotMatch(await description(gridCell(page, 2, 0)), /not a valid value/);

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Valid tiers v1 with 1 warning' }).waitFor();
      const warnings = page.getByRole('region', { name: 'Warnings' });
      assert.match(await warnings.innerText(), /Saved with 1 warning[\s\S]*Row 1, column Tier \(condition\): "platinum" is not a valid value of column "Tier"/);
      await screenshot(page, 'valid-values-warning');

      // The analysis of the draft lists the cell too (the same checker).
      await page.getByRole('tab', { name: 'Analysis' }).click();
      const findings = page.getByRole('list', { name: 'Findings' });
      await findings.getByText('Row 1: "platinum" is not a valid value of column "Tier"', { exact: false }).waitFor();
      assert.equal(await findings.getByRole('listitem').filter({ hasText: 'valid-value' }).count(), 1);
      await screenshot(page, 'valid-values-analysis');

      const stored = await api('GET', `/api/rule/${rule.ruleId}/1`);
      assert.equal(stored.decisionTable.rows[0].cells[0].scalarCondition.value, 'platinum', 'the save stored the value');
      assert.deepEqual(stored.decisionTable.columns[0].validValues, ['gold', 'silver', 'bronze'].map((v) => ({ type: 'GENERAL', value: v })));
      assertClean();
    });
    await close();
  });
});
