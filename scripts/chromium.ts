// Debian's Chromium driven by playwright-core, launched the same way by the Studio's end-to-end tests and by the
// Studio benchmark: headless, no sandbox (containers), no background network traffic or component updates.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, BrowserServer } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

/**
 * Set by the test runner's global setup (test/global-setup.ts) to the WebSocket endpoint of one Chromium shared by
 * every test file of the run: launchChromium() then connects to it instead of starting a browser per file. Each
 * file still works in its own browser contexts, and closing the connected Browser only disconnects.
 */
export const SHARED_CHROMIUM_ENV = 'VERDICT_TEST_CHROMIUM_WS';

export function launchChromium(): Promise<Browser> {
  const shared = process.env[SHARED_CHROMIUM_ENV];
  if (shared) return chromium.connect(shared);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}

/** The shared Chromium of a test run (see SHARED_CHROMIUM_ENV). */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}
