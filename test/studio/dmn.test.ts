// DMN models in the Studio (issue 31 item 4), end to end in Chromium against a real server: a DMN rule stored
// through the management API opens in dmn-js on its decision requirements diagram; the decision table opens from
// the view tabs, a cell is edited by typing, the draft saves through the normal save path (the server re-reads the
// XML), a reload shows the change, the literal expression opens, Undo takes an edit back, and the bench solves the
// draft with input data by name, some decisions alone. dmn-js is its own chunk: the rule list loads without it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkip, compareVersions, replaceEditorText, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { DISH_XML, asDmn12, asDmn15 } from './dmn-models.ts';

const skip = chromiumSkip();

describe('Verdict Studio DMN models in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  const canvas = (page: Page, name: string) => page.getByRole('tabpanel', { name });
  const openView = async (page: Page, name: string) => {
    await page.getByRole('tablist', { name: 'DMN views' }).getByRole('tab', { name }).click();
    await page.getByRole('tab', { name, selected: true }).waitFor();
  };

  test('open a DMN rule on its diagram, edit a decision table cell, save, reload, undo, solve in the bench', async () => {
    await api('POST', '/api/rule', { type: 'dmn', name: 'Dish', ruleAlias: 'dish-model', status: 'pending', dmn: DISH_XML });
    const { page, assertClean, close } = await suite.signedIn('#/rules/dish-model/1');
    await withFailureShot(page, 'dmn', async () => {
      // The decision requirements diagram first, with every element of the model drawn.
      await page.getByRole('tab', { name: 'Decision requirements', selected: true }).waitFor();
      const drd = canvas(page, 'Decision requirements');
      for (const name of ['Dish', 'Greeting', 'Season', 'Guest Count']) await drd.getByText(name, { exact: true }).waitFor();
      assert.deepEqual(await page.getByRole('tablist', { name: 'DMN views' }).getByRole('tab').allInnerTexts(),
        ['Decision requirements', 'Dish (decision table)', 'Greeting (literal expression)']);
      await screenshot(page, 'dmn-drd');

      // The decision table: a cell edited by typing makes the draft unsaved.
      await openView(page, 'Dish (decision table)');
      const table = canvas(page, 'Dish (decision table)');
      const cell = table.getByRole('cell', { name: '"Spareribs"', exact: true });
      await cell.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('"Roast beef"');
      await table.getByRole('cell', { name: '"Roast beef"', exact: true }).waitFor();
      await page.getByText('unsaved draft').waitFor();
      await screenshot(page, 'dmn-table');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Dish v1' }).waitFor();
      const stored = await api('GET', '/api/rule/dish-model/1');
      assert.match(stored.dmn, /"Roast beef"/);
      assert.doesNotMatch(stored.dmn, /Spareribs/);
      // The server read the saved XML again: its model has the new output entry.
      assert.match(JSON.stringify(stored.dmnModel), /Roast beef/);
      // Export DMN: the saved version's XML as a .dmn file.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export DMN' }).click();
      const done = await download;
      assert.match(done.suggestedFilename(), /\.dmn$/);
      const file = join(mkdtempSync(join(tmpdir(), 'verdict-dmn-')), 'export.dmn');
      await done.saveAs(file);
      assert.equal(readFileSync(file, 'utf8'), stored.dmn);

      await page.reload();
      await page.getByRole('tab', { name: 'Decision requirements', selected: true }).waitFor();
      await openView(page, 'Dish (decision table)');
      await canvas(page, 'Dish (decision table)').getByRole('cell', { name: '"Roast beef"', exact: true }).waitFor();

      // The literal expression opens in its own editor.
      await openView(page, 'Greeting (literal expression)');
      await canvas(page, 'Greeting (literal expression)').getByText('"Tonight: " + Dish').waitFor();

      // Undo takes an edit back in the view it was made in.
      await openView(page, 'Dish (decision table)');
      const pasta = canvas(page, 'Dish (decision table)').getByRole('cell', { name: '"Pasta"', exact: true });
      await pasta.click();
      await page.keyboard.press('ControlOrMeta+a');
      // One input event: one edit on dmn-js's command stack (typing key by key may be several, as dmn-js applies
      // typing after a pause).
      await page.keyboard.insertText('"Goulash"');
      await canvas(page, 'Dish (decision table)').getByRole('cell', { name: '"Goulash"', exact: true }).waitFor();
      await page.getByText('unsaved draft').waitFor();
      // Leaving the cell ends the edit (dmn-js applies typing after a pause).
      await canvas(page, 'Dish (decision table)').getByRole('cell', { name: '"Stew"', exact: true }).click();
      await page.getByRole('button', { name: 'Undo', exact: true }).click();
      await canvas(page, 'Dish (decision table)').getByRole('cell', { name: '"Pasta"', exact: true }).waitFor();
      // Back at the saved model: no unsaved draft.
      await page.getByText('unsaved draft').waitFor({ state: 'detached' });

      // The bench solves the draft with input data by name and answers every decision.
      await replaceEditorText(page, 'Bench input (JSON)', '{ "Season": "Fall", "Guest Count": 4 }');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const result = page.getByRole('table', { name: 'Result table' });
      await result.waitFor();
      assert.match(await result.innerText(), /Roast beef/);
      assert.match(await result.innerText(), /Tonight: Roast beef/);
      await screenshot(page, 'dmn-bench');
      // Some decisions alone (the solve option decisions): Dish only, without Greeting.
      await page.getByRole('group', { name: /^Decisions to run/ }).getByRole('checkbox', { name: 'Dish', exact: true }).check();
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await result.getByRole('columnheader', { name: 'Greeting' }).waitFor({ state: 'detached' });
      assert.deepEqual(await result.getByRole('columnheader').allInnerTexts(), ['Dish']);
      assertClean();
    });
    await close();
  });

  test('the rule list loads without dmn-js; New rule makes a DMN model that opens on its diagram; locked, it is read only', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    const scripts: string[] = [];
    page.on('request', (request) => { if (request.resourceType() === 'script') scripts.push(request.url()); });
    await withFailureShot(page, 'dmn-new', async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
      assert.equal(scripts.filter((url) => /DmnModeler/.test(url)).length, 0, 'dmn-js is not loaded by the rule list');

      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule type').selectOption({ label: 'DMN model' });
      await dialog.getByLabel('Rule name').fill('Order size');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('tab', { name: 'Decision requirements', selected: true }).waitFor();
      await canvas(page, 'Decision requirements').getByText('Amount', { exact: true }).waitFor();
      await openView(page, 'Result (decision table)');
      await canvas(page, 'Result (decision table)').getByRole('cell', { name: '"large"', exact: true }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Undo', exact: true }).count(), 1);

      // Locked: dmn-js's viewer shows the model, nothing edits it.
      await page.getByRole('button', { name: 'Lock' }).click();
      await page.getByRole('button', { name: 'Unlock' }).waitFor();
      await page.getByRole('tab', { name: 'Decision requirements', selected: true }).waitFor();
      await openView(page, 'Result (decision table)');
      const locked = canvas(page, 'Result (decision table)');
      await locked.getByRole('cell', { name: '"large"', exact: true }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Undo', exact: true }).count(), 0);
      assert.equal(await locked.locator('[contenteditable="true"]').count(), 0, 'no cell can be typed in');
      assert.equal(scripts.filter((url) => /DmnModeler/.test(url)).length, 1, 'dmn-js loads with the first DMN rule');
      assertClean();
    });
    await close();
  });

  test('a DMN 1.5 file imported from the rule list opens in dmn-js, saves in DMN 1.5 and compares with its next version', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'dmn-import', async () => {
      await page.getByLabel('Export file to import').setInputFiles({ name: 'dinner.dmn', mimeType: 'application/xml', buffer: Buffer.from(asDmn15(DISH_XML)) });
      const notice = page.getByRole('status').filter({ hasText: /dinner\.dmn/ });
      await notice.waitFor();
      assert.equal(await notice.innerText(), 'Imported 1 rule version from dinner.dmn');
      await page.getByRole('link', { name: /^dinner/ }).click();
      await page.getByRole('tab', { name: 'Decision requirements', selected: true }).waitFor();
      await openView(page, 'Dish (decision table)');
      const table = canvas(page, 'Dish (decision table)');
      await table.getByRole('cell', { name: '"Stew"', exact: true }).click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText('"Chili"');
      await page.getByText('unsaved draft').waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: /^Saved dinner v1/ }).waitFor();
      const [item] = (await api('GET', '/api/space/items')).filter((r: { name: string }) => r.name === 'dinner');
      const stored = await api('GET', `/api/rule/${item.ruleId}/1`);
      assert.match(stored.dmn, /"Chili"/);
      assert.match(stored.dmn, /https:\/\/www\.omg\.org\/spec\/DMN\/20230324\/MODEL\//, 'still a DMN 1.5 model');
      assert.doesNotMatch(stored.dmn, /20191111/);

      // A second version; the two compare as XML lines.
      await api('POST', `/api/rule/${item.ruleId}/new-version`, { type: 'dmn', name: 'dinner', status: 'pending', dmn: stored.dmn.replace('"Chili"', '"Curry"') });
      await page.goto(`${suite.studio.studioUrl}#/rules/${item.ruleId}/2`);
      await page.getByRole('tab', { name: 'Decision requirements', selected: true }).waitFor();
      await compareVersions(page, 1, 2);
      const diff = page.getByRole('table', { name: 'Comparison of v1 and v2' });
      await diff.waitFor();
      const changed = (await diff.getByRole('row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim()).filter((row) => /removed|added/.test(row));
      assert.equal(changed.length, 2, changed.join('\n'));
      assert.match(changed[0]!, /− removed <(\w+:)?text>"Chili"<\/(\w+:)?text>/);
      assert.match(changed[1]!, /\+ added <(\w+:)?text>"Curry"<\/(\w+:)?text>/);
      assert.match(await page.getByText(/^1 difference/).innerText(), /1 difference \(1 in the DMN XML\)/);
      await screenshot(page, 'dmn-compare');

      // A .dmn file that does not read: the server's reason, named with the file.
      await page.goto(`${suite.studio.studioUrl}#/rules`);
      await page.getByLabel('Export file to import').setInputFiles({ name: 'broken.dmn', mimeType: 'application/xml', buffer: Buffer.from('<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="d" namespace="x"><decision id="a"') });
      const refused = page.getByRole('status').filter({ hasText: /broken\.dmn/ });
      await refused.waitFor();
      assert.match(await refused.innerText(), /^Import of broken\.dmn failed: .*DMN/);
      assertClean([400]);
    });
    await close();
  });

  test('a DMN 1.2 model, which dmn-js does not read, opens as XML text that saves', async () => {
    const v1 = await api('POST', '/api/rule', { type: 'dmn', name: 'Old dish', ruleAlias: 'old-dish', status: 'pending', dmn: asDmn12(DISH_XML) });
    const { page, assertClean, close } = await suite.signedIn('#/rules/old-dish/1');
    await withFailureShot(page, 'dmn-xml', async () => {
      const region = page.getByRole('region', { name: 'DMN model' });
      assert.match(await region.getByRole('note').innerText(), /DMN 1\.2 model; the diagram editor \(dmn-js\) edits DMN 1\.3 to 1\.5 models/);
      const text = region.getByRole('textbox', { name: 'DMN XML' });
      assert.equal(await text.inputValue(), asDmn12(DISH_XML));
      await text.fill(asDmn12(DISH_XML).replace('"Stew"', '"Soup"'));
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Old dish v1' }).waitFor();
      const stored = await api('GET', `/api/rule/${v1.ruleId}/1`);
      assert.match(stored.dmn, /"Soup"/);
      assert.match(JSON.stringify(stored.dmnModel), /Soup/);
      await screenshot(page, 'dmn-xml');
      assertClean();
    });
    await close();
  });
});
