// TOKEN_ISSUERS and OIDC_PROVIDERS: parsed with their defaults, and every mistake stops start-up with one line
// naming the variable, the entry and the field. Also how a provider's claim values become roles per space.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { grantsOf } from '../../src/service/sso.ts';

const issuer = { issuer: 'https://idp.example.test/realms/acme', audience: 'verdict-api' };
const provider = {
  id: 'company',
  name: 'Company login',
  issuer: 'https://idp.example.test/realms/acme',
  clientId: 'verdict',
  roles: { editors: { space: 'default', role: 'editor' } },
};

function refusal(variable: string, value: unknown): string {
  try {
    loadConfig({ [variable]: typeof value === 'string' ? value : JSON.stringify(value) });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.variable, variable);
    return error.message;
  }
  assert.fail(`${variable} ${JSON.stringify(value)} was accepted`);
}

test('none configured by default', () => {
  const config = loadConfig({});
  assert.deepEqual(config.tokenIssuers, []);
  assert.deepEqual(config.oidcProviders, []);
});

test('a token issuer gets the default claims and skew; its JWKS defaults to discovery', () => {
  const [parsed] = loadConfig({ TOKEN_ISSUERS: JSON.stringify([issuer]) }).tokenIssuers;
  assert.deepEqual(parsed, { ...issuer, jwksUri: undefined, spaceClaim: 'verdict_space', roleClaim: 'verdict_role', clockSkewSeconds: 30 });
});

test('a provider gets the groups claim by default; no secret is a public client', () => {
  const [parsed] = loadConfig({ OIDC_PROVIDERS: JSON.stringify([provider]) }).oidcProviders;
  assert.deepEqual(parsed, { ...provider, clientSecret: undefined, roleClaim: 'groups', redirectUri: undefined });
});

test('mistakes name the variable, the entry and the field', () => {
  assert.match(refusal('TOKEN_ISSUERS', '[{'), /^Invalid configuration: TOKEN_ISSUERS is not valid JSON/);
  assert.equal(refusal('TOKEN_ISSUERS', { issuer: 'x' }), 'Invalid configuration: TOKEN_ISSUERS is invalid: Invalid input: expected array, received object');
  assert.equal(refusal('TOKEN_ISSUERS', [issuer, { issuer: 'ftp://idp', audience: 'a' }]), 'Invalid configuration: TOKEN_ISSUERS is invalid: [1].issuer: must be an http or https URL');
  assert.equal(refusal('TOKEN_ISSUERS', [{ issuer: issuer.issuer }]), 'Invalid configuration: TOKEN_ISSUERS is invalid: [0].audience: Invalid input: expected string, received undefined');
  assert.equal(refusal('TOKEN_ISSUERS', [{ ...issuer, clockSkewSeconds: 3600 }]), 'Invalid configuration: TOKEN_ISSUERS is invalid: [0].clockSkewSeconds: Too big: expected number to be <=300');
  assert.equal(refusal('TOKEN_ISSUERS', [{ ...issuer, audiense: 'typo' }]), 'Invalid configuration: TOKEN_ISSUERS is invalid: [0]: Unrecognized key: "audiense"');
  assert.equal(refusal('TOKEN_ISSUERS', [issuer, issuer]), `Invalid configuration: TOKEN_ISSUERS names issuer ${issuer.issuer} twice`);
  assert.equal(
    refusal('OIDC_PROVIDERS', [{ ...provider, roles: { editors: { space: 'default', role: 'owner' } } }]),
    'Invalid configuration: OIDC_PROVIDERS is invalid: [0].roles.editors.role: must be one of viewer, editor, publisher, admin',
  );
  assert.equal(refusal('OIDC_PROVIDERS', [{ ...provider, id: 'Has Spaces' }]), 'Invalid configuration: OIDC_PROVIDERS is invalid: [0].id: must be 1-40 lower-case letters, digits or dashes');
  assert.equal(refusal('OIDC_PROVIDERS', [provider, provider]), 'Invalid configuration: OIDC_PROVIDERS names provider id company twice');
});

test('claim values grant roles per space, the highest per space; unknown values and non-strings grant nothing', () => {
  const [config] = loadConfig({
    OIDC_PROVIDERS: JSON.stringify([
      {
        ...provider,
        roles: {
          viewers: { space: 'default', role: 'viewer' },
          publishers: { space: 'default', role: 'publisher' },
          'risk-editors': { space: 'risk', role: 'editor' },
        },
      },
    ]),
  }).oidcProviders;
  assert.deepEqual(grantsOf(config!, ['viewers', '/publishers', 'risk-editors', 'strangers', 42]), [
    { space: 'default', role: 'publisher' },
    { space: 'risk', role: 'editor' },
  ]);
  assert.deepEqual(grantsOf(config!, 'viewers'), [{ space: 'default', role: 'viewer' }]);
  assert.deepEqual(grantsOf(config!, undefined), []);
});
