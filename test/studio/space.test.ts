// The Studio's space pages end to end, in Debian's Chromium through playwright-core, against a real server over a
// fresh SQLite database: API keys (create shown once with Copy, revoke, the revoked key refused by the solver),
// the Audit log (a record made with X-Audit and X-Debug opened with its trace), the Overview charts, Kafka, and
// the Dependencies graph (click through to the called rule). Controls by role and accessible name only.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { bankLookup, plantFlow, plantTable, PLANT_INPUT } from '../http/fixtures.ts';
import { chromiumSkip, screenshot, StudioSuite, withFailureShot } from './support.ts';
import type { StudioPage } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

/** A table that looks a bank up (LOOKUP_VALUE) and asks the membership table for a discount (SOLVE). */
function bankCheck() {
  const fx = (column: string, value: string) => ({ column, type: 'output', outputScalarValue: { type: 'function', value, stringValue: value } });
  return {
    type: 'decision-table', name: 'Bank check', ruleAlias: 'bank-check', status: 'published',
    inputSchema: { code: {}, customer: {} }, outputSchema: { bank: {}, discount: {} },
    decisionTable: {
      columns: [
        { columnId: 'code', type: 'input', condition: { type: 'simple', name: 'Code', inputVariable: 'code' } },
        { columnId: 'bank', type: 'output', columnOutput: { type: 'simple', name: 'Bank', outputVariable: 'bank' } },
        { columnId: 'discount', type: 'output', columnOutput: { type: 'simple', name: 'Discount', outputVariable: 'discount' } },
      ],
      rows: [{
        active: true,
        cells: [
          { column: 'code', type: 'input', scalarCondition: { operator: 'anything', value: '', type: 'general' } },
          fx('bank', 'LOOKUP_VALUE("bank-lookup", {code}, "bank")'),
          fx('discount', 'SOLVE("membership-discount", {customer})'),
        ],
      }],
    },
  };
}

