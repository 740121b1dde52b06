// The rule page's Tests tab end to end (issue 13 item 6), in Debian's Chromium through playwright-core against a
// real server over a fresh SQLite database: "Save as test" from the bench, run and pass, edit the table so the
// test fails and see the difference, run selected, the run history, edit and delete. Accessible names only; any
// browser console error fails the scenario.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chromiumSkip, gridCell, replaceEditorText, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

describe('Studio Tests tab in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  test('Save as test from the bench, run it green, break the table and see the difference, run selected, history, edit and delete', async () => {
    const created = await api('POST', '/api/rule', pricingTable('Shipping discount'));
    const handle = await suite.signedIn(`#/rules/${created.ruleId}/1`);
    const { page } = handle;
    await withFailureShot(page, 'tests-tab', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();

      // The bench runs an input; "Save as test" opens the Tests tab on that input and the received result.
      await replaceEditorText(page, 'Bench input (JSON)', '{"customer": {"tier": "gold", "age": 30}}');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.getByRole('table', { name: 'Result table' }).getByText('Gold member').waitFor();
      await page.getByRole('button', { name: 'Save as test' }).click();
      assert.equal(await page.getByRole('tab', { name: 'Tests' }).getAttribute('aria-selected'), 'true');
      const editor = page.getByRole('region', { name: 'Test editor' });
      assert.deepEqual(JSON.parse(await editor.getByLabel('Test input (JSON)').inputValue()), { customer: { tier: 'gold', age: 30 } });
      assert.match(await editor.getByLabel('Expected output (JSON)').inputValue(), /Gold member/);
      await editor.getByLabel('Test name').fill('Gold adult');
      await editor.getByRole('button', { name: 'Save test' }).click();
      await page.getByRole('status').filter({ hasText: 'Test "Gold adult" saved' }).waitFor();
      const stored = await api('GET', `/api/tests/rule/${created.ruleId}`);
      assert.equal(stored.suites.length, 1);
      assert.deepEqual(stored.suites[0].tests.map((t: { name: string; input: unknown }) => [t.name, t.input]), [['Gold adult', { customer: { tier: 'gold', age: 30 } }]]);

      // A second test by hand, in the same suite, that the table's ELSE row answers.
      await page.getByRole('button', { name: 'New test' }).click();
      await editor.getByLabel('Test name').fill('Stranger');
      await editor.getByLabel('Test input (JSON)').fill('{"customer": {"tier": "none", "age": 5}}');
      await editor.getByLabel('Expected output (JSON)').fill('[{"discount": 0, "note": "No discount"}]');
      await editor.getByRole('button', { name: 'Save test' }).click();
      await page.getByRole('status').filter({ hasText: 'Test "Stranger" saved' }).waitFor();

      const results = page.getByRole('region', { name: 'Test results' });
      await page.getByRole('button', { name: 'Run tests' }).click();
      await results.getByText('2 passed, 0 failed').waitFor();

      // The gold row now gives 25: the saved test fails, with the difference at its path.
      await gridCell(page, 1, 2).click();
      await page.keyboard.type('25');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      // v1 is published: the Studio asks first (live-edit.test.ts); this scenario saves to it.
      await page.getByRole('dialog', { name: 'This version is live' }).getByRole('button', { name: 'Save to the live version' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Shipping discount v1' }).waitFor();
      await page.getByRole('button', { name: 'Run tests' }).click();
      await results.getByText('1 passed, 1 failed').waitFor();
      const differences = results.getByRole('table', { name: 'Differences for Gold adult' });
      const row = await differences.getByRole('row').nth(1).getByRole('cell').allInnerTexts();
      assert.match(row[0]!, /discount/);
      assert.match(row[1]!, /20/);
      assert.match(row[2]!, /25/);
      assert.equal(await results.getByRole('table', { name: 'Differences for Stranger' }).count(), 0);
      await screenshot(page, 'tests');

      // Run selected: only the chosen test runs.
      await page.getByRole('checkbox', { name: 'Select Stranger' }).check();
      await page.getByRole('button', { name: 'Run selected' }).click();
      await results.getByText('1 passed, 0 failed').waitFor();

      // The run history lists the three runs, newest first; the first one opens with its results.
      await page.getByRole('button', { name: 'Run history' }).click();
      const history = page.getByRole('region', { name: 'Run history' });
      const runs = history.getByRole('button');
      await runs.nth(2).waitFor();
      assert.equal(await runs.count(), 3);
      assert.match(await runs.nth(0).innerText(), /v1 · 1 passed, 0 failed/);
      assert.match(await runs.nth(1).innerText(), /v1 · 1 passed, 1 failed/);
      await runs.nth(2).click();
      await history.waitFor({ state: 'detached' });
      await results.getByText('2 passed, 0 failed').waitFor();

      // Edit a test (its expected output now says 25) and it passes again; delete the other.
      await page.getByRole('button', { name: 'Edit Gold adult' }).click();
      const expected = editor.getByLabel('Expected output (JSON)');
      await expected.fill((await expected.inputValue()).replace('20', '25'));
      await editor.getByRole('button', { name: 'Save test' }).click();
      await page.getByRole('status').filter({ hasText: 'Test "Gold adult" saved' }).waitFor();
      await page.getByRole('button', { name: 'Delete Stranger' }).click();
      await page.getByRole('button', { name: 'Delete Stranger' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Run tests' }).click();
      await results.getByText('1 passed, 0 failed').waitFor();

      // Suites: create, rename, delete.
      await page.getByRole('button', { name: 'New suite' }).click();
      await page.getByLabel('Suite name').fill('Edge cases');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('region', { name: 'Suite Edge cases' }).waitFor();
      await page.getByRole('button', { name: 'Delete suite Edge cases' }).click();
      await page.getByRole('region', { name: 'Suite Edge cases' }).waitFor({ state: 'detached' });
      const after = await api('GET', `/api/tests/rule/${created.ruleId}`);
      assert.deepEqual(after.suites.map((s: { name: string; tests: unknown[] }) => [s.name, s.tests.length]), [['Tests', 1]]);
      handle.assertClean();
    });
    await handle.close();
  });
});
