// The Studio's Content-Security-Policy in Chromium (issue 32 item 8, docs/decisions/browser-hardening.md): the page
// arrives with the strict policy and its own nonce; the parts that create style elements at run time (CodeMirror's
// script editor, the analysis marks) work under it without a violation; and the browser enforces it: an injected
// inline style or script is refused, and the harness reports each refusal (so every Studio suite fails on a
// violation it causes, StudioSuite's afterEach). (eval cannot be tried from here: code Playwright evaluates is
// exempt; the header test proves script-src has no 'unsafe-eval'.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { script } from '../support/rule-builders.ts';
import { chromiumSkip, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { pricingTable } from './tables.ts';

const skip = chromiumSkip();

describe('the Studio under its Content-Security-Policy', { skip }, () => {
  const suite = new StudioSuite();
  const { api } = suite;

  test('the page has the strict policy with a nonce; the script editor and the analysis tab run without a violation', async () => {
    const table = await api('POST', '/api/rule', pricingTable('Membership discount', { ruleAlias: 'csp-table' }));
    await api('POST', '/api/rule', script('csp-script', 'csp-script', 'output.result = input.value;\nreturn output;'));
    const { page, assertClean, close } = await suite.signedIn();
    try {
      await withFailureShot(page, 'csp-editors', async () => {
        const response = await page.reload();
        const csp = (await response!.allHeaders())['content-security-policy'] ?? '';
        assert.match(csp, /^default-src 'self'; script-src 'self'; style-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/);
        await page.getByRole('navigation', { name: 'Main' }).waitFor();

        await page.goto(`${suite.studio.studioUrl}#/rules/csp-script`);
        const editor = page.getByRole('textbox', { name: 'Script' });
        await editor.waitFor();
        await editor.click();
        await page.keyboard.press('End');
        await page.keyboard.insertText('\n// edited under the policy');
        // CodeMirror's theme is a style element carrying the page's nonce; without it the editor would be unstyled.
        const styled = await page.evaluate(`[...document.querySelectorAll('style')].filter((s) => s.nonce !== '' && s.textContent.includes('.cm-')).length`);
        assert.ok(Number(styled) >= 1, 'the editor theme is applied through a nonce-bearing style element');
        await screenshot(page, 'csp-script-editor');

        await page.goto(`${suite.studio.studioUrl}#/rules/${table.ruleId}`);
        await page.getByRole('tab', { name: 'Analysis' }).click();
        await page.getByRole('region', { name: 'Analysis' }).and(page.locator('[aria-busy="false"]')).waitFor();
      });
      assert.deepEqual(suite.studio.takeViolations(), []);
      assertClean();
    } finally {
      await close();
    }
  });

  test('the browser refuses an injected inline style and inline script, and the harness reports each', async () => {
    const { page, close } = await suite.signedIn();
    try {
      const outcome = await page.evaluate(`(async () => {
        const style = document.createElement('style');
        style.textContent = 'body { background-color: rgb(255, 0, 0) !important; }';
        document.head.append(style);
        const inline = document.createElement('script');
        inline.textContent = 'window.__injected = true;';
        document.body.append(inline);
        await new Promise((resolve) => setTimeout(resolve, 0));
        return { background: getComputedStyle(document.body).backgroundColor, injected: window.__injected === true };
      })()`) as { background: string; injected: boolean };
      assert.notEqual(outcome.background, 'rgb(255, 0, 0)', 'the injected style is not applied');
      assert.equal(outcome.injected, false, 'the injected script did not run');
      // The reports arrive asynchronously (an event, then a binding call): poll until both kinds are in.
      const seen: string[] = [];
      for (let i = 0; i < 400 && !['style-src', 'script-src'].every((k) => seen.join('\n').includes(k)); i++) {
        seen.push(...suite.studio.takeViolations());
        await page.waitForTimeout(25);
      }
      const text = seen.join('\n');
      assert.match(text, /style-src/, text);
      assert.match(text, /script-src/, text);
    } finally {
      await close();
    }
  });

  test('the API docs pages (swagger-ui) render under the same policy without a violation', async () => {
    const { page, assertClean, close } = await suite.studio.open('', { navigate: false });
    try {
      for (const docs of ['/api/docs/', '/api/solver/docs/']) {
        await withFailureShot(page, 'csp-api-docs', async () => {
          const response = await page.goto(`${suite.studio.server.url}${docs}`);
          assert.match((await response!.allHeaders())['content-security-policy'] ?? '', /^default-src 'self'; script-src 'self'; style-src 'self' 'sha256-[A-Za-z0-9+/=]+';/);
          // An operation of the document, rendered by swagger-ui's scripts (nothing shows if they were refused).
          await page.getByText(docs === '/api/docs/' ? '/api/rule/{idOrAlias}' : '/rule/solve/{ruleIdOrAlias}', { exact: true }).first().waitFor();
        });
        if (docs === '/api/docs/') await screenshot(page, 'csp-api-docs');
      }
      assert.deepEqual(suite.studio.takeViolations(), []);
      assertClean();
    } finally {
      await close();
    }
  });
});
