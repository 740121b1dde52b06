// The Studio's first hour (issue 26), in Chromium through accessible names: the sign-in says what the Studio edits
// and names a solver key as such; a click anywhere on a rule's row opens it; condition and result columns whose
// paths their model lacks are flagged and their paths added to the model in one undoable edit; the test bench
// starts from the input model's skeleton. One server for the file, a fresh browser context per scenario.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkip, screenshot, StudioSuite, submitKey, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

/** The text of the elements a control's aria-describedby names: its accessible description. */
function description(locator: Locator): Promise<string> {
  return locator.evaluate((element: any) =>
    String(element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** The test bench's JSON input, parsed (CodeMirror shows it as lines of text). */
async function benchInput(page: Page): Promise<unknown> {
  return JSON.parse(await page.getByRole('textbox', { name: 'Bench input (JSON)' }).innerText());
}

/** Waits until the bench's input parses to `expected` (it follows the designer's model on the next render). */
async function waitForBenchInput(page: Page, expected: unknown): Promise<void> {
  const text = JSON.stringify(expected);
  await page.waitForFunction(
    ([wanted]) => {
      const box = (globalThis as any).document.querySelector('[role="textbox"][aria-label="Bench input (JSON)"]');
      try {
        return box !== null && JSON.stringify(JSON.parse(box.innerText)) === wanted;
      } catch {
        return false;
      }
    },
    [text] as const,
  );
  assert.deepEqual(await benchInput(page), expected);
}

describe('the Studio\'s first hour in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  test('sign in: the page says what the Studio edits; a solver key is named as such, an unknown key is refused', async () => {
    const { page, assertClean, close } = await suite.studio.open();
    await withFailureShot(page, 'first-hour-sign-in', async () => {
      const intro = page.getByText(/Author, test, compare and publish the rules of your space/);
      for (const kind of ['decision tables', 'decision trees', 'lookup tables', 'scripting rules', 'rule flows', 'decision flows']) {
        assert.match(await intro.innerText(), new RegExp(kind), `the sign-in names ${kind}`);
      }

      await submitKey(page, suite.studio.server.space.solverKey);
      const alert = page.getByRole('alert');
      await alert.getByText('This is a solver key; sign in with a management key of your space.').waitFor();
      await screenshot(page, 'first-hour-sign-in-solver-key');

      await submitKey(page, 'vmk_not-a-key');
      await alert.getByText('The server refused this key: Invalid API key. Use a management key of your space.').waitFor();
    });
    assertClean([401]);
    await close();
  });

  test('rule list: a click anywhere on a rule\'s row opens it; its buttons keep their own action; the link stays the keyboard stop', async () => {
    await api('POST', '/api/rule', pricingTable('Row click table', { ruleId: 'e2e-row-click', ruleAlias: 'row-click' }));
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'first-hour-row-click', async () => {
      const rules = page.getByRole('table', { name: 'Rules' });
      const row = rules.getByRole('row', { name: /Row click table/ });
      await row.waitFor();

      await row.getByRole('button', { name: 'Delete Row click table' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete rule' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'hidden' });
      assert.equal(await page.getByRole('heading', { name: 'Rules', level: 1 }).count(), 1, 'Delete opened its dialog, not the rule');

      await row.getByRole('cell', { name: 'Decision table' }).click();
      await page.getByRole('heading', { name: 'Row click table', level: 1 }).waitFor();

      await page.goBack();
      await rules.getByRole('link', { name: 'Row click table' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Row click table', level: 1 }).waitFor();
    });
    assertClean();
    await close();
  });

  test('models: columns whose path the model lacks are flagged, and "Add N paths to the model" adds them in one undoable edit', async () => {
    // The table of a first hour: columns bound to customer.tier and customer.age, the input model still the
    // placeholder `input`, and the result column `note` missing from the output model.
    await api('POST', '/api/rule', pricingTable('Model gaps table', {
      ruleId: 'e2e-model-gaps', inputSchema: { input: {} }, outputSchema: { discount: {} },
    }));
    const { page, assertClean, close } = await suite.signedIn('#/rules/e2e-model-gaps/1');
    await withFailureShot(page, 'first-hour-model-gaps', async () => {
      const tier = page.getByRole('columnheader', { name: /Tier/ });
      await tier.waitFor();
      await screenshot(page, 'first-hour-model-flags');
      assert.equal(await description(tier), 'customer.tier is not in the input model');
      assert.equal(await description(page.getByRole('columnheader', { name: /Note/ })), 'note is not in the output model');
      assert.equal(await description(page.getByRole('columnheader', { name: /Discount/ })), '', 'a column its model has is not flagged');
      const tableNotice = page.getByRole('note', { name: 'Paths the models lack' });
      assert.match(await tableNotice.innerText(), /Columns use 3 paths their models lack: customer\.tier, customer\.age \(input model\), note \(output model\)\./);
      await tableNotice.getByRole('button', { name: 'Add 3 paths to the models' }).waitFor();

      await page.getByRole('tab', { name: 'Input model' }).click();
      const notice = page.getByRole('note', { name: 'Paths the input model lacks' });
      assert.match(await notice.innerText(), /Condition columns read 2 paths the input model lacks: customer\.tier, customer\.age\./);
      await screenshot(page, 'first-hour-model-gaps');
      await notice.getByRole('button', { name: 'Add 2 paths to the model' }).click();

      // Each field of the tree has its "Delete field <path>" button: the fields by their paths.
      const field = (path: string) => page.getByRole('list', { name: 'Input model fields' }).getByRole('button', { name: `Delete field ${path}`, exact: true });
      await field('customer.tier').waitFor();
      await field('customer.age').waitFor();
      await field('input').waitFor();
      const added = page.getByRole('status').filter({ hasText: 'Added customer.tier, customer.age to the input model.' });
      await added.waitFor();
      assert.equal(await notice.count(), 0, 'nothing is missing any more');
      await screenshot(page, 'first-hour-model-added');

      // One edit: one Undo takes both paths out again, and the offer comes back.
      await added.getByRole('button', { name: 'Undo' }).click();
      await notice.waitFor();
      assert.equal(await field('customer.tier').count(), 0);
      assert.equal(await field('customer').count(), 0);
      assert.equal(await field('input').count(), 1);
      await notice.getByRole('button', { name: 'Add 2 paths to the model' }).click();
      await field('customer.age').waitFor();

      await page.getByRole('tab', { name: 'Output model' }).click();
      const output = page.getByRole('note', { name: 'Paths the output model lacks' });
      assert.match(await output.innerText(), /Result columns write a path the output model lacks: note\./);
      await output.getByRole('button', { name: 'Add 1 path to the model' }).click();
      await page.getByRole('list', { name: 'Output model fields' }).getByRole('button', { name: 'Delete field note', exact: true }).waitFor();

      // The table no longer flags any column nor offers anything; the table's Undo takes back the output model's
      // edit, and the table's own offer adds that path again.
      await page.getByRole('tab', { name: 'Table' }).click();
      assert.equal(await description(page.getByRole('columnheader', { name: /Tier/ })), '');
      assert.equal(await description(page.getByRole('columnheader', { name: /Note/ })), '');
      assert.equal(await tableNotice.count(), 0);
      await page.getByRole('toolbar', { name: 'Table actions' }).getByRole('button', { name: 'Undo' }).click();
      assert.match(await tableNotice.innerText(), /Columns use a path their models lack: note \(output model\)\./);
      assert.equal(await description(page.getByRole('columnheader', { name: /Note/ })), 'note is not in the output model');
      assert.equal(await description(page.getByRole('columnheader', { name: /Tier/ })), '', 'the input model keeps its paths');
      await tableNotice.getByRole('button', { name: 'Add 1 path to the model' }).click();
      await page.getByRole('status').filter({ hasText: 'Added note to the output model.' }).waitFor();
      assert.equal(await description(page.getByRole('columnheader', { name: /Note/ })), '');
    });
    assertClean();
    await close();
  });

  test('bench: the input starts as the input model\'s skeleton, follows the model while untouched, and keeps what was typed', async () => {
    await api('POST', '/api/rule', pricingTable('Skeleton table', { ruleId: 'e2e-skeleton' }));
    const { page, assertClean, close } = await suite.signedIn('#/rules/e2e-skeleton/1');
    await withFailureShot(page, 'first-hour-bench-skeleton', async () => {
      await page.getByRole('textbox', { name: 'Bench input (JSON)' }).waitFor();
      await waitForBenchInput(page, { customer: { tier: null, age: null } });
      await screenshot(page, 'first-hour-bench-skeleton');

      // A field added to the model while the input is untouched appears in it.
      await page.getByRole('tab', { name: 'Input model' }).click();
      await page.getByRole('button', { name: 'Add field', exact: true }).click();
      await page.getByLabel('New field name').fill('country');
      await page.getByLabel('New field name').press('Enter');
      await waitForBenchInput(page, { customer: { tier: null, age: null }, country: null });

      // Once the person typed an input, the model's changes leave it alone.
      const typed = { customer: { tier: 'gold', age: 40 } };
      await page.getByRole('textbox', { name: 'Bench input (JSON)' }).click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(JSON.stringify(typed));
      await page.getByRole('button', { name: 'Add field', exact: true }).click();
      await page.getByLabel('New field name').fill('channel');
      await page.getByLabel('New field name').press('Enter');
      await page.getByRole('button', { name: 'Delete field channel', exact: true }).waitFor();
      assert.deepEqual(await benchInput(page), typed);
    });
    assertClean();
    await close();
  });
});
