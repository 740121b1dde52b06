// Decision graphs (GoRules JDM) in the Studio, end to end in Chromium against a real server: a graph stored
// through the management API opens in the flow canvas; its table node opens in the grid, where a cell is edited
// by typing and in the ZEN editor (a syntax error shown, then fixed); the graph saves, runs in the bench with a
// per-node trace (and the table's matched row marked in the grid), keeps a run as a rule test that passes, gets a
// second version with a node added and connected, exports as a JDM file, and the two versions compare node by node. A JDM file imported through the rule list opens as a graph.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkip, compareVersions, gridCell, replaceEditorText, screenshot, StudioSuite, viewAtRest, withFailureShot } from './support.ts';
import { shippingGraph } from './graphs.ts';

const skip = chromiumSkip();

describe('Verdict Studio decision graphs in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  const node = (page: Page, name: string): Locator => page.getByRole('group', { name, exact: true });
  const inspector = (page: Page): Locator => page.getByRole('complementary', { name: 'Node inspector' });

  test('open a graph, edit a table cell, save, run the bench with a per-node trace, add a node, compare versions', async () => {
    await api('POST', '/api/rule', { ...shippingGraph('Shipping graph'), ruleAlias: 'shipping-graph' });
    const { page, assertClean, close } = await suite.signedIn('#/rules/shipping-graph/1');
    await withFailureShot(page, 'graph', async () => {
      await page.getByRole('region', { name: 'Decision graph canvas' }).waitFor();
      for (const name of ['Request node request', 'Decision table node fees', 'Switch node fork', 'Expression node surcharge', 'Response node response']) await node(page, name).waitFor();
      await page.getByText(/^5 nodes · 5 connections/).waitFor();
      assert.equal(await page.getByRole('group', { name: 'Connection from fork (case 2 (else)) to response' }).count(), 1);
      assert.match(await node(page, 'Decision table node fees').innerText(), /first hit · 2 rows/);
      // The whole graph, with the canvas given the side panel's width.
      await viewAtRest(page);
      await page.getByRole('button', { name: 'Hide nodes list' }).click();
      await page.getByRole('button', { name: 'Fit View' }).click();
      await viewAtRest(page);
      await screenshot(page, 'graph-canvas');
      await page.getByRole('button', { name: 'Show nodes list' }).click();

      // The switch's conditions are ZEN text in the expression editor.
      await node(page, 'Switch node fork').click();
      const panel = inspector(page);
      assert.equal(await panel.getByRole('textbox', { name: 'Condition 1' }).innerText(), 'fee > 10');
      assert.match(await panel.innerText(), /Condition 2: else/);

      // The table node opens in the grid: its input and output as columns, its rules as rows, cells as ZEN text.
      await node(page, 'Decision table node fees').click();
      await panel.getByRole('button', { name: 'Edit table' }).click();
      const table = page.getByRole('region', { name: 'Table fees' });
      await table.waitFor();
      assert.equal(await gridCell(page, 1, 0).innerText(), '"CZ"');
      assert.equal(await gridCell(page, 2, 0).innerText(), 'any');
      assert.equal(await gridCell(page, 1, 1).innerText(), '5');
      // Typing on a cell replaces its text.
      await gridCell(page, 1, 1).click();
      await page.keyboard.type('7');
      await page.getByRole('textbox', { name: 'Edit Fee in row 1' }).press('Enter');
      assert.equal(await gridCell(page, 1, 1).innerText(), '7');
      // Enter opens the cell in the ZEN editor: a unary test of the column's field, its syntax checked as typed.
      await gridCell(page, 2, 0).dblclick();
      const cell = page.getByRole('dialog', { name: 'Edit Country in row 2' });
      // ZEN's functions complete as they are typed.
      await replaceEditorText(page, 'Cell expression', 'upp');
      await page.getByRole('option', { name: /^upper/ }).waitFor();
      await replaceEditorText(page, 'Cell expression', '"SK", ');
      await cell.getByText(/^Line 1, column \d+: /).waitFor();
      await replaceEditorText(page, 'Cell expression', '"SK", "PL"');
      await cell.getByText(/^Line 1, column/).waitFor({ state: 'detached' });
      await cell.getByRole('button', { name: 'Apply' }).click();
      assert.equal(await gridCell(page, 2, 0).innerText(), '"SK", "PL"');
      await table.getByRole('button', { name: 'Add row' }).click();
      await gridCell(page, 3, 1).click();
      await page.keyboard.type('12');
      await page.keyboard.press('Enter');
      assert.equal(await gridCell(page, 3, 0).innerText(), 'any');
      // Undo and Redo of the designer cover the grid's edits.
      await page.getByRole('button', { name: 'Undo' }).click();
      assert.equal(await gridCell(page, 3, 1).innerText(), '');
      await page.getByRole('button', { name: 'Redo' }).click();
      assert.equal(await gridCell(page, 3, 1).innerText(), '12');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Shipping graph v1' }).waitFor();
      const stored = await api('GET', '/api/rule/shipping-graph/1');
      const fees = stored.decisionGraph.nodes.find((n: { id: string }) => n.id === 'fees');
      assert.deepEqual(fees.content.rules.map((r: Record<string, string>) => [r.country, r.fee]), [['"CZ"', '7'], ['"SK", "PL"', '12'], ['', '12']]);
      assert.deepEqual(fees.content.rules.slice(0, 2).map((r: Record<string, string>) => r._id), ['r1', 'r2'], 'rows keep their ids');

      // The bench runs the draft with a per-node trace: which nodes ran, with their input and output.
      await replaceEditorText(page, 'Bench input (JSON)', '{ "country": "DE" }');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const results = page.getByRole('table', { name: 'Node results' });
      await results.waitFor();
      assert.match(await page.getByRole('table', { name: 'Result table' }).innerText(), /12/);
      for (const name of ['Request request', 'Decision table fees', 'Switch fork', 'Expression surcharge', 'Response response']) {
        assert.equal(await results.getByRole('row', { name: new RegExp(`^${name}\\b`) }).getByText('Ran').count(), 1, `${name} ran`);
      }
      await results.getByRole('row', { name: /^Decision table fees\b/ }).getByText('input and output').click();
      assert.equal(JSON.parse(await page.getByLabel('Output of Decision table fees', { exact: true }).innerText()).fee, 12);
      assert.equal(JSON.parse(await page.getByLabel('Trace of Decision table fees', { exact: true }).innerText()).index, 2, 'the third row matched');
      // The grid marks the row the table matched.
      assert.match(await gridCell(page, 3, 0).locator('xpath=..').getByRole('rowheader').innerText(), /matched/);
      assert.match(await table.getByRole('note').innerText(), /row 3 matched/);
      await screenshot(page, 'graph-table');
      await page.getByRole('button', { name: 'Back to graph' }).click();
      await viewAtRest(page);
      assert.match(await node(page, 'Expression node surcharge').innerText(), /ran/);
      await page.getByRole('button', { name: 'Hide inspector' }).click();
      await page.getByRole('button', { name: 'Fit View' }).click();
      await viewAtRest(page);
      await screenshot(page, 'graph-bench');
      await page.getByRole('button', { name: 'Show inspector' }).click();

      // CZ takes the else: the surcharge does not run.
      await replaceEditorText(page, 'Bench input (JSON)', '{ "country": "CZ" }');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await results.getByRole('row', { name: /^Expression surcharge\b/ }).getByText('Did not run').waitFor();

      // The run becomes a rule test, which the Tests tab runs against the saved version.
      await page.getByRole('button', { name: 'Save as test' }).click();
      const editor = page.getByRole('region', { name: 'Test editor' });
      await editor.getByLabel('Test name').fill('Czech fee');
      await editor.getByRole('button', { name: 'Save test' }).click();
      await page.getByRole('status').filter({ hasText: 'Test "Czech fee" saved' }).waitFor();
      await page.getByRole('button', { name: 'Run tests' }).click();
      await page.getByRole('region', { name: 'Test results' }).getByText('1 passed, 0 failed').waitFor();

      // Version 2: a function node added and connected between the surcharge and the response.
      await page.getByRole('button', { name: 'New version' }).click();
      await page.getByRole('status').filter({ hasText: 'New version created' }).waitFor();
      await viewAtRest(page);
      await page.getByRole('button', { name: 'Add node' }).click();
      await page.getByRole('menuitem', { name: /^Function/ }).click();
      await node(page, 'Function node function1').waitFor();
      await viewAtRest(page);
      assert.match(await panel.getByLabel('JavaScript').inputValue(), /handler/);
      await node(page, 'Function node function1').click();
      assert.match(await page.getByRole('note', { name: 'Unconnected nodes' }).innerText(), /function1/);
      await panel.getByLabel('Connect function1 to').selectOption({ label: 'response' });
      await node(page, 'Expression node surcharge').click();
      await panel.getByRole('button', { name: 'Remove connection from surcharge to response' }).click();
      await panel.getByLabel('Connect surcharge to').selectOption({ label: 'function1' });
      await page.getByRole('note', { name: 'Unconnected nodes' }).waitFor({ state: 'detached' });
      await page.getByText(/^6 nodes · 6 connections/).waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Shipping graph v2' }).waitFor();

      // Export JDM: the saved version as GoRules writes it, the graph as it was, the rule test among its tests.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export JDM' }).click();
      const done = await download;
      assert.equal(done.suggestedFilename(), 'shipping-graph.json');
      const saved = join(mkdtempSync(join(tmpdir(), 'verdict-graph-')), 'export.json');
      await done.saveAs(saved);
      const exported = JSON.parse(readFileSync(saved, 'utf8'));
      assert.equal(exported.contentType, 'application/vnd.gorules.decision');
      assert.equal(exported.nodes.length, 6);
      assert.deepEqual(exported.tests.map((t: { input: unknown }) => t.input), [{ country: 'CZ' }]);

      await compareVersions(page, 1, 2);
      const comparison = page.getByRole('table', { name: 'Comparison of v1 and v2' });
      await comparison.waitFor();
      const text = await comparison.innerText();
      assert.match(text, /only right\s+Function function1/);
      assert.match(text, /only right\s+Connection surcharge → function1/);
      assert.match(text, /only left\s+Connection surcharge → response/);
      assertClean();
    });
    await close();
  });

  test('New rule offers decision graphs: a blank graph opens connected; a node saved unfinished shows the server\'s problem', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'graph-new', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule type').selectOption({ label: 'Decision graph' });
      await dialog.getByLabel('Rule name').fill('Blank graph');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('region', { name: 'Decision graph canvas' }).waitFor();
      await node(page, 'Request node request').waitFor();
      // Attached, not visible: a straight edge's box has no height.
      await page.getByRole('group', { name: 'Connection from request to response' }).waitFor({ state: 'attached' });
      await page.getByRole('button', { name: 'Add node' }).click();
      // Custom nodes are kept when imported, never offered: Verdict cannot run them.
      assert.deepEqual(await page.getByRole('menu', { name: 'Node types' }).getByRole('menuitem').evaluateAll((items) => items.map((i) => i.querySelector('strong')?.textContent)),
        ['Request', 'Decision table', 'Expression', 'Switch', 'Decision', 'Function', 'Response']);
      // A decision node saved before it names its rule: the server's problem lands on the node.
      await page.getByRole('menuitem', { name: /^Decision\b(?! table)/ }).click();
      await node(page, 'Decision node decision1').waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('region', { name: 'Problems' }).waitFor();
      assert.match(await node(page, 'Decision node decision1').innerText(), /1 problem/);
      assert.match(await inspector(page).getByRole('alert', { name: 'Problems in decision1' }).innerText(), /content\.key.*must not be empty/);
      assertClean([400]);
    });
    await close();
  });

  test('a GoRules JDM file imported from the rule list opens as a decision graph, its embedded test a rule test', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'graph-import', async () => {
      const { decisionGraph } = shippingGraph();
      const file = { contentType: 'application/vnd.gorules.decision', ...decisionGraph, tests: [{ input: { country: 'CZ' }, output: { country: 'CZ', fee: 5 } }] };
      await page.getByLabel('Export file to import').setInputFiles({ name: 'shipping-fees.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
      // The notice says how the import went, either way: a refusal fails here at once, not at a timeout.
      const notice = page.getByRole('status').filter({ hasText: /shipping-fees\.json/ });
      await notice.waitFor();
      assert.equal(await notice.innerText(), 'Imported 1 rule version from shipping-fees.json');
      await page.getByRole('link', { name: /^shipping-fees/ }).click();
      await page.getByRole('region', { name: 'Decision graph canvas' }).waitFor();
      await node(page, 'Decision table node fees').waitFor();
      // The file's embedded test came along as the rule's suite "JDM tests", and passes.
      await page.getByRole('tab', { name: 'Tests' }).click();
      await page.getByRole('button', { name: 'Run tests' }).click();
      await page.getByRole('region', { name: 'Test results' }).getByText('1 passed, 0 failed').waitFor();
      assertClean();
    });
    await close();
  });
});
