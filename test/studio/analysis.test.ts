// The rule page's Analysis tab end to end (issue 14), in Debian's Chromium through playwright-core against a real
// server: the draft's findings update as the table is edited (a duplicated row is unreachable and a duplicate,
// the fix makes them go), "Select row" selects the row in the grid. Accessible names only; any browser console
// error fails the scenario.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chromiumSkip, gridCell, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

describe('Studio Analysis tab in Chromium', { skip }, () => {
  const suite = new StudioSuite();

  test('a duplicated row is reported unreachable and duplicate as it is made, Select row selects it, the fix clears the findings', async () => {
    const reply = await suite.studio.server.call('POST', '/api/rule', { key: suite.key, body: pricingTable('Senior gold') });
    assert.equal(reply.status, 200, reply.text);
    const handle = await suite.signedIn(`#/rules/${reply.json.ruleId}/1`);
    const { page } = handle;
    await withFailureShot(page, 'analysis', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await page.getByRole('tab', { name: 'Analysis' }).click();
      const analysis = page.getByRole('region', { name: 'Analysis' });
      await analysis.getByText(/^No findings/).waitFor();

      // Duplicate the first row in the designer (unsaved): row 2 can never be reached, and duplicates row 1.
      await gridCell(page, 1, 0).click();
      await page.getByRole('button', { name: 'Duplicate row', exact: true }).click();
      const findings = analysis.getByRole('list', { name: 'Findings' }).getByRole('listitem');
      await analysis.getByText('2 findings').waitFor();
      const texts = await findings.allInnerTexts();
      assert.match(texts[0]!, /unreachable/i);
      assert.match(texts[0]!, /Row 2 is unreachable: every input it matches is matched by an earlier row \(row 1\)/);
      assert.match(texts[1]!, /duplicate/i);
      assert.match(texts[1]!, /Rows 1, 2 have identical conditions/);

      // "Select row 2" selects that row in the grid.
      await gridCell(page, 3, 0).click();
      assert.notEqual(await gridCell(page, 2, 0).getAttribute('aria-selected'), 'true');
      await findings.first().getByRole('button', { name: 'Select row 2' }).click();
      await page.getByRole('grid', { name: 'Decision table' }).getByRole('row').nth(2).getByRole('gridcell', { selected: true }).first().waitFor();
      assert.equal(await gridCell(page, 1, 0).getAttribute('aria-selected'), 'false');
      await screenshot(page, 'analysis');

      // Row 2 for minors only: reachable, no longer a duplicate.
      await gridCell(page, 2, 1).click();
      await page.keyboard.type('< 18');
      await page.keyboard.press('Enter');
      await analysis.getByText(/^No findings/).waitFor();
      assert.equal(await findings.count(), 0);
      handle.assertClean();
    });
    await handle.close();
  });
});
