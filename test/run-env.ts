// Environment variables by which the suite runner (scripts/test-suite.ts) tells the run's global setup
// (test/global-setup.ts) what the run needs. Its own module so the runner loads nothing else of the setup's.

/** 'false' when the run's files include no Studio suite: no Studio build and no shared Chromium. */
export const STUDIO_RUN_ENV = 'VERDICT_TEST_STUDIO';

/** 'true' when the run's files include a suite that needs the test Keycloak: the setup starts it in the background. */
export const KEYCLOAK_RUN_ENV = 'VERDICT_TEST_KEYCLOAK';

/** Test files that use the test Keycloak (test/support/keycloak.ts); a run including one starts it early. */
export const KEYCLOAK_SUITES = /machine-tokens|oidc|sso|keycloak/;
