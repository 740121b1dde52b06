// The Studio's end-to-end harness: one real server (startServer over a fresh SQLite database), one headless
// Debian Chromium driven by playwright-core, shared by every scenario of a file; each scenario gets its own
// browser context (fresh sessionStorage/localStorage) at 1280x800 and fails on any browser console error.
// Chromium is mandatory under CI=true; elsewhere a missing /usr/bin/chromium skips loudly.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
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

export interface StudioHarness {
  server: TestServer;
  browser: Browser;
  studioUrl: string;
  open(path?: string): Promise<StudioPage>;
  close(): Promise<void>;
}

/** `env`: further server settings (a scenario that waits for a time limit lowers RULE_TIMEOUT_MS). */
export async function startStudio(env: Record<string, string> = {}): Promise<StudioHarness> {
  ensureStudioBuilt();
  const backend: Backend = sqliteBackend();
  // The 10,000-row x 20-column table is about 25 MB of JSON: above the default body limit.
  const server = await startTestServer({ backend, env: { STUDIO_ENABLED: 'true', BODY_LIMIT_BYTES: String(64 * 1024 * 1024), ...env } });
  const browser = await launchChromium();
  const studioUrl = `${server.url}/studio/`;
  const pages: StudioPage[] = [];
  return {
    server,
    browser,
    studioUrl,
    async open(hash = '') {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const errors: string[] = [];
      const httpErrors: number[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const status = /^Failed to load resource: the server responded with a status of (\d+)/.exec(message.text());
        if (status) httpErrors.push(Number(status[1]));
        else errors.push(`console.error: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      await page.goto(`${studioUrl}${hash}`);
      const handle: StudioPage = {
        page, context, errors, httpErrors,
        close: () => context.close(),
        assertClean(expected = []) {
          assert.deepEqual(errors, [], 'no console error in the browser');
          const unexpected = httpErrors.filter((s) => !expected.includes(s));
          assert.deepEqual(unexpected, [], `no HTTP error other than ${expected.join(', ') || 'none'}`);
        },
      };
      pages.push(handle);
      return handle;
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
 * a management API caller with that key, and a fresh page signed in with it.
 */
export class StudioSuite {
  #studio: StudioHarness | undefined;

  /** `env`: as startStudio's. */
  constructor(env: Record<string, string> = {}) {
    before(async () => {
      this.#studio = await startStudio(env);
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

  /** A fresh page, signed in; `hash`: a Studio route to go to then (`#/rule/...`). */
  async signedIn(hash = ''): Promise<StudioPage> {
    const handle = await this.studio.open();
    await signIn(handle.page, this.key);
    if (hash) await handle.page.goto(`${this.studio.studioUrl}${hash}`);
    return handle;
  }
}
