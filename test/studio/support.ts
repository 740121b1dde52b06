// The Studio's end-to-end harness: one real server (startServer over a fresh SQLite database) per file, and a
// connection to headless Debian Chromium driven by playwright-core: the test run's one shared Chromium when the
// suite runner started one (scripts/chromium.ts, SHARED_CHROMIUM_ENV), else a browser of the file's own. Each
// scenario gets its own browser context (fresh sessionStorage/localStorage/IndexedDB) at 1280x800 and fails on any
// browser console error; every test of a StudioSuite fails on any Content-Security-Policy violation of its pages.
// Chromium is mandatory under CI=true (and when screenshots are asked for); elsewhere a missing /usr/bin/chromium
// skips loudly.
//
// Waits are for outcomes, never for time: each one's timeout only guards against a hang, so it is set far above
// what the step takes on a loaded two-core machine (see DEFAULT_TIMEOUT_MS and BIG_TIMEOUT_MS).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, chromiumInstalled, launchChromium } from '../../scripts/chromium.ts';
import { ensureStudioBuilt } from '../../scripts/studio-build.ts';
import { startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Overrides where screenshot() writes (relative to the repository root): `npm run docs:screenshots` sets docs/studio. */
export const SCREENSHOTS_ENV = 'VERDICT_SCREENSHOTS_DIR';
/**
 * Where screenshot() writes: an ignored folder by default, so that a test run never changes the tracked images in
 * docs/studio; refreshing those is its own command (`npm run docs:screenshots`).
 */
export const SCREENSHOTS = path.resolve(repoRoot, process.env[SCREENSHOTS_ENV]?.trim() || path.join('test-results', 'studio'));

/**
 * Timeout of every Playwright wait and action of a scenario. A step that takes under a second on an idle machine
 * can take ten times that at a load average of 8 on two cores (a page load parses the 1.4 MB Studio bundle);
 * 30 s only stops a scenario that hangs.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** For the steps over tens of thousands of rows (import, save, first render of a 10,000-row table): a hang guard. */
export const BIG_TIMEOUT_MS = 300_000;

/** node:test's `skip` value: false when Chromium is there; under CI=true a missing Chromium is an error. */
export function chromiumSkip(): string | false {
  if (chromiumInstalled()) return false;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is required when CI=true (.ci/run installs the chromium package)`);
  if (process.env[SCREENSHOTS_ENV]) throw new Error(`${CHROMIUM} is required to take the screenshots (${SCREENSHOTS_ENV} is set)`);
  console.warn(`\n*** ${CHROMIUM} not found: SKIPPING the Studio end-to-end tests (apt-get install chromium) ***\n`);
  return `${CHROMIUM} not found`;
}

export interface StudioPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far (not the browser's notes on HTTP error statuses). */
  errors: string[];
  /** HTTP error statuses the page received (Chromium logs each as "Failed to load resource"). */
  httpErrors: number[];
  /** Fails on any console error, and on any HTTP error status other than the ones the scenario provokes. */
  assertClean(expectedStatuses?: number[]): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Opens the page signed in with this management key, as the Studio keeps it (sessionStorage), without going
   * through the sign-in form: for scenarios about something else (the sign-in scenario proves the form). The key
   * is put back on each load of the tab, so such a page cannot test signing out.
   */
  key?: string;
  /** false: leave the new page on about:blank (the scenario navigates itself). */
  navigate?: boolean;
}

export interface StudioHarness {
  server: TestServer;
  browser: Browser;
  studioUrl: string;
  /** A page in a fresh browser context at `hash` (a Studio route, `#/rules/...`). */
  open(hash?: string, options?: OpenOptions): Promise<StudioPage>;
  /** The Content-Security-Policy violations of every page opened since the last call (StudioSuite: after each test). */
  takeViolations(): string[];
  close(): Promise<void>;
}

/**
 * Reports each `securitypolicyviolation` of a page to the harness (a string: the project's type check has no DOM
 * library). Chromium also logs each violation to the console; both are collected, so neither can slip by.
 */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => {
  globalThis.__verdictCspViolation(e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber);
});`;

/** Where the Studio keeps the management key (studio/src/drafts/storage.ts). */
const SESSION_KEY = 'verdict.studio.key';

/** `env`: further server settings (a scenario that waits for a time limit lowers RULE_TIMEOUT_MS). */
export async function startStudio(env: Record<string, string> = {}): Promise<StudioHarness> {
  ensureStudioBuilt();
  const backend: Backend = sqliteBackend();
  const server = await startTestServer({ backend, env: { STUDIO_ENABLED: 'true', ...env } });
  // Connected to the run's shared Chromium, close() below only disconnects (and closes this file's contexts).
  const browser = await launchChromium();
  const studioUrl = `${server.url}/studio/`;
  let violations: string[] = [];
  return {
    server,
    browser,
    studioUrl,
    takeViolations() {
      const taken = violations;
      violations = [];
      return taken;
    },
    async open(hash = '', options: OpenOptions = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await context.exposeBinding('__verdictCspViolation', (_source, report: string) => { violations.push(`securitypolicyviolation: ${report}`); });
      await context.addInitScript(REPORT_VIOLATIONS);
      context.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
      const page = await context.newPage();
      if (options.key !== undefined) {
        // Only in the Studio's origin: about:blank (which timeToFirstCell passes by) has no storage.
        await page.addInitScript(([origin, name, key]) => {
          const { location } = globalThis as unknown as { location: { origin: string } };
          if (location.origin === origin && sessionStorage.getItem(name) === null) sessionStorage.setItem(name, key);
        }, [new URL(server.url).origin, SESSION_KEY, options.key] as const);
      }
      const errors: string[] = [];
      const httpErrors: number[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
        if (message.type() !== 'error') return;
        const status = /^Failed to load resource: the server responded with a status of (\d+)/.exec(message.text());
        if (status) httpErrors.push(Number(status[1]));
        else errors.push(`console.error: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      if (options.navigate !== false) await page.goto(`${studioUrl}${hash}`);
      return {
        page, context, errors, httpErrors,
        close: () => context.close(),
        assertClean(expected = []) {
          assert.deepEqual(errors, [], 'no console error in the browser');
          const unexpected = httpErrors.filter((s) => !expected.includes(s));
          assert.deepEqual(unexpected, [], `no HTTP error other than ${expected.join(', ') || 'none'}`);
        },
      };
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.close();
      await backend.cleanup();
    },
  };
}

