// Machine tokens over real HTTP (issue 32, item 5): JWT access tokens from the test Keycloak's client-credentials
// grant solve and call the management API their role allows; every refused token is a 401 that says why, without
// internals. Expired, not-yet-valid, unsigned, HMAC-signed and unpublished-key tokens cannot be had from Keycloak
// on demand, so those are signed here with a local key pair served as a JWKS by a small HTTP server: a fault the
// real provider cannot be made to produce.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateKeyPair } from 'jose';
import type { JWTPayload } from 'jose';
import { asNew } from '../management/helpers.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { clientCredentialsToken, keycloak, keycloakSuite } from '../support/keycloak.ts';
import { nowSeconds as now, startLocalIssuer, unsignedToken as unsigned } from '../support/local-issuer.ts';
import type { LocalIssuer } from '../support/local-issuer.ts';
import { plantTable, PLANT_INPUT } from './fixtures.ts';
import { startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';

const { skip } = await keycloakSuite();

/** The reply is a 401 with exactly this message (or one matching it) and nothing else: no code, stack or library. */
function assertRefused(reply: Reply, message: string | RegExp): void {
  assert.equal(reply.status, 401, reply.text);
  assert.deepEqual(Object.keys(reply.json), ['error'], reply.text);
  assert.deepEqual(Object.keys(reply.json.error), ['message'], reply.text);
  if (typeof message === 'string') assert.equal(reply.json.error.message, message);
  else assert.match(reply.json.error.message, message);
  assert.doesNotMatch(reply.text, /ERR_|jose|JWS|\bat \w+ \(|node_modules/);
}

describe('machine tokens: JWT access tokens from configured issuers', { skip }, () => {
  let backend: Backend;
  let server: TestServer;
  let local: LocalIssuer;
  const claims = (overrides: JWTPayload = {}): JWTPayload => ({
    iss: local.issuer,
    aud: 'verdict-api',
    sub: 'robot-1',
    azp: 'nightly-import',
    iat: now(),
    exp: now() + 300,
    verdict_space: server.space.space,
    verdict_role: 'viewer',
    ...overrides,
  });
  const as = (token: string) => (method: string, path: string, body?: unknown) => server.call(method, path, body === undefined ? { key: token } : { key: token, body });

  before(async () => {
    if (skip) return;
    local = await startLocalIssuer();
    backend = sqliteBackend();
    server = await startTestServer({
      backend,
      env: {
        TOKEN_ISSUERS: JSON.stringify([
          { issuer: keycloak.issuer, audience: keycloak.audience },
          { issuer: local.issuer, audience: 'verdict-api', jwksUri: local.jwksUri, spaceClaim: 'verdict_space', roleClaim: 'verdict_role', clockSkewSeconds: 5 },
          // Its keys cannot be fetched: a token naming it is answered, not hung or crashed.
          { issuer: 'http://127.0.0.1:9/down', audience: 'verdict-api', jwksUri: 'http://127.0.0.1:9/down/jwks' },
        ]),
      },
    });
    assert.equal(server.space.space, 'default', 'the Keycloak clients name space default');
    const created = await server.call('POST', '/api/rule', { key: server.space.managementKey, body: asNew(plantTable(), ['ruleId', 'ruleAlias']) });
    assert.equal(created.status, 200, created.text);
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
    await local?.close();
  });

  test("a token of Keycloak's client-credentials grant solves and edits as its role (editor) allows", async () => {
    const call = as(await clientCredentialsToken(keycloak.clients.machine));
    const solved = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, await clientCredentialsToken(keycloak.clients.machine));
    assert.equal(solved.status, 200, solved.text);
    assert.deepEqual(solved.json, [{ name: 'Monstera', price: 460 }, { name: 'Begonia', price: 590 }]);
    const listed = await call('GET', '/api/space/items');
    assert.equal(listed.status, 200, listed.text);
    const published = await call('POST', '/api/rule', asNew(plantTable({ name: 'Made by a machine' })));
    assert.equal(published.status, 403, 'an editor cannot publish');
    const created = await call('POST', '/api/rule', asNew(plantTable({ name: 'Made by a machine', status: 'pending' })));
    assert.equal(created.status, 200, created.text);
    const read = await call('GET', `/api/rule/${created.json.ruleId}/1`);
    assert.equal(read.status, 200, read.text);
    const activity = await server.call('GET', `/api/space/activity?rule=${created.json.ruleId}`, { key: server.space.managementKey });
    assert.equal(activity.status, 200, activity.text);
    const actors = (activity.json.items as Array<{ actor: { kind: string; id: string; name: string } }>).map((item) => item.actor);
    assert.ok(actors.length > 0, activity.text);
    for (const actor of actors) assert.deepEqual({ kind: actor.kind, name: actor.name, issuer: actor.id.split('|')[0] }, { kind: 'token', name: 'verdict-machine', issuer: keycloak.issuer });
  });

  test('an editor token is refused (403) what its role does not allow: the space keys, publishing', async () => {
    const call = as(await clientCredentialsToken(keycloak.clients.machine));
    const keys = await call('GET', '/api/space/keys');
    assert.equal(keys.status, 403, keys.text);
    assert.equal(keys.json.error.message, 'Your role editor in space default does not allow administering the space (members, API keys, Kafka, settings) (needs space:admin)');
  });

  test('a token with role solver solves and may do nothing else', async () => {
    const token = await clientCredentialsToken(keycloak.clients.solver);
    assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, token)).status, 200);
    const reply = await as(token)('GET', '/api/space/items');
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.json.error.message, 'Your role solver in space default does not allow reading rules (needs rules:read)');
  });

  test("a token for another audience is refused, naming the audience it lacks", async () => {
    const token = await clientCredentialsToken(keycloak.clients.otherAudience);
    assertRefused(await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, token), /^Token audience "other-api", "account" does not include "verdict-api"$/);
    assertRefused(await as(token)('GET', '/api/space/items'), /^Token audience .* does not include "verdict-api"$/);
  });

  test('a tampered Keycloak token (role raised to admin, signature kept) is refused', async () => {
    const [header, payload, signature] = (await clientCredentialsToken(keycloak.clients.machine)).split('.');
    const raised = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), verdict_role: 'admin' };
    const tampered = `${header}.${Buffer.from(JSON.stringify(raised)).toString('base64url')}.${signature}`;
    assertRefused(await as(tampered)('GET', '/api/space/items'), "Token signature does not verify against the issuer's keys");
  });

  test('a valid local token works; its role and space come from its claims', async () => {
    const token = await local.sign(claims());
    assert.equal((await as(token)('GET', '/api/space/items')).status, 200);
    assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, token)).status, 200);
  });

  test('expired, not yet valid, wrong issuer, unsigned, HMAC-signed and unknown-key tokens get 401 saying which', async () => {
    const signed = (overrides: JWTPayload) => local.sign(claims(overrides));
    const expiredAt = now() - 3600;
    assertRefused(await as(await signed({ exp: expiredAt, iat: expiredAt - 300 }))('GET', '/api/space/items'), `Token expired at ${new Date(expiredAt * 1000).toISOString()}`);
    const notBefore = now() + 3600;
    assertRefused(await as(await signed({ nbf: notBefore }))('GET', '/api/space/items'), `Token is not valid before ${new Date(notBefore * 1000).toISOString()}`);
    assertRefused(await as(await signed({ iss: 'https://idp.example.test/realms/other' }))('GET', '/api/space/items'), 'Token issuer "https://idp.example.test/realms/other" is not trusted by this server');
    assertRefused(await as(unsigned(claims({ verdict_role: 'admin' })))('GET', '/api/space/items'), 'Token is not signed (alg "none"); tokens must be signed by their issuer');
    assertRefused(await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, unsigned(claims())), 'Token is not signed (alg "none"); tokens must be signed by their issuer');
    const hmac = await local.sign(claims(), new TextEncoder().encode('a-secret-anyone-could-guess-0123456789'), { alg: 'HS256', kid: 'local-1' });
    assertRefused(await as(hmac)('GET', '/api/space/items'), 'Token signature algorithm is not allowed (asymmetric algorithms only)');
    const stranger = (await generateKeyPair('RS256')).privateKey;
    assertRefused(await as(await local.sign(claims(), stranger, { alg: 'RS256', kid: 'not-published' }))('GET', '/api/space/items'), 'Token was signed with a key the issuer does not publish');
    assertRefused(await as(await local.sign(claims(), stranger, { alg: 'RS256', kid: 'local-1' }))('GET', '/api/space/items'), "Token signature does not verify against the issuer's keys");
  });

  test('missing or unknown claims are named', async () => {
    const signed = (overrides: JWTPayload) => local.sign(claims(overrides));
    assertRefused(await as(await signed({ verdict_role: 'owner' }))('GET', '/api/space/items'), 'Token claim verdict_role is "owner"; expected one of solver, viewer, editor, publisher, admin');
    assertRefused(await as(await signed({ verdict_space: undefined }))('GET', '/api/space/items'), 'Token has no verdict_space claim naming its space');
    assertRefused(await as(await signed({ aud: 'someone-else' }))('GET', '/api/space/items'), 'Token audience "someone-else" does not include "verdict-api"');
  });

  test("an issuer whose keys cannot be fetched is answered 502, and API keys work as before", async () => {
    const token = await local.sign(claims({ iss: 'http://127.0.0.1:9/down' }));
    const reply = await as(token)('GET', '/api/space/items');
    assert.equal(reply.status, 502, reply.text);
    assert.equal(reply.json.error.message, 'The keys of token issuer "http://127.0.0.1:9/down" cannot be fetched now; retry later');
    assert.equal((await server.call('GET', '/api/space/items', { key: server.space.managementKey })).status, 200);
    assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT })).status, 200);
  });
});
