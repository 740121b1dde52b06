// Aliases chosen by the user, in Chromium (docs/decisions/aliases-chosen-by-users.md): New rule proposes the
// name's slug and checks the alias as it is typed, the rule page changes it (solving follows at once), and the
// rule list tells apart rules that share a name by their aliases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chromiumSkip, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

describe('rule aliases in the Studio', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  test('New rule prefills the alias from the name; the created rule has exactly that alias', async () => {
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'alias-new-rule', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule name').fill('Discount tier');
      assert.equal(await dialog.getByLabel('Alias').inputValue(), 'discount-tier');
      await screenshot(page, 'new-rule-alias');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('heading', { name: 'Discount tier', level: 1 }).waitFor();
      const created = await api('GET', '/api/rule/discount-tier');
      assert.equal(created.ruleAlias, 'discount-tier');
      assert.equal(created.name, 'Discount tier');
    });
    assertClean();
    await close();
  });

  test('an alias another rule has is named as it is typed and Create is disabled; a taken prefill gets -2', async () => {
    await api('POST', '/api/rule', { ...pricingTable('Tier owner'), ruleAlias: 'tier-owner' });
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'alias-clash', async () => {
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule name').fill('Another tier');
      await dialog.getByLabel('Alias').fill('tier-owner');
      const clash = dialog.getByRole('alert');
      await clash.waitFor();
      assert.equal(await clash.innerText(), '“tier-owner” is already the alias of the rule “Tier owner”. Choose another alias.');
      assert.equal(await dialog.getByRole('button', { name: 'Create', exact: true }).isDisabled(), true);
      await screenshot(page, 'new-rule-alias-clash');
      await dialog.getByLabel('Alias').fill('has space');
      assert.match(await dialog.getByRole('alert').innerText(), /letters, digits and "-"/);
      await dialog.getByLabel('Alias').fill('another-tier');
      await clash.waitFor({ state: 'detached' });
      assert.equal(await dialog.getByRole('button', { name: 'Create', exact: true }).isDisabled(), false);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // A name whose slug is taken (not typed as an alias) is no error: the dialog proposes the next free one.
      await page.getByRole('button', { name: 'New rule' }).click();
      await dialog.getByLabel('Rule name').fill('Tier owner');
      await dialog.getByText(/“tier-owner” is already the alias of the rule “Tier owner”, so this one gets “tier-owner-2”/).waitFor();
      assert.equal(await dialog.getByLabel('Alias').inputValue(), 'tier-owner-2');
    });
    assertClean();
    await close();
  });

  test('Change alias on the rule page: solving answers under the new alias at once, the old one is unknown', async () => {
    const made = await api('POST', '/api/rule', { ...pricingTable('Loyalty rate'), ruleAlias: 'loyalty-rate' });
    const solve = (alias: string) => suite.studio.server.solve(`/rule/solve/${alias}`, { data: { customer: { tier: 'gold', age: 30 } } });
    assert.equal((await solve('loyalty-rate')).status, 200);
    const { page, assertClean, close } = await suite.signedIn(`#/rules/${made.ruleId}/1`);
    await withFailureShot(page, 'alias-change', async () => {
      await page.getByRole('heading', { name: 'Loyalty rate', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Change alias (loyalty-rate)' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change alias' });
      await dialog.getByLabel('Alias').fill('tier-owner');
      assert.match(await dialog.getByRole('alert').innerText(), /already the alias of the rule “Tier owner”/);
      await dialog.getByLabel('Alias').fill('loyalty-rate-eu');
      await screenshot(page, 'change-alias');
      await dialog.getByRole('button', { name: 'Change alias' }).click();
      await page.getByText('Alias changed to loyalty-rate-eu').waitFor();
      await page.getByRole('button', { name: 'Change alias (loyalty-rate-eu)' }).waitFor();
      await screenshot(page, 'rule-page-alias');
    });
    assert.equal((await solve('loyalty-rate-eu')).status, 200);
    assert.equal((await solve('loyalty-rate')).status, 400, 'the old alias is an unknown rule');
    assertClean();
    await close();
  });

  test('the rule list tells two rules with the same name apart by their aliases', async () => {
    await api('POST', '/api/rule', pricingTable('Sample Rule Flow'));
    await api('POST', '/api/rule', pricingTable('Sample Rule Flow'));
    const { page, assertClean, close } = await suite.signedIn();
    await withFailureShot(page, 'alias-list', async () => {
      const rules = page.getByRole('table', { name: 'Rules' });
      await rules.getByRole('link', { name: 'Sample Rule Flow (sample-rule-flow)', exact: true }).waitFor();
      await rules.getByRole('link', { name: 'Sample Rule Flow (sample-rule-flow-2)', exact: true }).waitFor();
      await rules.getByRole('button', { name: 'Delete Sample Rule Flow (sample-rule-flow-2)' }).waitFor();
      await rules.getByRole('link', { name: 'Loyalty rate', exact: true }).waitFor();
      await screenshot(page, 'rule-list-aliases');
    });
    assertClean();
    await close();
  });
});
