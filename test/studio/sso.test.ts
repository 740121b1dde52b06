// Single sign-on in Chromium against the test Keycloak (issue 32, item 2): the person opens the sign-in URL, fills
// Keycloak's own form by its labels, lands on the Studio signed in, with the role their group grants; signs out.
// A person whose groups grant nothing is refused; a callback this browser did not start is refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { keycloak, keycloakSuite } from '../support/keycloak.ts';
import { chromiumSkip, screenshot, startStudio, withFailureShot } from './support.ts';
import type { StudioHarness } from './support.ts';

const chromium = chromiumSkip();
const { skip: keycloakSkip } = chromium ? { skip: false as const } : await keycloakSuite();
const skip = chromium || keycloakSkip;

const PROVIDERS = [
  {
    id: 'keycloak',
    name: 'Company login',
    issuer: keycloak.issuer,
    clientId: keycloak.clients.studio.id,
    clientSecret: keycloak.clients.studio.secret,
    roleClaim: 'groups',
    // vera's group (verdict-viewers) is deliberately not mapped: she is the person with no role.
    roles: { 'verdict-editors': { space: 'default', role: 'editor' }, 'verdict-publishers': { space: 'default', role: 'publisher' } },
  },
];

/** Keycloak's own sign-in page, filled as a person does. */
async function signInAtKeycloak(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** A call from the page, with its cookies, as the Studio makes it. */
function fromPage(page: Page, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([m, p, h]) => {
      const response = await fetch(p, { method: m, headers: h });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
    [method, path, headers] as const,
  );
}

describe('single sign-on with OpenID Connect (Keycloak)', { skip }, () => {
  let studio: StudioHarness;
  before(async () => {
    if (skip) return;
    studio = await startStudio({ OIDC_PROVIDERS: JSON.stringify(PROVIDERS) });
    assert.equal(studio.server.space.space, 'default');
  });
  after(async () => {
    await studio?.close();
  });

  test('the sign-in settings list the provider', async () => {
    const reply = await studio.server.call('GET', '/api/auth/config');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json.sso, [{ id: 'keycloak', name: 'Company login' }]);
  });

  test("erin signs in at Keycloak, lands on the Studio as an editor (her group), and signs out", async () => {
    const { page, close } = await studio.open('', { navigate: false });
    await withFailureShot(page, 'sso-erin', async () => {
      await page.goto(`${studio.server.url}/api/auth/oidc/keycloak/login`);
      assert.equal(new URL(page.url()).origin, keycloak.baseUrl, 'the browser is at Keycloak');
      const authorize = new URL(page.url());
      await page.getByLabel('Username or email').fill('erin');
      await screenshot(page, 'sso-keycloak-sign-in');
      await signInAtKeycloak(page, 'erin', keycloak.users.erin);
      await page.waitForURL(`${studio.studioUrl}**`);
      assert.ok(authorize.searchParams.get('code_challenge'), 'PKCE challenge sent');
      const cookies = await page.context().cookies(studio.server.url);
      const session = cookies.find((cookie) => cookie.name === 'verdict_session');
      assert.ok(session, 'session cookie set');
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Lax');
      assert.equal(cookies.find((cookie) => cookie.name === 'verdict_oidc'), undefined, 'the pending sign-in cookie is gone');

      const me = await fromPage(page, 'GET', '/api/auth/me');
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal(me.body.user.username, 'erin');
      assert.equal(me.body.user.source, 'oidc');
      assert.equal(me.body.user.displayName, 'Erin Editor');
      assert.deepEqual(me.body.spaces.map((s: { space: string; role: string }) => [s.space, s.role]), [['default', 'editor']]);
      assert.equal(me.body.actor.kind, 'user');
      // The Studio page itself does not know sessions yet (the Studio helper's sign-in work): what it shows is not
      // asserted here, only that the browser landed on it with a working session.
      await screenshot(page, 'sso-landed-on-studio');

      const out = await fromPage(page, 'POST', '/api/auth/logout', { 'X-CSRF-Token': me.body.csrfToken });
      assert.equal(out.status, 204);
      assert.equal((await fromPage(page, 'GET', '/api/auth/me')).status, 401, 'signed out');
    });
    await close();
  });

  test('paul gets publisher from his group; signing in again keeps one user', async () => {
    for (let round = 0; round < 2; round++) {
      const { page, close } = await studio.open('', { navigate: false });
      await page.goto(`${studio.server.url}/api/auth/oidc/keycloak/login`);
      await signInAtKeycloak(page, 'paul', keycloak.users.paul);
      await page.waitForURL(`${studio.studioUrl}**`);
      const me = await fromPage(page, 'GET', '/api/auth/me');
      assert.equal(me.body.user.username, 'paul');
      assert.deepEqual(me.body.spaces.map((s: { space: string; role: string }) => [s.space, s.role]), [['default', 'publisher']]);
      await close();
    }
    const members = await studio.server.call('GET', '/api/space/members', { key: studio.server.space.managementKey });
    assert.equal(members.status, 200, members.text);
    const names = (members.json as Array<{ user: { username: string } }>).map((member) => member.user.username).filter((name) => name.startsWith('paul'));
    assert.deepEqual(names, ['paul'], 'one user for one Keycloak subject');
  });

  test('vera, whose group grants no role here, is refused and not made a member', async () => {
    const { page, close } = await studio.open('', { navigate: false });
    await page.goto(`${studio.server.url}/api/auth/oidc/keycloak/login`);
    await signInAtKeycloak(page, 'vera', keycloak.users.vera);
    // The browser lands on the Studio's sign-in page, which says why (and the address loses the reason).
    await page.waitForURL(`${studio.server.url}/studio/**`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.innerText();
    assert.match(text, /Single sign-on failed: vera signed in with Company login, but none of their groups grants a role in Verdict/);
    assert.doesNotMatch(text, /at \w+ \(|node_modules/);
    assert.equal(new URL(page.url()).search, '', 'the reason is not left in the address');
    await page.screenshot({ path: 'test-results/studio/sso-refused.png' });
    assert.equal((await fromPage(page, 'GET', '/api/auth/me')).status, 401);
    await close();
    const members = await studio.server.call('GET', '/api/space/members', { key: studio.server.space.managementKey });
    assert.equal(members.status, 200, members.text);
    assert.equal((members.json as Array<{ user: { username: string } }>).some((member) => member.user.username.startsWith('vera')), false);
  });

  test('a callback this browser did not start, or an unknown provider, is refused', async () => {
    const forged = await studio.server.call('GET', '/api/auth/oidc/keycloak/callback?code=stolen&state=guessed');
    assert.equal(forged.status, 401);
    assert.equal(forged.json.error.message, 'Sign-in with Company login was not started in this browser, or took longer than 10 minutes: start it again');
    assert.equal(forged.headers.get('set-cookie')?.includes('verdict_session=') ?? false, false, 'no session');
    const unknown = await studio.server.call('GET', '/api/auth/oidc/nope/login');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.message, 'No single sign-on provider with id "nope" is configured');
  });
});
