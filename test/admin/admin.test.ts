// The admin API (SPEC 5.2) over real HTTP: guarded by VERDICT_ADMIN_TOKEN, it creates spaces and keys that work
// at once, revokes keys, and lists and removes Kafka client bindings.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { adminTokenMatches } from '../../src/http/plugins/admin.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from '../http/harness.ts';
import type { Reply, TestServer } from '../http/harness.ts';

const TOKEN = 'admin-token-for-tests';

describe('admin API', () => {
  let backend: Backend;
  let server: TestServer;
  const admin = (method: string, path: string, body?: unknown): Promise<Reply> =>
    server.call(method, path, { headers: { authorization: `Bearer ${TOKEN}` }, ...(body === undefined ? {} : { body }) });

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend, env: { VERDICT_ADMIN_TOKEN: TOKEN } });
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  test('the token is required and compared exactly; API keys do not open it', async () => {
    const missing = await server.call('GET', '/admin/spaces');
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.json, { error: { message: 'Authentication token missing' } });
    const bare = await server.call('GET', '/admin/spaces', { headers: { authorization: TOKEN } });
    assert.equal(bare.status, 401);
    assert.deepEqual(bare.json, { error: { message: 'Authorization header must use the Bearer scheme: "Authorization: Bearer <key>"' } });
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(0, -1), server.space.managementKey]) {
      const reply = await server.call('GET', '/admin/spaces', { headers: { authorization: `Bearer ${wrong}` } });
      assert.equal(reply.status, 401);
      assert.deepEqual(reply.json, { error: { message: 'Invalid admin token' } });
    }
    assert.equal((await admin('GET', '/admin/spaces')).status, 200);
  });

  test('adminTokenMatches compares whole tokens of any length', () => {
    assert.equal(adminTokenMatches('abc', 'abc'), true);
    assert.equal(adminTokenMatches('abc', 'abcd'), false);
    assert.equal(adminTokenMatches('abc', ''), false);
    assert.equal(adminTokenMatches('abc', undefined), false);
  });

  test('keys may be named at creation; the listing shows the names, and the name is who writes in rule history', async () => {
    const space = await admin('POST', '/admin/spaces', { name: 'named', keyName: 'Bootstrap' });
    assert.equal(space.status, 201, space.text);
    const key = await admin('POST', '/admin/spaces/named/keys', { type: 'management', name: ' Alice ' });
    assert.equal(key.status, 201, key.text);
    assert.equal(key.json.name, 'Alice');
    const plain = await admin('POST', '/admin/spaces/named/keys', { type: 'solver' });
    assert.equal(plain.json.name, null);
    const listed = (await admin('GET', '/admin/spaces/named/keys')).json as Array<{ id: string; type: string; name: string | null }>;
    assert.deepEqual(listed.map((k) => [k.type, k.name]).sort(), [['management', 'Alice'], ['management', 'Bootstrap'], ['solver', 'Bootstrap'], ['solver', null]].sort());
    const rule = { name: 'N', type: 'decision-table', inputSchema: { a: {} }, outputSchema: { b: {} }, decisionTable: { columns: [
      { columnId: 'c', type: 'input', condition: { type: 'simple', name: 'A', inputVariable: 'a' } },
      { columnId: 'o', type: 'output', columnOutput: { type: 'simple', name: 'B', outputVariable: 'b' } },
    ], rows: [] } };
    const created = await server.call('POST', '/api/rule', { key: key.json.key, body: rule });
    assert.equal(created.status, 200, created.text);
    const history = await server.call('GET', `/api/rule/history/${created.json.ruleId}`, { key: key.json.key });
    assert.deepEqual(history.json.items.map((i: { action: string; by: string }) => [i.action, i.by]), [['create', 'Alice']]);
    for (const bad of ['', '   ', 'x'.repeat(101), 'tab\there']) {
      const refused = await admin('POST', '/admin/spaces/named/keys', { type: 'solver', name: bad });
      assert.equal(refused.status, 400, `${JSON.stringify(bad)}: ${refused.text}`);
      assert.match(refused.json.error.message, /a key name is 1-100 characters without control characters/);
    }
  });

  test('a space created over the API comes with keys that work at once', async () => {
    const created = await admin('POST', '/admin/spaces', { name: 'acme' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.space, 'acme');
    assert.match(created.json.solverKey, /^vsk_/);
    assert.match(created.json.managementKey, /^vmk_/);
    const listed = (await admin('GET', '/admin/spaces')).json.map((s: { name: string }) => s.name);
    assert.ok(listed.includes('acme') && listed.includes(server.space.space), listed.join(','));
    const rule = {
      name: 'Hello', type: 'decision-table', status: 'published', ruleAlias: 'hello', inputSchema: { any: {} }, outputSchema: { message: {} },
      decisionTable: {
        columns: [
          { columnId: 'c1', type: 'input', condition: { type: 'simple', inputVariable: 'any' } },
          { columnId: 'c2', type: 'output', columnOutput: { type: 'simple', outputVariable: 'message' } },
        ],
        rows: [{ active: true, cells: [{ column: 'c1', scalarCondition: { operator: 'anything', value: '' } }, { column: 'c2', outputScalarValue: { value: 'hi' } }] }],
      },
    };
    assert.equal((await server.call('POST', '/api/rule', { key: created.json.managementKey, body: rule })).status, 200);
    assert.deepEqual((await server.solve('/rule/solve/hello', { data: {} }, {}, created.json.solverKey)).json, [{ message: 'hi' }]);

    const again = await admin('POST', '/admin/spaces', { name: 'acme' });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.message, 'space "acme" already exists');
    const bad = await admin('POST', '/admin/spaces', { name: 'no spaces allowed' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.error.message, /1-100 letters, digits/);
  });

  test('keys: list, create (shown once), revoke (refused at once), unknown space and key', async () => {
    const before = (await admin('GET', '/admin/spaces/acme/keys')).json as Array<{ id: string; type: string; revokedAt: string | null }>;
    assert.deepEqual(before.map((k) => k.type).sort(), ['management', 'solver']);
    assert.ok(before.every((k) => k.revokedAt === null && !('key' in k) && !('hash' in k)), 'secrets never listed');

    const created = await admin('POST', '/admin/spaces/acme/keys', { type: 'solver' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.space, 'acme');
    assert.match(created.json.key, /^vsk_/);
    assert.equal((await server.solve('/rule/solve/hello', { data: {} }, {}, created.json.key)).status, 200);

    assert.deepEqual((await admin('DELETE', `/admin/keys/${created.json.id}`)).json, { id: created.json.id, revoked: true });
    const refused = await server.solve('/rule/solve/hello', { data: {} }, {}, created.json.key);
    assert.equal(refused.status, 401);
    assert.equal((await admin('DELETE', `/admin/keys/${created.json.id}`)).status, 404);
    const after = (await admin('GET', '/admin/spaces/acme/keys')).json as Array<{ id: string; revokedAt: string | null }>;
    assert.ok(after.find((k) => k.id === created.json.id)?.revokedAt, 'listed as revoked');

    assert.equal((await admin('POST', '/admin/spaces/acme/keys', { type: 'root' })).status, 400);
    assert.equal((await admin('GET', '/admin/spaces/nowhere/keys')).status, 404);
    assert.equal((await admin('POST', '/admin/spaces/nowhere/keys', { type: 'solver' })).status, 404);
  });

  test('Kafka bindings: list (all or one space), unbind; enabling needs KAFKA_BROKERS', async () => {
    assert.deepEqual((await admin('GET', '/admin/kafka')).json, []);
    const binding = { space: 'acme', company: 'acme', requestTopic: 'acme-123-request', responseTopic: 'acme-123-response', createdAt: new Date().toISOString() };
    await server.running.store.kafka.bind(binding);
    assert.deepEqual((await admin('GET', '/admin/kafka')).json, [binding]);
    assert.deepEqual((await admin('GET', '/admin/kafka?space=acme')).json, [binding]);
    assert.deepEqual((await admin('GET', `/admin/kafka?space=${server.space.space}`)).json, []);

    const enable = await admin('POST', '/admin/spaces/acme/kafka', { company: 'acme' });
    assert.equal(enable.status, 400);
    assert.match(enable.json.error.message, /KAFKA_BROKERS is not set/);
    assert.equal((await admin('POST', '/admin/spaces/nowhere/kafka', { company: 'x' })).status, 404);
    assert.equal((await admin('POST', '/admin/spaces/acme/kafka', {})).status, 400);

    assert.deepEqual((await admin('DELETE', '/admin/kafka/acme-123-request')).json, { requestTopic: 'acme-123-request', unbound: true });
    assert.deepEqual((await admin('GET', '/admin/kafka')).json, []);
    assert.equal((await admin('DELETE', '/admin/kafka/acme-123-request')).status, 404);
  });
});
