// The management key's own space over real HTTP (the Studio's space pages): API keys listed without secrets,
// created with the secret answered once and working at once, revoked and then refused by the solver, a key that
// cannot revoke itself; the space's Kafka topic pairs; the last hour's solves per rule. Every route stays in the
// key's space: another space's key sees none of it and can revoke none of its keys.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import { asNew, assertError } from '../management/helpers.ts';
import { backendOf, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { plantTable, PLANT_INPUT } from './fixtures.ts';
import { startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';

export function spaceOperationsSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`space operations for the management key (keys, Kafka, overview) on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    let backend: Backend;
    let server: TestServer;
    let other: CreatedSpace;
    const as = (key: string) => (method: string, path: string, body?: unknown): Promise<Reply> =>
      server.call(method, path, body === undefined ? { key } : { key, body });
    let a: ReturnType<typeof as>;
    let b: ReturnType<typeof as>;

    before(async () => {
      if (skip) return;
      backend = await backendOf(kind);
      server = await startTestServer({ backend });
      other = await server.running.services.spaces.create(`other-${Date.now().toString(36)}`);
      a = as(server.space.managementKey);
      b = as(other.managementKey);
      assert.equal((await a('POST', '/api/rule', asNew(plantTable(), ['ruleId', 'ruleAlias']))).status, 200);
    });
    after(async () => {
      await server?.close();
      await backend?.cleanup();
    });

    test('keys are listed without secrets or hashes; the calling key is marked current', { skip }, async () => {
      const reply = await a('GET', '/api/space/keys');
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.json.length, 2);
      for (const key of reply.json) {
        assert.deepEqual(Object.keys(key).sort(), ['createdAt', 'current', 'id', 'name', 'revokedAt', 'type']);
      }
      assert.ok(!reply.text.includes(server.space.managementKey) && !reply.text.includes(server.space.solverKey), 'no secret in the listing');
      const current = reply.json.filter((k: { current: boolean }) => k.current);
      assert.deepEqual(current.map((k: { id: string; type: string }) => [k.id, k.type]), [[server.space.managementKeyId, 'management']]);
    });

    test('a created solver key is answered once and solves at once; revoked, the solver refuses it with 401', { skip }, async () => {
      const created = await a('POST', '/api/space/keys', { type: 'solver', name: 'checkout service' });
      assert.equal(created.status, 201, created.text);
      assert.match(created.json.key, /^vsk_/);
      assert.equal(created.json.name, 'checkout service');
      assert.equal(created.json.revokedAt, null);
      const listed = (await a('GET', '/api/space/keys')).json.find((k: { id: string }) => k.id === created.json.id);
      assert.deepEqual(listed, { id: created.json.id, type: 'solver', name: 'checkout service', createdAt: created.json.createdAt, revokedAt: null, current: false });
      assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, created.json.key)).status, 200);

      const revoked = await a('DELETE', `/api/space/keys/${created.json.id}`);
      assert.equal(revoked.status, 200, revoked.text);
      assert.deepEqual(revoked.json, { id: created.json.id, revoked: true });
      assertError(await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, created.json.key), 401, 'Invalid API key');
      const after = (await a('GET', '/api/space/keys')).json.find((k: { id: string }) => k.id === created.json.id);
      assert.ok(after.revokedAt, 'the listing shows when it was revoked');
      assertError(await a('DELETE', `/api/space/keys/${created.json.id}`), 404, `No active API key with id "${created.json.id}" in this space`);
    });

    test('a management key can create another management key, and cannot revoke itself', { skip }, async () => {
      const created = await a('POST', '/api/space/keys', { type: 'management' });
      assert.equal(created.status, 201, created.text);
      assert.match(created.json.key, /^vmk_/);
      assert.equal(created.json.name, null);
      const second = as(created.json.key);
      assertError(await second('DELETE', `/api/space/keys/${created.json.id}`), 409, /cannot revoke itself/);
      assertError(await a('DELETE', `/api/space/keys/${server.space.managementKeyId}`), 409, /cannot revoke itself/);
      assert.equal((await a('GET', '/api/space/keys')).status, 200, 'the key still works');
      assert.equal((await second('DELETE', `/api/space/keys/${created.json.id}`)).status, 409);
      assert.equal((await a('DELETE', `/api/space/keys/${created.json.id}`)).status, 200, 'another management key may revoke it');
      assertError(await second('GET', '/api/space/keys'), 401, 'Invalid API key');
    });

    test('bad key requests are 400s that say what is wrong; solver keys cannot use these routes', { skip }, async () => {
      assertError(await a('POST', '/api/space/keys', { type: 'admin' }), 400, /type/);
      assertError(await a('POST', '/api/space/keys', {}), 400, /type/);
      assertError(await a('POST', '/api/space/keys', { type: 'solver', name: 'bad\u0007name' }), 400, /key name .* is invalid: a key name is 1-100 characters/);
      for (const path of ['/api/space/keys', '/api/space/kafka', '/api/space/overview', '/api/space/settings']) {
        assertError(await as(server.space.solverKey)('GET', path), 401, 'This is a solver key; the management API needs a management key');
        assertError(await server.call('GET', path), 401, 'Authentication token missing');
      }
    });

    test("another space's management key sees none of these keys and can revoke none of them", { skip }, async () => {
      const mine = (await a('POST', '/api/space/keys', { type: 'solver', name: 'mine' })).json;
      const theirs = (await b('GET', '/api/space/keys')).json;
      assert.deepEqual(theirs.map((k: { id: string }) => k.id).sort(), [other.managementKeyId, other.solverKeyId].sort());
      assertError(await b('DELETE', `/api/space/keys/${mine.id}`), 404, `No active API key with id "${mine.id}" in this space`);
      assertError(await b('DELETE', `/api/space/keys/${server.space.managementKeyId}`), 404, /No active API key/);
      assertError(await b('DELETE', '/api/space/keys/key_nothing'), 404, 'No active API key with id "key_nothing" in this space');
      assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, mine.key)).status, 200, 'the key still works');
    });

    test('Kafka: the channel state and the topic pairs bound to the space only', { skip }, async () => {
      const empty = await a('GET', '/api/space/kafka');
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(empty.json, { space: server.space.space, channelEnabled: false, channelRunning: false, brokersConfigured: false, bindings: [] });
      await server.running.store.kafka.bind({
        space: server.space.space, company: 'acme', requestTopic: 'acme-1-request', responseTopic: 'acme-1-response', createdAt: '2026-03-01T10:00:00.000Z',
      });
      assert.deepEqual((await a('GET', '/api/space/kafka')).json.bindings, [
        { company: 'acme', requestTopic: 'acme-1-request', responseTopic: 'acme-1-response', createdAt: '2026-03-01T10:00:00.000Z', consuming: false },
      ]);
      assert.deepEqual((await b('GET', '/api/space/kafka')).json.bindings, []);
    });

    test('overview: solves of each rule over the last hour by minute; unknown rules, drafts and other spaces not counted', { skip }, async () => {
      const before = (await a('GET', '/api/space/overview')).json.rules.find((r: { ruleId: string }) => r.ruleId === 'rule-plants')?.total.solves ?? 0;
      for (let i = 0; i < 3; i++) assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT })).status, 200);
      await server.solve('/rule/solve/no-such-rule', { data: {} });
      await a('POST', '/api/tools/solve', { rule: plantTable(), data: PLANT_INPUT });
      const reply = await a('GET', '/api/space/overview');
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.json.bucketSeconds, 60);
      assert.ok(Date.parse(reply.json.to) - Date.parse(reply.json.from) > 59 * 60_000);
      assert.deepEqual(reply.json.rules.map((r: { ruleId: string }) => r.ruleId), ['rule-plants']);
      const [rule] = reply.json.rules;
      assert.equal(rule.ruleAlias, 'plant-items');
      assert.equal(rule.type, 'decision-table');
      assert.equal(rule.total.solves - before, 3);
      assert.equal(rule.total.errors, 0);
      for (const series of ['solves', 'errors', 'p50Ms', 'p99Ms']) assert.equal(rule[series].length, 60, series);
      assert.ok(rule.solves.at(-1) >= 1 || rule.solves.at(-2) >= 1, 'the latest minutes hold the solves');
      assert.ok(rule.total.p50Ms > 0 && rule.total.p99Ms >= rule.total.p50Ms);
      assert.deepEqual((await b('GET', '/api/space/overview')).json.rules, []);
    });
  });
}
