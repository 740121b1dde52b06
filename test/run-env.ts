// Environment variables by which the suite runner (scripts/test-suite.ts) tells the run's global setup
// (test/global-setup.ts) what the run needs. Its own module so the runner loads nothing else of the setup's.

/** 'false' when the run's files include no Studio suite: no Studio build and no shared Chromium. */
export const STUDIO_RUN_ENV = 'VERDICT_TEST_STUDIO';
