// Scripting rules in the Studio, end to end in Chromium against a real server (script worker processes included):
// create one from `New rule`, complete the sandbox API and the input model in the editor, call a decision table
// with DR.solve, see the result and the console in the bench, see an endless loop stopped with a clear message,
// publish, and solve it over HTTP with a solver key.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkip, compareVersions, replaceEditorText, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

/**
 * The solves' time limit here (RULE_TIMEOUT_MS): short, because the endless loop below runs for all of it, and
 * still many times what a script run takes in a worker that is already up, at a load average of 8 too. A worker's
 * start counts against the limit of the solve that waits for it, and under load a start alone can take longer:
 * the scenarios start one first (warmScriptWorker).
 */
const TIME_LIMIT_MS = 2500;

const SCRIPT = [
  "const found = await DR.solve('membership-discount', input);",
  "log('discount for', input.customer.tier, 'is', found[0].discount);",
  "console.warn('rows matched:', found.length);",
  'output.result = found[0].note;',
  'return output;',
].join('\n');

describe('Scripting rules in the Studio', { skip }, () => {
  const suite = new StudioSuite({ RULE_TIMEOUT_MS: String(TIME_LIMIT_MS) });
  const { api } = suite;

  /**
   * Makes sure the space has a script worker that is up (the pool keeps it for the next solve): a trivial script
   * run through the server's own worker pool, with a deadline of a minute instead of the solves' time limit, so
   * the worker may take as long as it needs to start.
   */
  async function warmScriptWorker(): Promise<void> {
    const sandbox = suite.studio.server.running.services.sandbox!.forSpace(suite.studio.server.space.space);
    const value = await sandbox.run({ source: 'return 1;', cacheKey: 'studio-e2e-warm-up' }, {
      input: {}, ruleVariables: {}, log: () => undefined, deadline: Date.now() + 60_000,
      solve: () => Promise.reject(new Error('the warm-up script calls no rule')),
    });
    assert.equal(value, 1, 'the warm-up script ran');
  }

  before(async () => {
    await api('POST', '/api/rule', pricingTable('Membership discount', { ruleAlias: 'membership-discount' }));
    await warmScriptWorker();
  });

  /**
   * Asserts the options of the completion list, each as its label followed by its detail. The list follows the
   * typing asynchronously (it may still show what the text before the last key completed to), so this first
   * waits until it shows them, and on a timeout the assertion says what it showed instead.
   */
  async function assertCompletions(page: Page, expected: string[], message?: string): Promise<void> {
    const list = page.getByRole('listbox');
    await list.waitFor();
    // A function, not a string: Playwright evaluates a string predicate with eval, which the Studio's CSP refuses.
    await page.waitForFunction((want) => JSON.stringify([...(globalThis as any).document.querySelectorAll('[role="listbox"] [role="option"]')]
      .map((option: any) => option.innerText.replace(/\s+/g, ' ').trim())) === want, JSON.stringify(expected)).catch(() => undefined);
    const options = (await list.getByRole('option').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    assert.deepEqual(options, expected, message);
  }

  test('write a script that calls a table with DR.solve, see its result and console in the bench, stop an endless loop, publish and solve it', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'script', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule name').fill('Member note');
      await dialog.getByLabel('Rule type').selectOption({ label: 'Scripting rule' });
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      const editor = page.getByRole('textbox', { name: 'Script' });
      await editor.waitFor();
      assert.match(await editor.innerText(), /return output;/, 'a new scripting rule starts from a working example');

      // The input model, edited as in the tables, is what `input.` completes.
      await page.getByRole('tab', { name: 'Input model' }).click();
      await page.getByRole('button', { name: 'Add field', exact: true }).click();
      await page.getByLabel('New field name').fill('customer');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Add field under customer' }).click();
      await page.getByLabel('New field name').fill('tier');
      await page.keyboard.press('Enter');
      await page.getByRole('tab', { name: 'Script' }).click();

      // Completions: the sandbox's API with its signatures, then the model's fields.
      await replaceEditorText(page, 'Script', '');
      await page.keyboard.type('await DR.');
      await assertCompletions(page, ['http', 'solveDR.solve(ruleIdOrAlias, data, version?, strategy?)']);
      await page.keyboard.type('so');
      await page.getByRole('option', { name: /^solve/ }).click();
      assert.equal(await editor.innerText(), 'await DR.solve(');
      await page.getByRole('status').filter({ hasText: 'DR.solve(ruleIdOrAlias, data, version?, strategy?)' }).waitFor();
      await page.keyboard.type("'mem");
      await assertCompletions(page, ['membership-discountMembership discount · decision-table'], 'DR.solve offers the rules of the space');
      await page.keyboard.press('Escape');
      await replaceEditorText(page, 'Script', '');
      await page.keyboard.type('input.customer.');
      await assertCompletions(page, ['tierinput model field']);
      await page.keyboard.press('Escape');

      await replaceEditorText(page, 'Script', SCRIPT);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Member note v1' }).waitFor();

      await replaceEditorText(page, 'Bench input (JSON)', '{\n  "customer": { "tier": "gold", "age": 40 }\n}');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.getByRole('table', { name: 'Result table' }).getByText('Gold member').waitFor();
      const consoleOutput = page.getByRole('region', { name: 'Console output' });
      assert.equal(await consoleOutput.locator('pre').innerText(), 'discount for gold is 20\n[warn] rows matched: 1');
      await editor.click();
      await page.keyboard.press('Control+Home');
      await page.getByRole('status').filter({ hasText: 'Saved Member note v1' }).waitFor({ state: 'detached' });
      await screenshot(page, 'script');

      // An endless loop is stopped at the time limit, and the bench says so and what to look for: it ran until its
      // limit, and it was stopped, well before 10 times it (the wait's timeout).
      await replaceEditorText(page, 'Script', "log('starting');\nwhile (true) {}");
      const started = Date.now();
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'time limit' });
      await alert.waitFor({ timeout: 10 * TIME_LIMIT_MS });
      const stoppedAfter = Date.now() - started;
      assert.match(await alert.innerText(), new RegExp(`exceeded the time limit of ${TIME_LIMIT_MS} ms`));
      assert.match(await alert.innerText(), /loop that never ends/);
      assert.ok(stoppedAfter >= TIME_LIMIT_MS, `the loop ran until its limit (answered after ${stoppedAfter} ms)`);
      await screenshot(page, 'script-timeout');

      // Back to the saved script; publish it and solve it over HTTP with the space's solver key. A worker that
      // overstays a run's deadline is killed, so one is made sure of again.
      await warmScriptWorker();
      await replaceEditorText(page, 'Script', SCRIPT);
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published v1' }).waitFor();
      const item = (await api('GET', '/api/space/items')).find((i: { name: string }) => i.name === 'Member note');
      assert.equal(item.status, 'published');
      const solved = await suite.studio.server.solve(`/rule/solve/${item.ruleAlias}`, { data: { customer: { tier: 'silver', age: 30 } } });
      assert.equal(solved.status, 200, solved.text);
      assert.deepEqual(solved.json, [{ result: 'Member' }]);
      assertClean([400]);
    });
    await close();
  });

  test('compare two versions of a script: model changes listed, the script as a line diff', async () => {
    const v1 = await api('POST', '/api/rule', { type: 'complex-rule', name: 'Versioned script', inputSchema: { a: {} }, outputSchema: { sum: {} }, script: 'const a = input.a;\noutput.sum = a + 1;\nreturn output;' });
    await api('POST', `/api/rule/${v1.ruleId}/new-version`, { ...v1, outputSchema: { sum: {}, note: {} }, script: "const a = input.a;\noutput.sum = a + 2;\noutput.note = 'v2';\nreturn output;" });
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${v1.ruleId}/2`);
    await withFailureShot(page, 'script-compare', async () => {
      await compareVersions(page, 1, 2);
      const table = page.getByRole('table', { name: 'Comparison of v1 and v2' });
      await table.waitFor();
      const rows = (await table.getByRole('row').allInnerTexts()).slice(1).map((row) => row.replace(/\s+/g, ' ').trim());
      assert.deepEqual(rows, [
        '1 1 const a = input.a;',
        '2 − removed output.sum = a + 1;',
        '2 + added output.sum = a + 2;',
        "3 + added output.note = 'v2';",
        '3 4 return output;',
      ]);
      await page.getByText('Output model changed').waitFor();
      await page.getByText('2 differences (1 in the script)').waitFor();
      await screenshot(page, 'script-compare');
      assertClean();
    });
    await close();
  });
});
