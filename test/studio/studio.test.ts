// Verdict Studio end to end, in Debian's Chromium through playwright-core, against a real server over a fresh
// SQLite database. One server and one browser for the whole file; a fresh browser context per scenario. Every
// scenario finds controls by role and accessible name only, and fails on any browser console error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkip, screenshot, signIn, startStudio } from './support.ts';
import type { StudioHarness } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

describe('Verdict Studio in Chromium', { skip }, () => {
  let studio: StudioHarness;
  let key: string;

  before(async () => {
    studio = await startStudio();
    key = studio.server.space.managementKey;
  });
  after(async () => {
    await studio?.close();
  });

  async function api(method: string, path: string, body?: unknown) {
    const reply = await studio.server.call(method, path, { key, body });
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.json;
  }

  async function signedIn(hash = ''): Promise<ReturnType<StudioHarness['open']> extends Promise<infer T> ? T : never> {
    const handle = await studio.open();
    await signIn(handle.page, key);
    if (hash) await handle.page.goto(`${studio.studioUrl}${hash}`);
    return handle;
  }

  test('sign in: a wrong key is refused with a clear error, the right one opens the rule list, sign out forgets it', async () => {
    const { page, assertClean, close } = await studio.open();
    await page.getByLabel('Management key').fill('vmk_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /refused this key/);
    await screenshot(page, 'sign-in');
    await signIn(page, key);
    assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('key')).length), 0, 'the key is not in localStorage');
    assert.ok(await page.evaluate(() => Object.values(sessionStorage).length === 1));
    await page.reload();
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Management key').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'sign out clears the key');
    assertClean([401]);
    await close();
  });

  test('rule list: folders, tags and search; import by file picker, export, delete with confirmation', async () => {
    await api('POST', '/api/folder', { type: 'FOLDER', name: 'Pricing', children: [] });
    await api('POST', '/api/rule?path=/Pricing', pricingTable('Membership discount'));
    await api('POST', '/api/rule', pricingTable('Shipping surcharge', { tags: ['logistics'] }));
    const { page, assertClean, close } = await signedIn();
    const rules = page.getByRole('table', { name: 'Rules' });
    await rules.getByRole('link', { name: 'Membership discount' }).waitFor();
    await page.getByRole('button', { name: /\/Pricing/ }).click();
    assert.equal(await rules.getByRole('link', { name: 'Shipping surcharge' }).count(), 0, 'the folder filter hides rules of other folders');
    await page.getByRole('button', { name: 'All rules' }).click();
    await page.getByRole('button', { name: 'logistics' }).click();
    assert.equal(await rules.getByRole('link', { name: 'Membership discount' }).count(), 0, 'the tag filter hides untagged rules');
    await page.getByRole('button', { name: 'logistics' }).click();
    await page.getByLabel('Search rules').fill('surch');
    assert.equal(await rules.getByRole('row').count(), 2, 'header + one rule match the search');
    await page.getByLabel('Search rules').fill('');
    await screenshot(page, 'rule-list');

    const exported = pricingTable('Imported loyalty table', { ruleId: 'e2e-imported-rule', ruleAlias: 'imported-loyalty' });
    await page.getByLabel('Export file to import').setInputFiles({ name: 'loyalty.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await rules.getByRole('link', { name: 'Imported loyalty table' }).waitFor();
    const stored = await api('GET', '/api/rule/imported-loyalty/1');
    assert.equal(stored.name, 'Imported loyalty table');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Imported loyalty table' }).click();
    const file = await download;
    const text = await (await file.createReadStream()).toArray();
    assert.equal(JSON.parse(Buffer.concat(text).toString('utf8')).ruleAlias, 'imported-loyalty');

    await page.getByRole('button', { name: 'Delete Imported loyalty table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete rule' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await studio.server.call('GET', '/api/rule/imported-loyalty/1', { key })).status, 200, 'cancel keeps the rule');
    await page.getByRole('button', { name: 'Delete Imported loyalty table' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await rules.getByRole('link', { name: 'Imported loyalty table' }).waitFor({ state: 'detached' });
    assert.equal((await studio.server.call('GET', '/api/rule/imported-loyalty/1', { key })).status, 404);
    assertClean();
    await close();
  });

  test('compare v1 with v2: changed cells, rows only in one side, next and previous difference', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Compare me'));
    const changed = structuredClone(v1);
    changed.decisionTable.rows[0].cells[2].outputScalarValue.value = '25';
    changed.decisionTable.rows.splice(2, 0, structuredClone(changed.decisionTable.rows[0]));
    changed.decisionTable.rows[2].cells[0].scalarCondition.value = 'platinum';
    await api('POST', `/api/rule/${v1.ruleId}/new-version`, changed);
    const { page, assertClean, close } = await signedIn(`#/rules/${v1.ruleId}/2`);
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByLabel('Left version').selectOption('1');
    await page.getByLabel('Right version').selectOption('2');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const table = page.getByRole('table', { name: 'Comparison of v1 and v2' });
    await table.waitFor();
    assert.equal(await table.getByRole('cell', { name: '25 (changed)' }).count(), 1, 'the changed cell is marked');
    assert.ok(await table.getByRole('cell', { name: '(no row)' }).count() >= 1, 'the added row has no counterpart on the left');
    await page.getByRole('button', { name: 'Next difference' }).click();
    assert.match(await page.getByText(/^Difference 1 of 2/).innerText(), /Row 1, Discount \(discount\) changed/);
    await page.getByRole('button', { name: 'Next difference' }).click();
    assert.match(await page.getByText(/^Difference 2 of 2/).innerText(), /Row 3 only in the right version/);
    await page.getByRole('button', { name: 'Previous difference' }).click();
    await page.getByText(/^Difference 1 of 2/).waitFor();
    await screenshot(page, 'compare');
    assertClean();
    await close();
  });
});

export type { Page };
