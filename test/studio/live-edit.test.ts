// Issue 26, "a live edit without a word": Save on a published version asks first, in real Chromium through
// accessible names. The default is a new pending version (POST /rule/solve keeps answering the live one); saving
// to the live version changes the answer at once; with the space setting on (the Overview's checkbox) only the new
// version is offered. Pending versions save without a question.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkip, gridCell, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

const NEW_VERSION = 'Save as new version (pending)';
const LIVE = 'Save to the live version';

describe('Studio: saving a published version', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  /** The discount POST /rule/solve answers for a gold member of 30 (row 1 of the pricing table). */
  async function goldDiscount(ruleId: string): Promise<unknown> {
    const solved = await suite.studio.server.solve(`/rule/solve/${ruleId}`, { data: { customer: { tier: 'gold', age: 30 } } });
    assert.equal(solved.status, 200, solved.text);
    return solved.json[0].discount;
  }

  async function typeCell(page: Page, row: number, column: number, text: string) {
    await gridCell(page, row, column).click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  async function saveAsked(page: Page) {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'This version is live' });
    await dialog.waitFor();
    return dialog;
  }

  test('Save asks first; the default makes a pending v2 and the live answer stays; saving to the live version changes it', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Live discounts'));
    const before = await goldDiscount(v1.ruleId);
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${v1.ruleId}/1`);
    await withFailureShot(page, 'live-edit', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await typeCell(page, 1, 2, '25');
      const dialog = await saveAsked(page);
      assert.match(await dialog.innerText(), /v1 of Live discounts is published\. Saving it changes the answers of POST \/rule\/solve/);
      const primary = dialog.getByRole('button', { name: NEW_VERSION });
      assert.ok(await primary.evaluate((button) => button === button.ownerDocument.activeElement), 'the new version is the focused default');
      assert.equal(await dialog.getByRole('button', { name: LIVE }).count(), 1);
      await screenshot(page, 'live-edit-dialog');
      await primary.click();
      await page.getByRole('status').filter({ hasText: 'Saved as v2 (pending)' }).waitFor();
      await page.getByRole('dialog', { name: 'This version is live' }).waitFor({ state: 'hidden' });
      assert.equal(await page.getByLabel('Rule version').inputValue(), '2', 'the new version is opened');
      const v2 = await api('GET', `/api/rule/${v1.ruleId}/2`);
      assert.deepEqual([v2.status, v2.decisionTable.rows[0].cells[2].outputScalarValue.value], ['pending', '25']);
      assert.equal((await api('GET', `/api/rule/${v1.ruleId}/1`)).decisionTable.rows[0].cells[2].outputScalarValue.value, '20');
      assert.deepEqual(await goldDiscount(v1.ruleId), before, 'POST /rule/solve still answers v1');

      // A pending version saves as before, without a question.
      await gridCell(page, 1, 2).getByText('25').waitFor();
      await typeCell(page, 1, 2, '26');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Live discounts v2' }).waitFor();
      assert.equal(await page.getByRole('dialog', { name: 'This version is live' }).count(), 0);

      // Back on v1, the second choice writes to the live version: the answer changes at once.
      await page.getByLabel('Rule version').selectOption('1');
      await gridCell(page, 1, 2).getByText('20').waitFor();
      await typeCell(page, 1, 2, '30');
      const again = await saveAsked(page);
      await again.getByRole('button', { name: LIVE }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Live discounts v1' }).waitFor();
      assert.equal(String(await goldDiscount(v1.ruleId)), '30');

      // Cancel leaves the draft unsaved.
      await typeCell(page, 1, 2, '31');
      await (await saveAsked(page)).getByRole('button', { name: 'Cancel' }).click();
      await page.getByText('unsaved draft').waitFor();
      assert.equal(String(await goldDiscount(v1.ruleId)), '30');

      // "Set pending" with those edits unsaved would save them to the live version first: it asks the same way.
      await page.getByRole('button', { name: 'Set pending' }).click();
      await page.getByRole('dialog', { name: 'This version is live' }).getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await api('GET', `/api/rule/${v1.ruleId}/1`)).status, 'published');
      assert.equal(String(await goldDiscount(v1.ruleId)), '30');
      assertClean();
    });
    await close();
  });

  test('with "Forbid editing published versions in place" on, the dialog offers only the new version and says why', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Guarded discounts'));
    const { page, assertClean, close } = await suite.signedIn('#/overview');
    await withFailureShot(page, 'live-edit-forbidden', async () => {
      const setting = page.getByRole('checkbox', { name: /Forbid editing published versions in place/ });
      await page.getByRole('group', { name: 'Space settings' }).getByRole('checkbox', { name: /Forbid editing/, disabled: false }).waitFor();
      assert.equal(await setting.isChecked(), false);
      await setting.check();
      await page.getByRole('status').filter({ hasText: 'can no longer be edited in place' }).waitFor();
      assert.equal((await api('GET', '/api/space/settings')).liveEdits, 'forbidden');
      await screenshot(page, 'live-edit-setting');

      await page.goto(`${suite.studio.studioUrl}#/rules/${v1.ruleId}/1`);
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await typeCell(page, 1, 2, '40');
      const dialog = await saveAsked(page);
      assert.equal(await dialog.getByRole('button', { name: LIVE }).count(), 0, 'no live save offered');
      assert.match(await dialog.innerText(), /This space forbids editing published versions in place/);
      await screenshot(page, 'live-edit-dialog-forbidden');
      await dialog.getByRole('button', { name: NEW_VERSION }).click();
      await page.getByRole('status').filter({ hasText: 'Saved as v2 (pending)' }).waitFor();
      assert.equal((await api('GET', `/api/rule/${v1.ruleId}/2`)).status, 'pending');
      assert.equal(String(await goldDiscount(v1.ruleId)), '20');

      // Off again, as it was, for the other scenarios of this server.
      await page.goto(`${suite.studio.studioUrl}#/overview`);
      // Checked once the setting is read (it shows unchecked and disabled until then).
      const forbidden = page.getByRole('checkbox', { name: /Forbid editing published versions in place/, checked: true });
      await forbidden.waitFor();
      await forbidden.uncheck();
      await page.getByRole('status').filter({ hasText: 'can be edited in place again' }).waitFor();
      assert.equal((await api('GET', '/api/space/settings')).liveEdits, 'allowed');
      assertClean();
    });
    await close();
  });
});
