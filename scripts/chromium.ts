// Debian's Chromium driven by playwright-core, launched the same way by the Studio's end-to-end tests and by the
// Studio benchmark: headless, no sandbox (containers), no background network traffic or component updates.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}