/** Runs a scenario's steps; on failure saves what the page showed (tmp dir) and names the file in the error. */
export async function withFailureShot(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    const file = path.join(os.tmpdir(), `verdict-studio-failure-${name}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    if (error instanceof Error) error.message += `\n(screenshot of the page: ${file})`;
    throw error;
  }
}

export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('Management key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
}

/** Saves the page as SCREENSHOTS/<name>.png (1280x800). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** The decision table's grid cell at a 1-based row and 0-based column, by roles only (row 0 is the header row). */
export function gridCell(page: Page, row: number, column: number) {
  return page.getByRole('grid', { name: 'Decision table' }).getByRole('row').nth(row).getByRole('gridcell').nth(column);
}

/** Replaces the whole text of the CodeMirror editor with the given accessible name, as a person would. */
export async function replaceEditorText(page: Page, label: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: label }).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Picks two versions in the rule page's Versions tab and opens their comparison. */
export async function compareVersions(page: Page, left: number, right: number): Promise<void> {
  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByLabel('Left version').selectOption(String(left));
  await page.getByLabel('Right version').selectOption(String(right));
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
}

/** A management API caller for the harness's space that fails the test on any status of 300 or more. */
export function managementApi(studio: StudioHarness, key: string): (method: string, path: string, body?: unknown) => Promise<any> {
  return async (method, path, body) => {
    const reply = await studio.server.call(method, path, { key, body });
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.json;
  };
}

/**
 * One server and browser for the describe block that makes it (its before/after hooks are registered here, so a
 * file's own `before` registered afterwards runs once the server is up): the harness, the space's management key,
 * a management API caller with that key, and fresh pages signed in with it.
 */
export class StudioSuite {
  #studio: StudioHarness | undefined;

  /** `env`: as startStudio's. */
  constructor(env: Record<string, string> = {}) {
    before(async () => {
      this.#studio = await startStudio(env);
    });
    // The test that caused a CSP violation fails, whether or not it checks its pages' console (assertClean).
    afterEach(() => {
      assert.deepEqual(this.#studio?.takeViolations() ?? [], [], 'no Content-Security-Policy violation in the browser');
    });
    after(async () => {
      await this.#studio?.close();
    });
  }

  get studio(): StudioHarness {
    assert.ok(this.#studio, 'the Studio suite is used before its server started');
    return this.#studio;
  }

  get key(): string {
    return this.studio.server.space.managementKey;
  }

  /** managementApi with the space's management key. */
  readonly api = (method: string, path: string, body?: unknown): Promise<any> => managementApi(this.studio, this.key)(method, path, body);

  /**
   * A fresh page at `hash` (a Studio route, `#/rules/...`), signed in with `key` (default: the space's management
   * key) without the sign-in form (see OpenOptions.key); the Studio's main navigation is on screen when this returns.
   */
  async signedIn(hash = '', key = this.key): Promise<StudioPage> {
    const handle = await this.studio.open(hash, { key });
    await handle.page.getByRole('navigation', { name: 'Main' }).waitFor();
    return handle;
  }
}

/**
 * Waits until the flow canvas is not busy (its first view, a refit or Fit View pending or animating) and its view
 * holds still (pan and zoom the same over five animation frames), so mouse coordinates read now stay valid.
 */
export async function viewAtRest(page: Page): Promise<void> {
  await page.getByRole('region', { name: /canvas$/ }).and(page.locator('[aria-busy="false"]')).waitFor();
  // A function, not a string: Playwright evaluates a string predicate with eval, which the Studio's CSP refuses.
  await page.waitForFunction(() => {
    const g = globalThis as any;
    const now = g.document.querySelector('.react-flow__viewport')?.style.transform;
    if (now === undefined || now !== g.__view) {
      g.__view = now;
      g.__viewFrames = 0;
      return false;
    }
    return ++g.__viewFrames >= 5;
  }, undefined, { polling: 'raf' });
}
