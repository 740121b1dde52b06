// Issue 32 in the Studio, in real Chromium through accessible names: signing in with a user name and password
// (a wrong one refused, the header naming the person and role, sign out), a session that ends returns to the
// sign-in page and keeps the unsaved draft, each role's actions disabled with the reason, a 403 shown in the
// server's words, the space switcher, the members page, the activity log with its actors, and four-eyes approvals: an editor saves a change and requests review but cannot
// approve, a publisher in another browser approves and publishes, the solve answers the new version, and a
// publisher approving their own change is refused with the server's words.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { accessibleDescription, chromiumSkip, gridCell, screenshot, signInAs, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

const PEOPLE = {
  vera: { role: 'viewer', password: 'vera-reads-rules-42' },
  eddie: { role: 'editor', password: 'eddie-edits-rules-42' },
  petra: { role: 'publisher', password: 'petra-publishes-42' },
} as const;
type Person = keyof typeof PEOPLE;

describe('Studio for teams: sign-in, roles, members, activity and approvals', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  before(async () => {
    for (const [username, { role, password }] of Object.entries(PEOPLE)) {
      await api('POST', '/api/space/members', { username, role, password });
    }
  });

  const as = (person: Person, hash = '') => suite.signedInAs(person, PEOPLE[person].password, hash);

  /** A management call made with a person's session (signed in through the API, with the session's CSRF token). */
  async function actAs(person: Person, method: string, path: string, body?: unknown): Promise<any> {
    const url = suite.studio.server.url;
    const context = await suite.studio.browser.newContext();
    try {
      const signedIn = await context.request.post(`${url}/api/auth/login`, { data: { username: person, password: PEOPLE[person].password } });
      assert.equal(signedIn.status(), 200, await signedIn.text());
      const { csrfToken } = await signedIn.json();
      const reply = await context.request.fetch(`${url}${path}`, { method, data: body, headers: { 'x-csrf-token': csrfToken } });
      assert.ok(reply.status() < 300, `${person}: ${method} ${path}: ${reply.status()} ${await reply.text()}`);
      return await reply.json();
    } finally {
      await context.close();
    }
  }

  async function typeCell(page: Page, row: number, column: number, text: string) {
    await gridCell(page, row, column).click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  /** The discount POST /rule/solve answers for a gold member of 30 (row 1 of the pricing table). */
  async function goldDiscount(ruleId: string): Promise<string> {
    const solved = await suite.studio.server.solve(`/rule/solve/${ruleId}`, { data: { customer: { tier: 'gold', age: 30 } } });
    assert.equal(solved.status, 200, solved.text);
    return String(solved.json[0].discount);
  }

  test('sign in with user name and password: a wrong password is refused, the header names the person and role, sign out ends the session', async () => {
    const { page, assertClean, close } = await suite.studio.open();
    await withFailureShot(page, 'teams-sign-in', async () => {
      await page.getByLabel('User name').waitFor();
      assert.equal(await page.getByLabel('Management key', { exact: true }).count(), 0, 'the key form is secondary: closed at first');
      await page.getByRole('button', { name: 'Sign in with a management key' }).waitFor();
      await screenshot(page, 'sign-in');
      await page.getByLabel('User name').fill('eddie');
      await page.getByLabel('Password').fill('not-his-password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('alert').getByText('Wrong username or password').waitFor();

      await signInAs(page, 'eddie', PEOPLE.eddie.password);
      await page.getByLabel('Signed in as eddie, editor of ', { exact: false }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('User name').waitFor();
      await page.reload();
      await page.getByLabel('User name').waitFor();
      assertClean([401]);
    });
    await close();
  });

  test('a session that ends returns to the sign-in page with the reason; the unsaved draft is offered back after signing in again', async () => {
    const rule = await api('POST', '/api/rule', pricingTable('Session draft table', { status: 'pending' }));
    const { page, context, assertClean, close } = await as('eddie', `#/rules/${rule.ruleId}/1`);
    await withFailureShot(page, 'teams-session-ended', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await typeCell(page, 1, 2, '33');
      await page.getByText(/Kept in this browser/).waitFor();
      await context.clearCookies();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('alert').getByText('Your session ended; sign in again.').waitFor();
      // Signing in again lands on the same rule page, which offers the draft back.
      await page.getByLabel('User name').fill('eddie');
      await page.getByLabel('Password').fill(PEOPLE.eddie.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: 'Restore draft' }).click();
      await gridCell(page, 1, 2).getByText('33').waitFor();
      assertClean([401]);
    });
    await close();
  });

  test('a viewer sees what the role cannot do: Publish and Save disabled with the reason, the members page refused', async () => {
    const rule = await api('POST', '/api/rule', pricingTable('Viewer table', { status: 'pending' }));
    const { page, assertClean, close } = await as('vera', `#/rules/${rule.ruleId}/1`);
    await withFailureShot(page, 'teams-viewer', async () => {
      const publish = page.getByRole('button', { name: 'Publish' });
      await publish.waitFor();
      assert.ok(await publish.isDisabled(), 'Publish is disabled, not hidden');
      assert.equal(await accessibleDescription(publish), 'Your role viewer cannot publish');
      const save = page.getByRole('button', { name: 'Save', exact: true });
      assert.ok(await save.isDisabled());
      assert.equal(await accessibleDescription(save), 'Your role viewer cannot edit rules');
      await publish.hover();
      await screenshot(page, 'viewer-rule');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
      await page.getByRole('alert').getByText(/Your role viewer cannot open the members of the space/).waitFor();
      assertClean();
    });
    await close();
  });

  test('members: an admin adds a member (the one-time password shown once), changes the role, removes them', async () => {
    const { page, assertClean, close } = await suite.signedIn('#/members');
    await withFailureShot(page, 'teams-members', async () => {
      const members = page.getByRole('table', { name: 'Members' });
      await members.getByRole('button', { name: 'Remove petra' }).waitFor();
      await page.getByRole('button', { name: 'Add member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add member' });
      await dialog.getByLabel('User name').fill('nina');
      await dialog.getByRole('radio', { name: /^editor/ }).check();
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      const added = page.getByRole('dialog', { name: 'Member added' });
      const password = await added.getByLabel('One-time password').inputValue();
      assert.ok(password.length >= 8, 'a one-time password is shown');
      await screenshot(page, 'members-added');
      await added.getByRole('button', { name: 'Copy' }).click();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), password);
      await added.getByRole('button', { name: 'Done' }).click();
      await screenshot(page, 'members');
      const nina = (await api('GET', '/api/space/members')).find((m: any) => m.user.username === 'nina');
      assert.equal(nina?.role, 'editor');

      // The one-time password signs nina in (another browser).
      const other = await suite.studio.open();
      await signInAs(other.page, 'nina', password);
      await other.close();

      await page.getByLabel('Role of nina').selectOption('viewer');
      await page.getByRole('status').filter({ hasText: 'nina is now viewer' }).waitFor();
      await page.getByRole('button', { name: 'Remove nina' }).click();
      await page.getByRole('dialog', { name: 'Remove member' }).getByRole('button', { name: 'Remove' }).click();
      await members.getByRole('button', { name: 'Remove nina' }).waitFor({ state: 'detached' });
      assert.equal((await api('GET', '/api/space/members')).some((m: any) => m.user.username === 'nina'), false);
      assertClean();
    });
    await close();
  });

  test('approvals: the editor requests review and cannot approve; a publisher approves and publishes; the solve answers the new version; approving one\'s own change is refused', async () => {
    const v1 = await api('POST', '/api/rule', pricingTable('Reviewed discounts'));
    assert.equal(await goldDiscount(v1.ruleId), '20');

    // The admin turns approvals on in the space settings.
    const admin = await suite.signedIn('#/overview');
    await admin.page.getByRole('checkbox', { name: /Require approval before publishing/ }).check();
    await admin.page.getByRole('status').filter({ hasText: 'Publishing now needs an approval' }).waitFor();
    assert.equal((await api('GET', '/api/space/settings')).approvals, true);
    await admin.close();

    const editor = await as('eddie', `#/rules/${v1.ruleId}/1`);
    await withFailureShot(editor.page, 'teams-approvals-editor', async () => {
      const { page } = editor;
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await typeCell(page, 1, 2, '25');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('dialog', { name: 'This version is live' }).getByRole('button', { name: 'Save as new version (pending)' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved as v2 (pending)' }).waitFor();
      const review = page.getByRole('region', { name: 'Review' });
      await review.getByText('Not reviewed yet').waitFor();
      const publish = page.getByRole('button', { name: 'Publish' });
      assert.ok(await publish.isDisabled());
      assert.equal(await accessibleDescription(publish), 'Your role editor cannot publish');
      await review.getByRole('button', { name: 'Request review' }).click();
      const dialog = page.getByRole('dialog', { name: 'Request review' });
      await dialog.getByLabel('Comment').fill('Gold members get 25%');
      await dialog.getByRole('button', { name: 'Request review' }).click();
      await review.getByText('Review requested by eddie').waitFor();
      await screenshot(page, 'review-requested');
      const decide = review.getByRole('button', { name: 'Review changes' });
      assert.ok(await decide.isDisabled(), 'an editor cannot approve');
      assert.equal(await accessibleDescription(decide), 'Your role editor cannot approve or reject');
      editor.assertClean();
    });

    const publisher = await as('petra', `#/rules/${v1.ruleId}/2`);
    await withFailureShot(publisher.page, 'teams-approvals-publisher', async () => {
      const { page } = publisher;
      const review = page.getByRole('region', { name: 'Review' });
      await review.getByText('Review requested by eddie').waitFor();
      const publish = page.getByRole('button', { name: 'Publish' });
      assert.ok(await publish.isDisabled(), 'Publish waits for the approval');
      assert.match(await accessibleDescription(publish), /needs an approval of its current content before it can be published \(review: requested\)/);
      await review.getByRole('button', { name: 'Review changes' }).click();
      const dialog = page.getByRole('dialog', { name: 'Review Reviewed discounts v2' });
      await dialog.getByText('Live (v1)').waitFor();
      await dialog.getByText('For review (v2)').waitFor();
      await screenshot(page, 'review');
      await dialog.getByLabel('Comment').fill('Agreed with sales');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await review.getByText('Approved by petra').waitFor();
      await publish.click();
      await page.getByRole('status').filter({ hasText: 'Published v2' }).waitFor();
      assert.equal(await goldDiscount(v1.ruleId), '25', 'the solve answers the approved version');

      // Petra's own change: her approval is refused, in the server's words.
      await page.getByRole('button', { name: 'New version' }).click();
      await page.getByRole('status').filter({ hasText: 'New version created' }).waitFor();
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await typeCell(page, 1, 2, '27');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved Reviewed discounts v3' }).waitFor();
      await review.getByRole('button', { name: 'Request review' }).click();
      await page.getByRole('dialog', { name: 'Request review' }).getByRole('button', { name: 'Request review' }).click();
      await review.getByRole('button', { name: 'Review changes' }).click();
      const own = page.getByRole('dialog', { name: 'Review Reviewed discounts v3' });
      await own.getByRole('button', { name: 'Approve' }).click();
      await own.getByRole('alert').getByText(/You \(petra\) were the last to edit version 3 .*another user must approve it/).waitFor();
      assert.equal((await api('GET', `/api/rule/review/${v1.ruleId}/3`)).state, 'requested', 'the refused approval changed nothing');
      await screenshot(page, 'review-own-approval');
      // The content changes while the dialog is open: a decision is about what the reviewer saw, so it is refused.
      const v3 = await api('GET', `/api/rule/${v1.ruleId}/3`);
      await api('PUT', `/api/rule/${v1.ruleId}/3`, { ...v3, description: 'changed while under review' });
      await own.getByRole('button', { name: 'Approve' }).click();
      await own.getByRole('alert').getByText(/version 3 was changed since you read it/).waitFor();
      assert.equal((await api('GET', `/api/rule/review/${v1.ruleId}/3`)).state, 'requested', 'nothing was approved unseen');
      publisher.assertClean([409, 412]);
    });
    await editor.close();
    await publisher.close();
  });

  test('a role taken away while signed in: the server refuses the save with its 403 message, shown, and the draft is kept', async () => {
    const rule = await api('POST', '/api/rule', pricingTable('Demoted table', { status: 'pending' }));
    const { page, assertClean, close } = await as('eddie', `#/rules/${rule.ruleId}/1`);
    await withFailureShot(page, 'teams-demoted', async () => {
      await page.getByRole('grid', { name: 'Decision table' }).waitFor();
      await typeCell(page, 1, 2, '44');
      await api('PUT', '/api/space/members/eddie', { role: 'viewer' });
      try {
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.getByRole('alert').getByText(/Not saved: Your role viewer in space .* does not allow/).waitFor();
        await page.getByText('unsaved draft').waitFor();
        assert.equal((await api('GET', `/api/rule/${rule.ruleId}/1`)).decisionTable.rows[0].cells[2].outputScalarValue.value, '20');
      } finally {
        await api('PUT', '/api/space/members/eddie', { role: 'editor' });
      }
      assertClean([403]);
    });
    await close();
  });

  test('a member of two spaces switches between them: each space shows its own rules and the role held there', async () => {
    const { server } = suite.studio;
    const other = await server.running.services.spaces.create('zz-second-space');
    const otherApi = (method: string, path: string, body?: unknown) => server.call(method, path, { key: other.managementKey, body });
    assert.equal((await otherApi('POST', '/api/space/members', { username: 'eddie', role: 'viewer' })).status, 201);
    assert.equal((await otherApi('POST', '/api/rule', pricingTable('Second space table'))).status, 200);
    const { page, assertClean, close } = await as('eddie');
    await withFailureShot(page, 'teams-spaces', async () => {
      const rules = page.getByRole('table', { name: 'Rules' });
      const space = page.getByLabel('Space', { exact: true });
      assert.equal(await space.inputValue(), server.space.space, 'the first space by name');
      await page.getByLabel(`Signed in as eddie, editor of ${server.space.space}`).waitFor();
      await rules.getByRole('link', { name: 'Viewer table' }).waitFor();
      await space.selectOption('zz-second-space');
      await rules.getByRole('link', { name: 'Second space table' }).waitFor();
      assert.equal(await rules.getByRole('link', { name: 'Viewer table' }).count(), 0, 'the other space\'s rules are gone');
      await page.getByLabel('Signed in as eddie, viewer of zz-second-space').waitFor();
      assert.ok(await page.getByRole('button', { name: 'New rule' }).isDisabled(), 'a viewer there');
      await screenshot(page, 'space-switcher');
      await page.reload();
      await rules.getByRole('link', { name: 'Second space table' }).waitFor();
      assertClean();
    });
    await close();
  });

  test('activity: the actions with their actors, filtered by actor, newest first', async () => {
    await actAs('eddie', 'POST', '/api/rule', pricingTable('Eddie\'s table', { status: 'pending' }));
    await actAs('petra', 'POST', '/api/rule', pricingTable('Petra\'s table', { status: 'pending' }));
    const { page, assertClean, close } = await suite.signedIn('#/activity');
    await withFailureShot(page, 'teams-activity', async () => {
      const table = page.getByRole('table', { name: 'Activity' });
      await table.getByRole('cell', { name: /^eddie/ }).first().waitFor();
      await table.getByRole('cell', { name: /^petra/ }).first().waitFor();
      const newest = table.getByRole('row').nth(1);
      assert.deepEqual([await newest.getByRole('cell').nth(1).innerText(), await newest.getByRole('cell').nth(2).innerText()], ['petra user', 'rule.created'], 'newest first');
      await newest.getByRole('link', { name: /Petra's table/ }).waitFor();
      await screenshot(page, 'activity');
      await page.getByLabel('Actor').fill('eddie');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await table.getByRole('cell', { name: /^petra/ }).first().waitFor({ state: 'detached' });
      // The table is replaced while the filtered page loads: read its rows once the new page is in.
      await table.getByRole('cell', { name: /^eddie/ }).first().waitFor();
      const rows = (await table.getByRole('row').all()).slice(1);
      const actors = await Promise.all(rows.map((row) => row.getByRole('cell').nth(1).innerText()));
      assert.ok(actors.length > 0 && actors.every((a) => a.startsWith('eddie')), `only eddie's actions: ${actors.join(', ')}`);
      assertClean();
    });
    await close();
  });
});
