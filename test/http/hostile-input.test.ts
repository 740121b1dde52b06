// Hostile inputs over real HTTP (issue: hostile input, items 3, 4 and 10): an audited solve whose input cannot be
// serialised loses only its own audit record; an X-Audit-Ttl that would overflow the expiry date is a 400; a number
// that JSON.parse reads as Infinity is a 400 naming where it is, in solve bodies and in rule documents.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { PLANT_INPUT, messageTable, plantTable } from './fixtures.ts';
import { startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';

const INFINITE = 'is a number too large to represent (it reads as Infinity); send a smaller number, or a string';

function assertError(reply: Reply, status: number, message: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.deepEqual(reply.json, { error: { message } });
  assert.ok(reply.headers.get('x-correlation-id'));
}

describe('hostile inputs over HTTP (SQLite)', () => {
  let backend: Backend;
  let server: TestServer;
  let other: CreatedSpace;
  const post = (path: string, raw: string, key: string, headers: Record<string, string> = {}) =>
    server.call('POST', path, { key, raw, headers: { 'content-type': 'application/json', ...headers } });

  before(async () => {
    backend = sqliteBackend();
    // The timer never flushes: the test flushes once, so every audit record below lands in one batch.
    server = await startTestServer({ backend, env: { BODY_LIMIT_BYTES: '200000', AUDIT_FLUSH_MS: '3600000' } });
    await server.running.services.rulesIO.importContainer(server.space.space, [plantTable()]);
    other = await server.running.services.spaces.create('other');
    await server.running.services.rulesIO.importContainer(other.space, [messageTable('m-1', 'message', 1, 'hi')]);
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  test('an audited input nested 10,000 levels deep loses only its own audit record, not its batch', async () => {
    const { services } = server.running;
    const droppedBefore = (await services.metrics.auditDropped.get()).values[0]?.value ?? 0;
    const audit = (id: string) => ({ 'x-audit': 'true', 'x-correlation-id': id });
    assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, audit('good-a1'))).status, 200);
    const deep = `{"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const poisoned = await post('/rule/solve/message', deep, other.solverKey, audit('poisoned'));
    assert.equal(poisoned.status, 200, poisoned.text);
    assert.equal((await server.solve('/rule/solve/message', { data: {} }, audit('good-b1'), other.solverKey)).status, 200);
    assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, audit('good-a2'))).status, 200);
    assert.equal(services.audit.pending, 4, 'all four wait for the same batch');
    await services.audit.flush();
    const ids = async (key: string) => (await server.call('GET', '/api/audit', { key })).json.items.map((r: { correlationId: string }) => r.correlationId).sort();
    assert.deepEqual(await ids(server.space.managementKey), ['good-a1', 'good-a2']);
    assert.deepEqual(await ids(other.managementKey), ['good-b1']);
    assert.equal((await services.metrics.auditDropped.get()).values[0]?.value, droppedBefore + 1);
    assert.ok(server.logs.some((line) => line.correlationId === 'poisoned' && line.level === 40), 'the dropped record is logged (warn)');
  });

  test('X-Audit-Ttl: 99999999 with X-Audit: true is a 400 naming the header, not a 500', async () => {
    const reply = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'x-audit': 'true', 'x-audit-ttl': '99999999' });
    assertError(reply, 400, 'Header X-Audit-Ttl must be a whole number of days from 1 to 3650');
    const ok = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'x-audit': 'true', 'x-audit-ttl': ' 3650 ' });
    assert.equal(ok.status, 200, ok.text);
  });

  test('"total": 1e400 in the input is a 400 naming data.total; bulk inputs are named by index', async () => {
    const key = server.space.solverKey;
    assertError(await post('/rule/solve/plant-items', '{"data": {"group": "plant", "total": 1e400}}', key), 400, `body.data.total ${INFINITE}`);
    assertError(await post('/rule/solve/plant-items', '{"data": [{"group": "plant"}, {"x": {"y": -2E+308}}]}', key), 400, `body.data[1].x.y ${INFINITE}`);
    assertError(await post('/rule/solve/plant-items', `{"data": {"n": ${'1'.repeat(400)}}}`, key), 400, `body.data.n ${INFINITE}`);
    const fine = await post('/rule/solve/plant-items', '{"data": {"group": "plant", "inStock": false, "total": 1e300, "note": "1e400"}}', key);
    assert.equal(fine.status, 200, fine.text);
  });

  test('a rule document with 1e400 in it is refused at save, naming the path (it would be stored as null)', async () => {
    const doc = JSON.stringify({ ...messageTable('inf', 'inf', 1, 'x'), ruleId: undefined, version: undefined, limits: { max: 0 } }).replace('"max":0', '"max":1e400');
    const reply = await post('/api/rule', doc, server.space.managementKey);
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(reply.json.error.problems, [{ path: 'limits.max', message: INFINITE }]);
  });
});