describe('Verdict Studio space pages in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  before(async () => {
    await api('POST', '/api/rule', { ...pricingTable('Membership discount'), ruleAlias: 'membership-discount' });
    await api('POST', '/api/rule', plantTable());
    await api('POST', '/api/rule', plantFlow());
    await api('POST', '/api/rule', bankLookup());
    await api('POST', '/api/rule', bankCheck());
  });

  async function openPage(name: string): Promise<StudioPage> {
    const handle = await suite.signedIn();
    await handle.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
    await handle.page.getByRole('heading', { name, level: 1 }).waitFor();
    return handle;
  }

  const solve = (path: string, data: unknown, headers: Record<string, string> = {}, solverKey?: string) =>
    suite.studio.server.solve(path, { data }, headers, solverKey);

  test('API keys: create a solver key (shown once, copied), it solves; revoke it with confirmation, the solver refuses it', async () => {
    const { page, assertClean, close } = await openPage('API keys');
    await withFailureShot(page, 'keys', async () => {
      const keys = page.getByRole('table', { name: 'API keys' });
      await keys.getByRole('row').nth(2).waitFor();
      assert.equal(await keys.getByRole('button', { name: /^Revoke/ }).count(), 1, 'the solver key can be revoked, the signed-in key cannot');

      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create key' });
      await dialog.getByRole('radio', { name: /^Solver/ }).check();
      await dialog.getByLabel('Key name').fill('e2e checkout');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      const created = page.getByRole('dialog', { name: 'Key created' });
      const secret = await created.getByLabel(/New solver key/).inputValue();
      assert.match(secret, /^vsk_/);
      await created.getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('status').filter({ hasText: 'Key copied' }).waitFor();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
      await created.getByRole('button', { name: 'Done' }).click();
      await keys.getByRole('row', { name: /e2e checkout/ }).waitFor();
      assert.ok(!(await page.content()).includes(secret), 'the secret is not on the page once the dialog is closed');
      assert.equal((await solve('/rule/solve/membership-discount', { customer: { tier: 'gold', age: 30 } }, {}, secret)).status, 200);
      await screenshot(page, 'keys');

      await page.getByRole('button', { name: 'Revoke e2e checkout' }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke key' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await solve('/rule/solve/membership-discount', { customer: { tier: 'gold', age: 30 } }, {}, secret)).status, 200, 'cancel keeps the key');
      await page.getByRole('button', { name: 'Revoke e2e checkout' }).click();
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
      await keys.getByRole('row', { name: /e2e checkout/ }).getByText(/revoked/).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Revoke e2e checkout' }).count(), 0);
      const refused = await solve('/rule/solve/membership-discount', { customer: { tier: 'gold', age: 30 } }, {}, secret);
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.json, { error: { message: 'Invalid API key' } });
    });
    assertClean();
    await close();
  });

  test('Audit log: a solve made with X-Audit and X-Debug is found by correlation id and opens with its trace', async () => {
    const headers = { 'X-Audit': 'true', 'X-Debug': 'true', 'X-Correlation-Id': 'e2e-audit-1' };
    assert.equal((await solve('/rule/solve/membership-discount', { customer: { tier: 'silver', age: 40 } }, headers)).status, 200);
    assert.equal((await solve('/rule/solve/membership-discount', { customer: { tier: 'gold', age: 40 } }, { 'X-Audit': 'true', 'X-Correlation-Id': 'e2e-audit-2' })).status, 200);
    // Records are queued by the solve and written off the hot path: written now, so the page finds both at once.
    await suite.studio.server.running.services.audit.flush();
    const { page, assertClean, close } = await openPage('Audit log');
    await withFailureShot(page, 'audit', async () => {
      const records = page.getByRole('table', { name: 'Audit records' });
      await records.getByRole('button', { name: 'Open record e2e-audit-2' }).waitFor();
      await page.getByLabel('Correlation id').fill('e2e-audit-1');
      await page.getByLabel('Status').fill('2OO');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      assert.match(await page.getByRole('alert').innerText(), /Status must be a status code/);
      await page.getByLabel('Status').fill('200');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await records.getByRole('button', { name: 'Open record e2e-audit-2' }).waitFor({ state: 'detached' });
      // The other record leaves as the table reloads; count once the filtered page is there.
      await records.getByRole('button', { name: 'Open record e2e-audit-1' }).waitFor();
      assert.equal(await records.getByRole('row').count(), 2, 'header + the one record that matches');
      await screenshot(page, 'audit-log');
      // Time and rule: local date-times as the browser's datetime-local takes them.
      const local = (offsetMs: number) => page.evaluate((ms) => {
        const d = new Date(Date.now() + ms);
        return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
      }, offsetMs);
      await page.getByLabel('Correlation id').fill('');
      await page.getByLabel('Status').fill('');
      await page.getByLabel('Rule').fill('membership-discount');
      await page.getByLabel('From').fill(await local(-3_600_000));
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await records.getByRole('button', { name: 'Open record e2e-audit-2' }).waitFor();
      assert.equal(await records.getByRole('row').count(), 3, 'both records of the last hour');
      await page.getByLabel('From').fill(await local(3_600_000));
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No record matches the filters').waitFor();
      await page.getByLabel('From').fill('');
      await page.getByLabel('Rule').fill('');
      await page.getByLabel('Correlation id').fill('e2e-audit-1');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await records.getByRole('button', { name: 'Open record e2e-audit-1' }).waitFor();

      await records.getByRole('button', { name: 'Open record e2e-audit-1' }).click();
      await page.getByRole('heading', { name: 'Audit record e2e-audit-1' }).waitFor();
      assert.match(await page.getByLabel('Record output').innerText(), /Member/);
      const trace = page.getByRole('region', { name: 'Debug trace' });
      // The trace lights up the matched row in the table's designer, as the bench does.
      await trace.getByRole('grid', { name: 'Decision table' }).getByRole('rowheader', { name: /2 \(matched\)/ }).waitFor();
      assert.equal(await trace.getByRole('rowheader', { name: /1 \(matched\)/ }).count(), 0, 'only the row that matched');
      await screenshot(page, 'audit');
      await page.getByRole('button', { name: '← Audit log' }).click();
      assert.equal(await page.getByLabel('Correlation id').inputValue(), 'e2e-audit-1', 'the filters are kept');
    });
    assertClean();
    await close();
  });

  test('Overview: solves per rule over the last hour as charts and a table', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await solve('/rule/solve/plant-items', PLANT_INPUT)).status, 200);
    assert.equal((await solve('/rule/solve/plant-flow', { group: 'plant' })).status, 200);
    const { page, assertClean, close } = await openPage('Overview');
    await withFailureShot(page, 'overview', async () => {
      const table = page.getByRole('table', { name: 'Rules in the last hour' });
      const plants = table.getByRole('row', { name: /^plant-items/ });
      await plants.waitFor();
      assert.ok(Number((await plants.getByRole('cell').nth(1).innerText()).trim()) >= 5, 'the five solves of plant-items are counted');
      for (const chart of ['Solves per second', 'Error rate (%)', 'p50 latency (ms)', 'p99 latency (ms)']) {
        await page.getByRole('img', { name: new RegExp(`^${chart.replace(/[()%]/g, '\\$&')}, last hour, 3 rules`) }).waitFor();
      }
      await page.getByRole('checkbox', { name: 'plant-flow' }).uncheck();
      await page.getByRole('img', { name: /^Solves per second, last hour, 2 rules/ }).waitFor();
      await page.getByRole('checkbox', { name: 'plant-flow' }).check();

      // For the screenshot, an hour of earlier traffic fed into the same window the solves above went through.
      const now = Date.now();
      const window = suite.studio.server.running.services.solveWindow;
      const space = suite.studio.server.space.space;
      for (let minute = 59; minute >= 1; minute--) {
        const at = now - minute * 60_000;
        const wave = 1 + Math.sin(minute / 6);
        for (let i = 0; i < Math.round(20 * wave) + 5; i++) window.observe(space, 'rule-plants', 'plant-items', 'decision-table', i % 25 === 0, 0.2 + ((i * 7) % 10) / 10, at);
        for (let i = 0; i < Math.round(8 * (2 - wave)) + 2; i++) window.observe(space, 'rule-flow', 'plant-flow', 'composition', minute % 9 === 0 && i < 2, 0.8 + ((i * 3) % 10) / 5, at);
      }
      await page.getByRole('button', { name: 'Refresh' }).click();
      await table.getByRole('row', { name: /^plant-items/ }).getByRole('cell', { name: /^\d{3,}$/ }).waitFor();
      await screenshot(page, 'overview');
    });
    assertClean();
    await close();
  });

  test('Kafka: how to enable the space without a binding; the topic pair and its state with one', async () => {
    const { page, assertClean, close } = await openPage('Kafka');
    await withFailureShot(page, 'kafka', async () => {
      await page.getByText('Kafka is not enabled for this space').waitFor();
      await page.getByText(`verdict kafka enable --space ${suite.studio.server.space.space} --company <company>`).waitFor();
      await suite.studio.server.running.store.kafka.bind({
        space: suite.studio.server.space.space, company: 'acme', requestTopic: 'acme-7f3a-request', responseTopic: 'acme-7f3a-response', createdAt: new Date().toISOString(),
      });
      await page.getByRole('button', { name: 'Refresh' }).click();
      const topics = page.getByRole('table', { name: 'Kafka topics' });
      await topics.getByRole('row', { name: /acme-7f3a-request.*acme-7f3a-response/ }).waitFor();
      assert.match(await topics.innerText(), /not consumed by this server/i);
      assert.match(await page.getByRole('status').first().innerText(), /does not run the Kafka channel/);
      await screenshot(page, 'kafka');
    });
    assertClean();
    await close();
  });

  test('Dependencies: a table using a lookup table and another table, and a flow, as graphs; clicking a called rule opens it', async () => {
    const { page, assertClean, close } = await openPage('Dependencies');
    await withFailureShot(page, 'dependencies', async () => {
      const graph = page.getByLabel('Dependency graph');
      const uses = page.getByRole('table', { name: 'Uses' });
      await page.getByRole('combobox', { name: 'Rule' }).selectOption({ label: 'Plant Flow' });
      await graph.getByRole('button', { name: 'Open Plant Items' }).waitFor();
      assert.match(await uses.innerText(), /Plant Flow\s+Plant Items\s+flow node/);

      await page.getByRole('combobox', { name: 'Rule' }).selectOption({ label: 'Bank check' });
      await graph.getByRole('button', { name: 'Open Bank Lookup' }).waitFor();
      await graph.getByRole('button', { name: 'Open Bank check' }).waitFor();
      const text = await uses.innerText();
      assert.match(text, /Bank check\s+Bank Lookup\s+LOOKUP/);
      assert.match(text, /Bank check\s+Membership discount\s+SOLVE/);
      await screenshot(page, 'dependencies');
      await graph.getByRole('button', { name: 'Open Membership discount' }).click();
      await page.getByRole('heading', { name: 'Membership discount', level: 1 }).waitFor();
      assert.match(page.url(), /#\/rules\/[^/]+\/1$/);
      // The rule page leads back to the graph of the rule it shows.
      await page.getByRole('link', { name: 'Dependencies of Membership discount' }).click();
      await page.getByText('This rule uses no other rule.').waitFor();
      assert.equal(await page.getByRole('combobox', { name: 'Rule' }).locator('option:checked').innerText(), 'Membership discount');
      await page.goBack();
      await page.goBack();
      await graph.getByRole('button', { name: 'Open Membership discount' }).waitFor();
    });
    assertClean();
    await close();
  });
});
