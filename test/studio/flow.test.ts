// Decision flows and rule flows in the Studio, end to end in Chromium against a real server: a decision flow of
// three nodes built from the empty canvas by clicking (one edge dragged, the others chosen in `Connect … to`), a
// server problem shown on its node, a bench run with per-node results, Publish, and a solve over HTTP with a
// solver key; a rule flow built the same way, versioned and compared; then the project's fixture flows, which
// carry no positions, imported through the management API and opened laid out, the rule flow run in the bench.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkip, replaceEditorText, screenshot, StudioSuite, viewAtRest, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';
import type { Doc } from './tables.ts';

const skip = chromiumSkip();

/** A flow of the project's fixtures (test/fixtures/flows/<folder>: the flow and the rules it calls) as one export. */
function fixtureFlow(folder: string): Doc[] {
  const dir = fileURLToPath(new URL(`../fixtures/flows/${folder}/`, import.meta.url));
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

/** A one-condition table: the shipping fee by country (CZ 5, anything else 12). */
function feeTable(): Doc {
  return {
    type: 'decision-table', name: 'Shipping fee', ruleAlias: 'shipping-fee', status: 'published',
    inputSchema: { country: {} }, outputSchema: { fee: {} },
    decisionTable: {
      columns: [
        { columnId: 'country', type: 'input', condition: { type: 'simple', name: 'Country', definition: { content: 'country', type: 'INPUT_VARIABLE', valid: true } } },
        { columnId: 'fee', type: 'output', columnOutput: { type: 'simple', name: 'Fee', outputVariable: 'fee' } },
      ],
      rows: [
        { active: true, cells: [{ column: 'country', type: 'input', scalarCondition: { operator: '=', value: 'CZ', type: 'general' } }, { column: 'fee', type: 'output', outputScalarValue: { type: 'common', value: '5' } }] },
        { active: true, cells: [{ column: 'country', type: 'input', scalarCondition: { operator: 'ELSE', value: '', type: 'general' } }, { column: 'fee', type: 'output', outputScalarValue: { type: 'common', value: '12' } }] },
      ],
    },
  };
}

describe('Verdict Studio flows in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;


  const node = (page: Page, name: string): Locator => page.getByRole('group', { name, exact: true });
  const inspector = (page: Page): Locator => page.getByRole('complementary', { name: 'Node inspector' });

  /**
   * A node's place and size in the flow's own coordinates (the translate React Flow gives the node, and its layout
   * size), which the view's pan and zoom do not change: Auto layout and Add node also animate the view to fit, and
   * a node's box on screen moves with that animation.
   */
  function flowBox(page: Page, name: string): Promise<{ x: number; y: number; width: number; height: number }> {
    return node(page, name).evaluate((element: any) => {
      const at = /translate\((-?[\d.e+-]+)px, ?(-?[\d.e+-]+)px\)/.exec(element.style.transform);
      if (!at) throw new Error(`no translate on the node (${element.style.transform})`);
      return { x: Number(at[1]), y: Number(at[2]), width: element.offsetWidth, height: element.offsetHeight };
    });
  }

  async function addNode(page: Page, type: string) {
    await page.getByRole('button', { name: 'Add node' }).click();
    await page.getByRole('menuitem', { name: new RegExp(`^${type}`) }).click();
  }

  test('build a decision flow of three nodes from the empty canvas, see a problem on its node, run it in the bench, publish, solve over HTTP', async () => {
    await api('POST', '/api/rule', { ...pricingTable('Membership discount'), ruleAlias: 'membership' });
    await api('POST', '/api/rule', feeTable());
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'flow', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule type').selectOption({ label: 'Decision flow' });
      await dialog.getByLabel('Rule name').fill('Order pricing');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('region', { name: 'Decision flow canvas' }).waitFor();
      await node(page, 'Start node').waitFor();
      assert.match(await page.getByText(/^1 node · 0 connections/).innerText(), /1 node/);

      // Node 1: a business rule calling the membership table; its edge from Start is dragged on the canvas.
      await addNode(page, 'Business rule');
      await node(page, 'Business rule node rule').waitFor();
      const panel = inspector(page);
      await panel.getByLabel('Called rule').selectOption({ label: 'Membership discount (decision-table)' });
      await panel.getByLabel('Strategy').selectOption('FIRST_MATCH');
      await panel.getByRole('button', { name: "Map the rule's inputs" }).click();
      assert.equal(await panel.getByLabel('Rule input 1').inputValue(), 'customer.tier');
      assert.equal(await panel.getByLabel('From 2').inputValue(), 'input.customer.age');
      assert.match(await page.getByRole('note', { name: 'Unconnected nodes' }).innerText(), /never run: rule\./);
      // Adding the node refits the view; a port measured while it moves is not where the drag ends.
      await viewAtRest(page);
      const from = await page.getByLabel('Start out port').boundingBox();
      const to = await page.getByLabel('rule in port').boundingBox();
      await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
      await page.mouse.down();
      await page.mouse.move(to!.x + 20, to!.y + 10, { steps: 8 });
      await page.mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 4 });
      await page.mouse.up();
      await page.getByRole('group', { name: 'Connection from Start to rule' }).waitFor();
      await page.getByRole('note', { name: 'Unconnected nodes' }).waitFor({ state: 'detached' });

      // Node 2: a second business rule, saved before it names its rule: the server's problem lands on it.
      await addNode(page, 'Business rule');
      await node(page, 'Business rule node rule_1').waitFor();
      await viewAtRest(page); // the view moves onto the new node; a click mid-move can miss
      await node(page, 'Business rule node rule').click();
      await panel.getByLabel('Connect rule (after) to').selectOption({ label: 'rule_1' });
      await page.getByRole('group', { name: 'Connection from rule (after) to rule_1' }).waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('region', { name: 'Problems' }).waitFor();
      assert.match(await node(page, 'Business rule node rule_1').innerText(), /1 problem/);
      assert.doesNotMatch(await node(page, 'Business rule node rule').innerText(), /problem/);
      await node(page, 'Business rule node rule_1').click();
      assert.match(await panel.getByRole('alert', { name: 'Problems in rule_1' }).innerText(), /needs the rule to solve/);
      await panel.getByLabel('Called rule').selectOption({ label: 'Shipping fee (decision-table)' });
      await panel.getByLabel('Strategy').selectOption('FIRST_MATCH');
      await panel.getByRole('button', { name: "Map the rule's inputs" }).click();
      assert.equal(await panel.getByLabel('From 1').inputValue(), 'input.country');

      // Node 3, added from the keyboard: an Assign writing both results to the flow output, with the tables'
      // expression editor.
      await page.getByRole('button', { name: 'Add node' }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await node(page, 'Assign node assign').waitFor();
      await viewAtRest(page);
      await panel.getByRole('button', { name: 'Add assignment' }).click();
      await panel.getByLabel('Target 1').fill('output.discount');
      await replaceEditorText(page, 'Value 1', '{rule.output.discount}');
      await panel.getByRole('button', { name: 'Add assignment' }).click();
      await panel.getByLabel('Target 2').fill('output.total');
      await replaceEditorText(page, 'Value 2', '{input.price} * (100 - {rule.output.discount}) / 100 + {rule_1.output.fee}');
      await node(page, 'Business rule node rule_1').click();
      await panel.getByLabel('Connect rule_1 (after) to').selectOption({ label: 'assign' });
      await page.getByText(/^4 nodes · 3 connections/).waitFor();

      // A node deleted by mistake comes back, with its connections, by Undo.
      await node(page, 'Assign node assign').click();
      await panel.getByRole('button', { name: 'Delete node' }).click();
      await page.getByText(/^3 nodes · 2 connections/).waitFor();
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.getByText(/^4 nodes · 3 connections/).waitFor();
      await node(page, 'Assign node assign').click();
      assert.equal(await panel.getByLabel('Target 2').inputValue(), 'output.total');

      // Auto layout lines the chain up left to right, in run order.
      await page.getByRole('button', { name: 'Auto layout' }).click();
      const chain = ['Start node', 'Business rule node rule', 'Business rule node rule_1', 'Assign node assign'];
      const laid = [];
      for (const name of chain) laid.push(await flowBox(page, name));
      for (let i = 1; i < laid.length; i++) {
        assert.ok(laid[i]!.x > laid[i - 1]!.x + laid[i - 1]!.width, `${chain[i]} right of ${chain[i - 1]}`);
        assert.ok(Math.abs(laid[i]!.y + laid[i]!.height / 2 - (laid[0]!.y + laid[0]!.height / 2)) < 40, `${chain[i]} on the chain's line`);
      }

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Order pricing v1' }).waitFor();
      await page.getByRole('region', { name: 'Problems' }).waitFor({ state: 'detached' });

      // The bench: the result, and per node whether it ran with its input and output.
      await replaceEditorText(page, 'Bench input (JSON)', '{ "customer": { "tier": "gold", "age": 40 }, "country": "CZ", "price": 200 }');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const results = page.getByRole('table', { name: 'Node results' });
      await results.waitFor();
      assert.match(await page.getByRole('table', { name: 'Result table' }).innerText(), /20\s+165/);
      for (const name of ['Start', 'Business rule rule', 'Business rule rule_1', 'Assign assign']) {
        assert.equal(await results.getByRole('row', { name: new RegExp(`^${name}\\b`) }).getByText('Ran').count(), 1, `${name} ran`);
      }
      await results.getByRole('row', { name: /^Business rule rule\b/ }).getByText('input and output').click();
      assert.deepEqual(JSON.parse(await page.getByLabel('Input of Business rule rule', { exact: true }).innerText()), { customer: { tier: 'gold', age: 40 } });
      assert.deepEqual(JSON.parse(await page.getByLabel('Output of Business rule rule', { exact: true }).innerText()), { discount: 20, note: 'Gold member' });
      assert.match(await node(page, 'Assign node assign').innerText(), /ran/);
      await page.getByRole('button', { name: 'Fit View' }).click();
      await viewAtRest(page);
      await screenshot(page, 'flow');

      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published v1' }).waitFor();
      const item = (await api('GET', '/api/space/items')).find((i: { name: string }) => i.name === 'Order pricing');
      assert.equal(item.status, 'published');
      assert.equal(item.type, 'workflow');
      const solved = await suite.studio.server.solve(`/rule/solve/${item.ruleAlias}`, { data: { customer: { tier: 'silver', age: 30 }, country: 'DE', price: 100 } });
      assert.equal(solved.status, 200, solved.text);
      assert.deepEqual(solved.json, [{ discount: 10, total: 102 }]);
      assertClean([400]);
    });
    await close();
  });

  test('build a rule flow by clicking: a rule node between start and end, mappings, bench, publish, solve over HTTP', async () => {
    await api('POST', '/api/rule', { ...pricingTable('Loyalty table'), ruleAlias: 'loyalty' });
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'rule-flow-build', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule type').selectOption({ label: 'Rule flow' });
      await dialog.getByLabel('Rule name').fill('Loyalty flow');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('region', { name: 'Rule flow canvas' }).waitFor();
      await page.getByText(/^2 nodes · 1 connection\b/).waitFor();
      const panel = inspector(page);

      await addNode(page, 'Rule');
      await node(page, 'Rule node Rule_1').waitFor();
      await panel.getByLabel('Called rule').selectOption({ label: 'Loyalty table (decision-table)' });
      await panel.getByRole('button', { name: "Map the rule's inputs" }).click();
      assert.equal(await panel.getByLabel('Source path 2').inputValue(), 'customer.age');
      await panel.getByLabel('Connect Rule_1 to').selectOption({ label: 'end' });

      // The view followed the new node at a readable zoom, leaving the start off screen: Fit View shows it again.
      await viewAtRest(page);
      await page.getByRole('button', { name: 'Fit View' }).click();
      await viewAtRest(page);
      await node(page, 'Start node').click();
      await panel.getByRole('button', { name: 'Remove connection from start to end' }).click();
      await panel.getByLabel('Connect start to').selectOption({ label: 'Rule_1' });
      await page.getByText(/^3 nodes · 2 connections/).waitFor();

      // A node dragged on the canvas stays where it is dropped (and Undo puts it back). The drag is 80 px on
      // screen, at least 80 in the flow's coordinates (Fit View zooms in no further than normal size).
      await viewAtRest(page);
      const before = await flowBox(page, 'Rule node Rule_1');
      const grip = (await node(page, 'Rule node Rule_1').boundingBox())!;
      await page.mouse.move(grip.x + grip.width / 2, grip.y + 12);
      await page.mouse.down();
      await page.mouse.move(grip.x + grip.width / 2, grip.y + 92, { steps: 6 });
      await page.mouse.up();
      const moved = await flowBox(page, 'Rule node Rule_1');
      assert.ok(moved.y > before.y + 40, `the node moved down (from ${before.y} to ${moved.y})`);
      await page.getByRole('button', { name: 'Undo' }).click();
      assert.deepEqual(await flowBox(page, 'Rule node Rule_1'), before, 'Undo puts it back');
      await page.getByRole('button', { name: 'Redo' }).click();
      assert.deepEqual(await flowBox(page, 'Rule node Rule_1'), moved, 'Redo moves it again');

      await node(page, 'End node').click();
      await panel.getByRole('button', { name: 'Add mapping' }).click();
      await panel.getByLabel('Output path 1').fill('loyalty.discount');
      await panel.getByLabel('Source node 1').selectOption('Rule_1');
      await panel.getByLabel('Source path 1').fill('discount');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Loyalty flow v1' }).waitFor();

      await replaceEditorText(page, 'Bench input (JSON)', '{ "customer": { "tier": "silver", "age": 30 } }');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const results = page.getByRole('table', { name: 'Node results' });
      await results.waitFor();
      assert.match(await page.getByRole('table', { name: 'Result table' }).innerText(), /loyalty\.discount\s+10/);
      assert.equal(await results.getByRole('row', { name: /^Rule Rule_1\b/ }).getByText('Ran').count(), 1);

      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published v1' }).waitFor();
      const item = (await api('GET', '/api/space/items')).find((i: { name: string }) => i.name === 'Loyalty flow');
      assert.equal(item.type, 'composition');
      const solved = await suite.studio.server.solve(`/rule/solve/${item.ruleAlias}`, { data: { customer: { tier: 'gold', age: 50 } } });
      assert.equal(solved.status, 200, solved.text);
      assert.deepEqual(solved.json, [{ loyalty: { discount: 20 } }]);

      // Version 2 renames the rule node (the end's mapping follows); the versions compare node by node.
      await page.getByRole('button', { name: 'New version' }).click();
      await page.getByRole('status').filter({ hasText: 'New version created' }).waitFor();
      // Version 2 opens at its first view (readable, from the start), where Rule_1 may be off screen: choose it in
      // the nodes list, as a person would.
      await viewAtRest(page);
      await page.getByRole('button', { name: 'Edit Rule Rule_1' }).click();
      await panel.getByLabel('Node name').fill('Loyalty');
      await node(page, 'Rule node Loyalty').waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Loyalty flow v2' }).waitFor();
      await page.getByRole('tab', { name: 'Versions' }).click();
      await page.getByLabel('Left version').selectOption('1');
      await page.getByLabel('Right version').selectOption('2');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      const comparison = page.getByRole('table', { name: 'Comparison of v1 and v2' });
      await comparison.waitFor();
      const text = await comparison.innerText();
      assert.match(text, /changed\s+Rule Loyalty\s+name: Rule_1 → Loyalty/);
      assert.match(text, /changed\s+End\s+data\.mapping/);
      assertClean();
    });
    await close();
  });

  test('flows imported without positions (a decision flow, a rule flow with a node under two parents) open laid out; the rule flow runs in the bench', async () => {
    await api('POST', '/api/folder/import', fixtureFlow('order'));
    await api('POST', '/api/folder/import', fixtureFlow('loan'));
    const { page, assertClean, close } = await suite.signedIn('#/rules/order-evaluation/1');
    await withFailureShot(page, 'flow-import', async () => {
      await page.getByRole('region', { name: 'Decision flow canvas' }).waitFor();
      const order = ['Start node', 'Declare node declare', 'For each node foreach', 'Business rule node rule_1', 'Assign node assign_1', 'Switch node switch_1'];
      const boxes = [];
      for (const name of order) {
        await node(page, name).waitFor();
        boxes.push(await flowBox(page, name));
      }
      for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i]!.x > boxes[i - 1]!.x, `${order[i]} is laid out right of ${order[i - 1]}`);
      assert.equal(await page.getByText('unsaved draft').count(), 0, 'opening an imported flow changes nothing by itself');
      assert.equal(await page.getByRole('group', { name: /^Connection from / }).count(), 13);
      await viewAtRest(page);
      await screenshot(page, 'flow-layout');
      assertClean();
    });

    await page.goto(`${suite.studio.studioUrl}#/rules/loan-flow/1`);
    await withFailureShot(page, 'rule-flow', async () => {
      await page.getByRole('region', { name: 'Rule flow canvas' }).waitFor();
      const names = ['Start node', 'Rule node clients', 'Rule node loanType', 'Rule node bank', 'End node'];
      for (const name of names) await node(page, name).waitFor();
      const placed = await Promise.all(names.map((name) => flowBox(page, name)));
      const [start, clients, loanType, bank, end] = placed;
      assert.ok(start!.x < clients!.x && clients!.x === loanType!.x && loanType!.x < bank!.x && bank!.x < end!.x, `laid out in run order, the two rules before the bank side by side (${JSON.stringify(placed)})`);
      assert.equal(await page.getByRole('group', { name: /^Connection from / }).count(), 5, 'the bank node appears once, with both parents');
      // The readable first view shows the flow from its start; the bank node sits under the side panel until the
      // whole flow is brought into view, as a person would do.
      await viewAtRest(page);
      await page.getByRole('button', { name: 'Fit View' }).click();
      await viewAtRest(page);
      await node(page, 'Rule node bank').click();
      const panel = inspector(page);
      assert.equal(await panel.getByLabel('Called rule').inputValue(), '0b6f3c5e-1d1a-4c2e-9a51-5c1d00000003');
      assert.equal(await panel.getByLabel('Source node 2').inputValue(), 'clients');
      await replaceEditorText(page, 'Bench input (JSON)', '{ "age": 30, "salary": 4000, "loanType": "household", "loan": 30000 }');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const results = page.getByRole('table', { name: 'Node results' });
      await results.waitFor();
      assert.match(await page.getByRole('table', { name: 'Result table' }).innerText(), /30000\s+1\.15\s+34500\s+eligible for the loan/);
      for (const name of ['Start', 'Rule clients', 'Rule loanType', 'Rule bank', 'End']) {
        assert.equal(await results.getByRole('row', { name: new RegExp(`^${name}\\b`) }).getByText('Ran').count(), 1, `${name} ran`);
      }
      await results.getByRole('row', { name: /^Rule bank\b/ }).getByText('input and output').click();
      assert.equal(JSON.parse(await page.getByLabel('Input of Rule bank').innerText()).maxClientLoan, 240000);
      await viewAtRest(page);
      await screenshot(page, 'rule-flow');
      assertClean();
    });
    await close();
  });
});
