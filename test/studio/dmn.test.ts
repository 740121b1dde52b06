// DMN models in the Studio, end to end in Chromium against a real server: `New rule` offers them, the blank model
// (XML only: the server reads the model) saves, and the bench solves it with its input data by name. The editor is
// a placeholder (the XML as text) until the dmn-js editor replaces it; this test drives the shell only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chromiumSkip, screenshot, StudioSuite, withFailureShot } from './support.ts';

const skip = chromiumSkip();

describe('Verdict Studio DMN models in Chromium', { skip }, () => {
  const suite = new StudioSuite();

  test('New rule offers DMN models: a blank model saves and the server reads it', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'dmn-new', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule type').selectOption({ label: 'DMN model' });
      await dialog.getByLabel('Rule name').fill('Blank model');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Blank model v1' }).waitFor();
      await screenshot(page, 'dmn-placeholder');
      const stored = await suite.api('GET', '/api/rule/blank-model');
      assert.equal(stored.type, 'dmn');
      assert.deepEqual(stored.dmnModel.decisions.map((d: { name: string }) => d.name), ['result']);
      assertClean();
    });
    await close();
  });
});
