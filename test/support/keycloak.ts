// The test Keycloak for a test file: started when none runs (scripts/keycloak/server.ts; a test run's global setup
// usually started it already), released after the file's last test. Without Java 21+ (or Maven and no cached
// distribution) the identity suites skip loudly, except under CI=true where that is a failure.
import { after } from 'node:test';
import { acquireKeycloak, keycloak, keycloakAvailable, releaseKeycloak } from '../../scripts/keycloak/server.ts';

export { keycloak };

export interface KeycloakSuite {
  skip: string | false;
}

/** Call at top level of a test file, then pass `skip` to its describe/test. */
export async function keycloakSuite(): Promise<KeycloakSuite> {
  if (!keycloakAvailable()) {
    const reason = 'no Java 21+ (or no Maven to fetch Keycloak once), so the test Keycloak cannot start';
    if (process.env.CI === 'true') throw new Error(`The identity-provider tests are required when CI=true: ${reason}`);
    console.warn(`\n*** ${reason}: SKIPPING the identity-provider tests ***\n`);
    return { skip: reason };
  }
  await acquireKeycloak();
  after(() => releaseKeycloak());
  return { skip: false };
}

/** An access token from the realm's client-credentials grant for one of its clients. */
export async function clientCredentialsToken(client: { id: string; secret: string }): Promise<string> {
  const response = await fetch(`${keycloak.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret }),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (!response.ok || body.access_token === undefined) throw new Error(`token request for ${client.id} failed: ${response.status} ${body.error_description ?? ''}`);
  return body.access_token;
}
