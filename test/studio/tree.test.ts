// Decision trees in the Studio, end to end in Chromium against a real server: create a tree from the rule list,
// build two levels by clicking and typing, see a server problem on its node, save, run the bench and see the path
// taken, fold, move and drag nodes, publish and solve over HTTP, then compare two versions with the generic
// compare. Controls are found by role and accessible name only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkip, compareVersions, replaceEditorText, screenshot, StudioSuite, withFailureShot } from './support.ts';

const skip = chromiumSkip();

describe('Decision trees in the Studio', { skip }, () => {
  const suite = new StudioSuite();

  const tree = (page: Page) => page.getByRole('tree', { name: 'Decision tree' });
  const node = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });

  /** Opens a node's Add menu (or the toolbar's `Add node`) and picks a node type. */
  async function addTo(page: Page, menuButton: string, item: string) {
    await page.getByRole('button', { name: menuButton, exact: true }).click();
    await page.getByRole('menu', { name: menuButton }).getByRole('menuitem', { name: item }).click();
  }

  /** The condition just added has its path field focused: type the path, pick the operator, type the value. */
  async function typeCondition(page: Page, path: string, operator: string, value: string) {
    await page.keyboard.type(path);
    await page.getByLabel('Operator').selectOption(operator);
    await page.getByRole('textbox', { name: 'Value', exact: true }).click();
    await page.keyboard.type(value);
  }

  async function typeResult(page: Page, path: string, value: string) {
    await page.getByLabel('Output path', { exact: true }).click();
    await page.keyboard.type(path);
    await page.getByRole('textbox', { name: 'Value', exact: true }).click();
    await page.keyboard.type(value);
  }

  async function outcome(page: Page, name: string): Promise<string> {
    const item = node(page, name);
    for (const text of ['not taken', 'not reached', 'not evaluated', 'did not hold', 'taken', 'held', 'ran']) {
      if (await item.getByText(text, { exact: true }).count()) return text;
    }
    return 'none';
  }

  test('build a two-level tree, see a problem on its node, run the bench path, publish, solve, compare versions', async () => {
    const handle = await suite.signedIn();
    const { page } = handle;
    await withFailureShot(page, 'tree', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule type').selectOption({ label: 'Decision tree' });
      await dialog.getByLabel('Rule name').fill('Shipping price');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByText('This tree has no node yet.').waitFor();

      // Level 1: IF package.weight >= 10 THEN price = 28, with a nested IF; ELSE THEN price = 9.
      await addTo(page, 'Add node', 'IF block');
      await typeCondition(page, 'package.weight', '>=', '10');
      await node(page, 'result (no output path) = ""').click();
      await typeResult(page, 'price', '28');
      // Level 2: IF package.express = true THEN price = 40 (the lower THEN wins when both run).
      await addTo(page, 'Add to IF package.weight >= 10', 'IF block');
      await typeCondition(page, 'package.express', '=', 'true');
      await node(page, 'result (no output path) = ""').click();
      await page.getByLabel('Output path', { exact: true }).click();
      await page.keyboard.type('price');
      await addTo(page, 'Add node', 'ELSE branch');
      await page.keyboard.type('price');
      await page.getByRole('textbox', { name: 'Value', exact: true }).click();
      await page.keyboard.type('9');

      // A result without a value is fine; a result without its path is refused by the server, on that node.
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: /Saved Shipping price/ }).waitFor();
      await addTo(page, 'Add to THEN price = ""', 'Result');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const broken = node(page, 'result (no output path) = ""');
      await broken.getByText(/modelVariablePath: is required/).waitFor();
      assert.equal(await broken.getAttribute('aria-invalid'), 'true');
      await page.getByRole('button', { name: 'Delete result (no output path) = ""' }).click();
      await node(page, 'result price = ""').click();
      await page.getByRole('textbox', { name: 'Value', exact: true }).click();
      await page.keyboard.type('40');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: /Saved Shipping price/ }).waitFor();
      assert.equal(await tree(page).getByText(/is required/).count(), 0, 'the problem is gone after a good save');

      assert.deepEqual(await tree(page).getByRole('treeitem').evaluateAll((items) => items.map((i) => `${i.getAttribute('aria-level')}:${i.getAttribute('aria-label')}`)), [
        '1:IF package.weight >= 10',
        '2:condition package.weight >= 10',
        '2:THEN price = 28',
        '3:result price = 28',
        '2:IF package.express = true',
        '3:condition package.express = true',
        '3:THEN price = 40',
        '4:result price = 40',
        '1:ELSE',
        '2:THEN price = 9',
        '3:result price = 9',
      ]);

      // Collapse and expand; move the nested IF above the THEN and back; drag the ELSE above the IF and back.
      await page.getByRole('button', { name: 'Collapse IF package.express = true' }).click();
      assert.equal(await node(page, 'IF package.express = true').getAttribute('aria-expanded'), 'false');
      assert.equal(await node(page, 'result price = 40').count(), 0, 'a collapsed node hides what it holds');
      await page.getByRole('button', { name: 'Expand IF package.express = true' }).click();
      await node(page, 'result price = 40').waitFor();
      await page.getByRole('button', { name: 'Move IF package.express = true up' }).click();
      assert.equal(await node(page, 'IF package.express = true').getAttribute('aria-posinset'), '2');
      assert.ok(await page.getByRole('button', { name: 'Move IF package.express = true up' }).isDisabled(), 'a block cannot pass above the conditions');
      await page.getByRole('button', { name: 'Move IF package.express = true down' }).click();
      assert.equal(await node(page, 'IF package.express = true').getAttribute('aria-posinset'), '3');
      await node(page, 'ELSE').getByTitle('Drag to reorder among its siblings').dragTo(node(page, 'IF package.weight >= 10'));
      assert.equal(await node(page, 'ELSE').getAttribute('aria-posinset'), '1', 'dragged above the IF');
      await page.getByRole('button', { name: 'Undo' }).click();
      assert.equal(await node(page, 'ELSE').getAttribute('aria-posinset'), '2', 'undo puts it back');

      // The bench: a heavy parcel, not express. The path taken is marked on each node.
      await replaceEditorText(page, 'Bench input (JSON)', '{"package": {"weight": 20, "express": false}}');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.getByRole('table', { name: 'Result table' }).getByRole('cell', { name: '28', exact: true }).waitFor();
      assert.equal(await outcome(page, 'IF package.weight >= 10'), 'taken');
      assert.equal(await outcome(page, 'condition package.weight >= 10'), 'held');
      assert.equal(await outcome(page, 'THEN price = 28'), 'ran');
      assert.equal(await outcome(page, 'IF package.express = true'), 'not taken');
      assert.equal(await outcome(page, 'condition package.express = true'), 'did not hold');
      assert.equal(await outcome(page, 'THEN price = 40'), 'not reached');
      assert.equal(await outcome(page, 'ELSE'), 'not taken');
      assert.equal(await outcome(page, 'result price = 9'), 'not reached');
      // The keyboard walks the outline: Down to the next node, Left to the parent and then folds it, Right unfolds.
      await node(page, 'IF package.weight >= 10').click();
      await page.keyboard.press('ArrowDown');
      assert.equal(await node(page, 'condition package.weight >= 10').getAttribute('aria-selected'), 'true');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await node(page, 'IF package.weight >= 10').getAttribute('aria-selected'), 'true');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await node(page, 'IF package.weight >= 10').getAttribute('aria-expanded'), 'false');
      await page.keyboard.press('ArrowRight');
      assert.equal(await node(page, 'IF package.weight >= 10').getAttribute('aria-expanded'), 'true');
      await node(page, 'condition package.weight >= 10').click();
      await screenshot(page, 'tree');

      // Express, set in the bench's form (it offers the paths the conditions test): the nested IF runs too and
      // its lower THEN wins.
      await page.getByRole('radio', { name: 'Form' }).check();
      await page.getByLabel('package.express', { exact: true }).fill('true');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.getByRole('table', { name: 'Result table' }).getByRole('cell', { name: '40', exact: true }).waitFor();
      assert.equal(await outcome(page, 'IF package.express = true'), 'taken');

      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published v1' }).waitFor();
      const items = (await suite.studio.server.call('GET', '/api/space/items', { key: suite.key })).json as Array<{ name: string; ruleAlias: string; ruleId: string }>;
      const item = items.find((i) => i.name === 'Shipping price')!;
      const solved = await suite.studio.server.solve(`/rule/solve/${item.ruleAlias}`, { data: [{ package: { weight: 20, express: true } }, { package: { weight: 3 } }] });
      assert.equal(solved.status, 200, solved.text);
      assert.deepEqual(solved.json, [[{ price: 40 }], [{ price: 9 }]]);

      // Version 2 makes light parcels cheaper; the generic compare shows that one change.
      await page.getByRole('button', { name: 'New version' }).click();
      await page.getByRole('combobox', { name: 'Rule version' }).filter({ has: page.getByRole('option', { name: /v2/ }) }).waitFor();
      await node(page, 'result price = 9').click();
      await page.getByRole('textbox', { name: 'Value', exact: true }).fill('7');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: /Saved Shipping price v2/ }).waitFor();
      await compareVersions(page, 1, 2);
      const table = page.getByRole('table', { name: 'Comparison of v1 and v2' });
      await table.waitFor();
      await page.getByText('1 difference', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Next difference' }).click();
      await page.getByText('Difference 1 of 1: nodes[1].nodes[0].nodes[0].outputScalarValue.value changed').waitFor();
      await table.getByRole('cell', { name: '"value": "9" (changed)' }).waitFor();
      assert.equal(await table.getByRole('cell', { name: '"value": "7" (changed)' }).count(), 1, 'scrolled to the change, both sides facing');
      await page.getByRole('button', { name: 'Previous difference' }).click();
      await page.getByText(/^Difference 1 of 1/).waitFor();
      await screenshot(page, 'compare-generic');
      handle.assertClean([400]);
    });
    await handle.close();
  });
});
