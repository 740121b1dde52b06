// Verdict Studio end to end, in Debian's Chromium through playwright-core, against a real server over a fresh
// SQLite database. One server and one browser for the whole file; a fresh browser context per scenario. Every
// scenario finds controls by role and accessible name only, and fails on any browser console error.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkip, compareVersions, gridCell, replaceEditorText, screenshot, signIn, StudioSuite, submitKey, withFailureShot } from './support.ts';
import { bigTable, pricingTable } from './tables.ts';
import { timeToFirstCell } from '../../bench/lib/studio-measure.ts';

const skip = chromiumSkip();

describe('Verdict Studio in Chromium', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;


  /** Types a cell's one-line text (as in a spreadsheet) and commits it with Enter. */
  async function typeCell(page: Page, row: number, column: number, text: string) {
    await gridCell(page, row, column).click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  /** Names and binds a column through its column dialog (opened by "Edit column …" or by adding a column). */
  async function fillColumnDialog(page: Page, kind: 'Condition' | 'Result', name: string, binding: string) {
    const dialog = page.getByRole('dialog', { name: `${kind} column` });
    await dialog.getByLabel('Column name').fill(name);
    await dialog.getByLabel(kind === 'Condition' ? 'Input variable' : 'Output variable').fill(binding);
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  test('sign in with a management key: a wrong key is refused with a clear error, the right one becomes a session the browser never sees, sign out ends it', async () => {
    const { page, context, assertClean, close } = await suite.studio.open();
    await submitKey(page, 'vmk_not-a-key');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /refused this key/);
    await signIn(page, suite.key);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    assert.ok(!stored.includes(suite.key), 'the key is kept nowhere in the browser');
    const cookie = (await context.cookies()).find((c) => c.name === 'verdict_session');
    assert.ok(cookie?.httpOnly, 'the session is an HttpOnly cookie');
    await page.reload();
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('User name').waitFor();
    await page.reload();
    await page.getByLabel('User name').waitFor();
    assertClean([401]);
    await close();
  });

  test('rule list: folders, tags and search; import by file picker and by drop, export, delete with confirmation', async () => {
    await api('POST', '/api/folder', { type: 'FOLDER', name: 'Pricing', children: [] });
    await api('POST', '/api/rule?path=/Pricing', pricingTable('Membership discount'));
    await api('POST', '/api/rule', pricingTable('Shipping surcharge', { tags: ['logistics'] }));
    const { page, assertClean, close } = await suite.signedIn();
    const rules = page.getByRole('table', { name: 'Rules' });
    await rules.getByRole('link', { name: 'Membership discount' }).waitFor();
    await page.getByRole('button', { name: /^Pricing/ }).click();
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

    // A file dropped on the page is imported too.
    const dropped = JSON.stringify(pricingTable('Dropped table', { ruleId: 'e2e-dropped-rule', ruleAlias: 'dropped-table' }));
    const transfer = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([${JSON.stringify(dropped)}], 'dropped.json', { type: 'application/json' }));
      return transfer;
    })()`);
    const heading = page.getByRole('heading', { name: 'Rules', level: 1 });
    await heading.dispatchEvent('dragover', { dataTransfer: transfer });
    await heading.dispatchEvent('drop', { dataTransfer: transfer });
    await rules.getByRole('link', { name: 'Dropped table' }).waitFor();
    assert.equal((await api('GET', '/api/rule/dropped-table/1')).name, 'Dropped table');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Imported loyalty table' }).click();
    const file = await download;
    const text = await (await file.createReadStream()).toArray();
    assert.equal(JSON.parse(Buffer.concat(text).toString('utf8')).ruleAlias, 'imported-loyalty');

    await page.getByRole('button', { name: 'Delete Imported loyalty table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete rule' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await suite.studio.server.call('GET', '/api/rule/imported-loyalty/1', { key: suite.key })).status, 200, 'cancel keeps the rule');
    await page.getByRole('button', { name: 'Delete Imported loyalty table' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await rules.getByRole('link', { name: 'Imported loyalty table' }).waitFor({ state: 'detached' });
    assert.equal((await suite.studio.server.call('GET', '/api/rule/imported-loyalty/1', { key: suite.key })).status, 404);
    assertClean();
    await close();
  });

  test('author a table: three conditions (between, function) and two results, a server problem on its cell, bench, paste 50 rows, save, publish, solve', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'authoring', async () => {
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByRole('dialog', { name: 'New rule' }).getByLabel('Rule name').fill('Loan offer');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('grid', { name: 'Decision table' }).waitFor();

    await page.getByRole('button', { name: 'Edit column Condition' }).click();
    await fillColumnDialog(page, 'Condition', 'Age', 'applicant.age');
    await page.getByRole('button', { name: 'Add condition column' }).click();
    await fillColumnDialog(page, 'Condition', 'Income', 'applicant.income');
    await page.getByRole('button', { name: 'Add condition column' }).click();
    await fillColumnDialog(page, 'Condition', 'Score check', 'applicant.score');
    await page.getByRole('button', { name: 'Edit column Result' }).click();
    await fillColumnDialog(page, 'Result', 'Rate', 'offer.rate');
    await page.getByRole('button', { name: 'Add result column' }).click();
    await fillColumnDialog(page, 'Result', 'Message', 'offer.message');
    const headers = await page.getByRole('grid', { name: 'Decision table' }).getByRole('columnheader').allInnerTexts();
    assert.deepEqual(headers.slice(1).map((h) => h.split('\n').find((l) => /Age|Income|Score|Rate|Message/.test(l))?.trim()), ['Age', 'Income', 'Score check', 'Rate', 'Message']);

    await typeCell(page, 1, 0, 'BTW 18, 65');
    await typeCell(page, 1, 1, '>= 3000');
    await typeCell(page, 1, 2, 'fx GT({applicant.score}, 600)');
    await typeCell(page, 1, 3, '3.5');
    await typeCell(page, 1, 4, 'fx CONCAT("Offer-", {applicant.age}');
    await gridCell(page, 1, 0).click();
    await page.keyboard.press('Control+Home');
    await screenshot(page, 'designer');

    // The server refuses the expression that does not parse, and the problem lands on that very cell.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const problems = page.getByRole('region', { name: 'Problems' });
    await problems.waitFor();
    assert.match(await problems.innerText(), /decisionTable\.rows\[0\]\.cells\[4\]/);
    assert.equal(await gridCell(page, 1, 4).getAttribute('aria-invalid'), 'true');
    assert.equal(await gridCell(page, 1, 3).getAttribute('aria-invalid'), null);
    await typeCell(page, 1, 4, 'fx CONCAT("Offer-", {applicant.age})');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await problems.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Saved Loan offer v1' }).waitFor();

    // The bench runs the draft; the matched row lights up in the grid.
    await replaceEditorText(page, 'Bench input (JSON)', '{\n  "applicant": {\n    "age": 30,\n    "income": 5000,\n    "score": 700\n  }\n}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const resultTable = page.getByRole('table', { name: 'Result table' });
    await resultTable.waitFor();
    assert.match(await resultTable.innerText(), /Offer-30/);
    await page.getByRole('grid', { name: 'Decision table' }).getByRole('rowheader', { name: /1 \(matched\)/ }).waitFor();
    await gridCell(page, 1, 0).click();
    await page.keyboard.press('Control+Home');
    await screenshot(page, 'bench');

    // The simple bench: a form over the same input; included/excluded condition columns.
    await page.getByRole('radio', { name: 'Form' }).check();
    assert.equal(await page.getByLabel('applicant.score', { exact: true }).inputValue(), '700');
    await page.getByLabel('applicant.score', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('No row matched: the result is empty.').waitFor();
    await page.getByText(/^Condition columns/).click();
    await page.getByRole('checkbox', { name: 'Exclude Score check (applicant.score)' }).check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await resultTable.getByText('Offer-30').waitFor();
    await page.getByRole('checkbox', { name: 'Exclude Score check (applicant.score)' }).uncheck();
    await page.getByRole('radio', { name: 'JSON' }).first().check();

    // 50 rows pasted as tab-separated text (as from Excel or Google Sheets) become 50 rows.
    await page.getByRole('button', { name: 'Add row' }).click();
    await gridCell(page, 2, 0).click();
    const tsv = Array.from({ length: 50 }, (_, i) => [`BTW ${66 + i}, ${67 + i}`, '>= 1000', 'fx GT({applicant.score}, 0)', String(5 + i / 10), `Senior offer ${i + 1}`].join('\t')).join('\n');
    await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(tsv)})`);
    await page.keyboard.press('Control+V');
    await page.getByText(/Pasted 50 row/).waitFor();
    await page.getByText(/^51 rows/).waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published v1' }).waitFor();
    const stored = await api('GET', '/api/space/items');
    const item = stored.find((i: { name: string }) => i.name === 'Loan offer');
    assert.equal(item.status, 'published');
    const solved = await suite.studio.server.solve(`/rule/solve/${item.ruleAlias}`, { data: [{ applicant: { age: 30, income: 5000, score: 700 } }, { applicant: { age: 70, income: 2000, score: 1 } }] });
    assert.equal(solved.status, 200, solved.text);
    assert.deepEqual(solved.json, [[{ offer: { rate: 3.5, message: 'Offer-30' } }], [{ offer: { rate: 5.3, message: 'Senior offer 4' } }, { offer: { rate: 5.4, message: 'Senior offer 5' } }]]);
    assertClean([400]);
    });
    await close();
  });

  test('reload after an unsaved edit offers the draft back; a conflicting save is refused, offers Compare, and Overwrite wins', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Contested table'));
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${v1.ruleId}/1`);
    await withFailureShot(page, 'drafts', async () => {
      await typeCell(page, 1, 2, '22');
      await page.getByText(/^Kept in this browser/).waitFor();
      await page.reload();
      const offer = page.getByRole('alert').filter({ hasText: 'unsaved draft' });
      await offer.waitFor();
      assert.equal(await gridCell(page, 1, 2).innerText(), '20', 'the server version shows until the draft is restored');
      await offer.getByRole('button', { name: 'Restore draft' }).click();
      assert.equal(await gridCell(page, 1, 2).innerText(), '22');

      // Another client saves the same version meanwhile.
      const theirs = structuredClone(v1);
      theirs.decisionTable.rows[0].cells[3].outputScalarValue.value = 'Gold member (their edit)';
      await api('PUT', `/api/rule/${v1.ruleId}/1`, theirs);

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      // v1 is published: the Studio asks first (live-edit.test.ts); this scenario saves to it.
      await page.getByRole('dialog', { name: 'This version is live' }).getByRole('button', { name: 'Save to the live version' }).click();
      const dialog = page.getByRole('dialog', { name: 'This version changed on the server' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Compare' }).click();
      const comparison = dialog.getByRole('table', { name: 'Comparison of On the server (v1) and Your draft' });
      await comparison.waitFor();
      assert.equal(await comparison.getByRole('cell', { name: '22 (changed)' }).count(), 1);
      assert.equal(await comparison.getByRole('cell', { name: 'Gold member (changed)' }).count(), 1, 'their edit shows as a difference too');
      assert.equal((await api('GET', `/api/rule/${v1.ruleId}/1`)).decisionTable.rows[0].cells[2].outputScalarValue.value, '20', 'the refused save changed nothing');
      await dialog.getByRole('button', { name: 'Overwrite' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Contested table v1' }).waitFor();
      const stored = await api('GET', `/api/rule/${v1.ruleId}/1`);
      assert.equal(stored.decisionTable.rows[0].cells[2].outputScalarValue.value, '22');
      assertClean([412]);
    });
    await close();
  });

  test('versions: new version, lock and unlock, history with time and who, restore an old version as a new one', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Versioned table'));
    // Signed in with a named key: history says who made each change.
    const alice = await suite.studio.server.running.services.keys.create(suite.studio.server.space.space, 'management', 'Alice (pricing)');
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${v1.ruleId}/1`, alice.key);
    await withFailureShot(page, 'versions', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await page.getByRole('button', { name: 'New version' }).click();
      await page.getByRole('status').filter({ hasText: 'New version created' }).waitFor();
      assert.equal(await page.getByLabel('Rule version').inputValue(), '2');
      await typeCell(page, 1, 2, '30');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Versioned table v2' }).waitFor();

      await page.getByRole('button', { name: 'Lock' }).click();
      await page.getByRole('button', { name: 'Unlock' }).waitFor();
      assert.ok(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled(), 'a locked version cannot be saved');
      assert.equal((await api('GET', `/api/rule/${v1.ruleId}/2`)).locked, true);
      await page.getByRole('button', { name: 'Unlock' }).click();
      await page.getByRole('button', { name: 'Lock' }).waitFor();

      await page.getByRole('tab', { name: 'Versions' }).click();
      const history = page.getByRole('table', { name: 'History' });
      await history.getByRole('row').nth(3).waitFor();
      const text = await history.innerText();
      assert.match(text, /v2\s+lock\s+Alice \(pricing\)/);
      assert.match(text, /v1\s+create/);
      await screenshot(page, 'history');

      await page.getByRole('button', { name: 'Restore version 1 as a new version' }).click();
      await page.getByRole('status').filter({ hasText: 'Version 1 restored as a new version' }).waitFor();
      assert.equal(await page.getByLabel('Rule version').inputValue(), '3');
      const v3 = await api('GET', `/api/rule/${v1.ruleId}/3`);
      assert.equal(v3.decisionTable.rows[0].cells[2].outputScalarValue.value, '20', 'v3 holds what v1 held');
      assert.equal(v3.status, 'pending');
      assertClean();
    });
    await close();
  });

  test('the 10,000-row x 20-column table opens and scrolls to its last row', async () => {
    // Stored by the management service as POST /api/rule stores it (its document checks included), without sending
    // its 20 MB of JSON over HTTP: the upload is not what this scenario is about, and parsing it, checking it
    // against the API's schema and echoing it back cost several seconds of CPU.
    const { services } = suite.studio.server.running;
    const created = (await services.management.rules.create(suite.studio.server.space.space, bigTable(10_000, 20))).document;
    // Signed in, still on about:blank: the rule page is the first page the tab loads, as timeToFirstCell wants.
    const { page, assertClean, close } = await suite.studio.open('', { key: suite.key, navigate: false });
    await withFailureShot(page, 'big-table', async () => {
      const open = await timeToFirstCell(page, `${suite.studio.studioUrl}#/rules/${created.ruleId}/1`);
      // Reported, not asserted (timing under a loaded CI machine is not a test); `npm run bench` measures it.
      console.log(`# Studio: the 10,000 x 20 table showed its first cell ${open.openMs} ms after navigation (rule downloaded at ${open.ruleLoadedMs} ms)`);
      const grid = page.getByRole('grid', { name: 'Decision table' });
      await page.getByText(/^10,?000 rows · 20 columns/).waitFor();
      await gridCell(page, 1, 0).click();
      await page.keyboard.press('Control+End');
      await grid.getByRole('rowheader', { name: '10000' }).waitFor();
      assert.ok(await grid.getByRole('row').count() < 200, 'rows are virtualized: only those on screen are in the DOM');
      assertClean();
    });
    await close();
  });

  test('compare v1 with v2: changed cells, rows only in one side, next and previous difference', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Compare me'));
    const changed = structuredClone(v1);
    changed.decisionTable.rows[0].cells[2].outputScalarValue.value = '25';
    changed.decisionTable.rows.splice(2, 0, structuredClone(changed.decisionTable.rows[0]));
    changed.decisionTable.rows[2].cells[0].scalarCondition.value = 'platinum';
    await api('POST', `/api/rule/${v1.ruleId}/new-version`, changed);
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${v1.ruleId}/2`);
    await compareVersions(page, 1, 2);
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
