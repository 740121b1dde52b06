// What the whole test run shares, set up once before the first test file starts and torn down after the last
// (node --test --test-global-setup, from scripts/test-suite.ts):
//   - the Studio build, made here when missing or stale, so parallel Studio suites never race to build it;
//   - one Chromium, which every Studio suite connects to (launchChromium() reads SHARED_CHROMIUM_ENV) instead of
//     starting its own; each suite still works in fresh browser contexts;
//   - a hold on the development Kafka broker: the first Kafka suite starts it, and it keeps serving until the run
//     ends instead of being stopped and started again by each suite (scripts/kafka/broker.ts, leases);
//   - the test Keycloak (scripts/keycloak/server.ts), started in the background at once when the run includes an
//     identity suite, so its start (about 40 s) overlaps other suites; the suites wait for it through its lock.
// A run of files none of which is a Studio suite (scripts/test-suite.ts says so) gets no build and no browser. A file
// run alone (`node --test test/studio/lookup.test.ts`) has none of this and starts what it needs itself.
import type { BrowserServer } from 'playwright-core';
import { chromiumInstalled, launchChromiumServer, SHARED_CHROMIUM_ENV } from '../scripts/chromium.ts';
import { holdBrokerForRun, releaseBroker } from '../scripts/kafka/broker.ts';
import { ensureStudioBuilt } from '../scripts/studio-build.ts';
import { acquireKeycloak, keycloakAvailable, releaseKeycloak } from '../scripts/keycloak/server.ts';
import { KEYCLOAK_RUN_ENV, STUDIO_RUN_ENV } from './run-env.ts';

let chromium: BrowserServer | undefined;
let holdingBroker = false;
/** The background start of the test Keycloak; settled (never rejected) so the teardown can await it. */
let keycloakStart: Promise<boolean> | undefined;

export async function globalSetup(): Promise<void> {
  if (process.env[STUDIO_RUN_ENV] !== 'false') {
    ensureStudioBuilt();
    if (chromiumInstalled()) {
      chromium = await launchChromiumServer();
      process.env[SHARED_CHROMIUM_ENV] = chromium.wsEndpoint();
    }
  }
  if (!process.env.KAFKA_BROKERS?.trim()) {
    await holdBrokerForRun();
    holdingBroker = true;
  }
  if (process.env[KEYCLOAK_RUN_ENV] === 'true' && keycloakAvailable()) {
    // Not awaited: the identity suites wait for it themselves (acquireKeycloak takes the same lock). A failure
    // here is reported by those suites when their own acquire fails.
    keycloakStart = acquireKeycloak().then(
      () => true,
      (error: unknown) => {
        process.stderr.write(`global setup: the test Keycloak did not start: ${(error as Error).message}\n`);
        return false;
      },
    );
  }
}

export async function globalTeardown(): Promise<void> {
  await chromium?.close();
  if (holdingBroker) await releaseBroker();
  if (keycloakStart !== undefined && (await keycloakStart)) await releaseKeycloak();
}
