// The GoRules Agent API over real HTTP (fetch against a listening server): both paths, keys as GoRules writes them,
// the trace, and every refusal in the Agent's error shape (docs/decisions/gorules-agent-api.md).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toVerdictTable } from '../../src/formats/decisionrules/table.ts';
import { agentTrace, formatPerformance, ruleOfKey } from '../../src/http/plugins/agent.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';

let backend: Backend;
let server: TestServer;

const PERFORMANCE = /^\d+\.\d(ns|µs|ms|s)$/;

/** A published decision table: tier by amount. */
const table = toVerdictTable(
  {
    name: 'Discount tier',
    hitPolicy: 'first',
    inputs: [{ field: 'amount' }],
    outputs: [{ field: 'tier' }],
    rows: [
      { when: [{ op: 'ge', value: 100 }], then: [{ kind: 'lit', value: 'gold' }] },
      { when: [{ op: 'lt', value: 100 }], then: [{ kind: 'lit', value: 'basic' }] },
    ],
  },
  { ruleId: 'discount-tier-id', ruleAlias: 'discount-tier' },
);

function evaluate(family: 'rules' | 'projects', key: string, body: unknown, headers: Record<string, string> = { 'x-access-token': server.space.solverKey }, project = server.space.space): Promise<Reply> {
  return server.call('POST', `/api/${family}/${encodeURIComponent(project)}/evaluate/${key}`, { body, headers });
}

before(async () => {
  backend = sqliteBackend();
  server = await startTestServer({ backend });
  const imported = await server.call('POST', '/api/rule-flow/import', { key: server.space.managementKey, body: table });
  assert.equal(imported.status, 200, imported.text);
});

after(async () => {
  await server?.close();
  await backend?.cleanup();
});

test('the key is an alias or id, as GoRules writes keys: folders and the .json suffix are dropped', () => {
  assert.equal(ruleOfKey('pricing.json'), 'pricing');
  assert.equal(ruleOfKey('folder/sub/pricing.json'), 'pricing');
  assert.equal(ruleOfKey('pricing'), 'pricing');
  assert.equal(formatPerformance(1.234), '1.2ms');
  assert.equal(formatPerformance(0.1523), '152.3µs');
  assert.equal(formatPerformance(1500), '1.5s');
  assert.deepEqual(agentTrace([{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }]), { a: { id: 'a', name: 'A', order: 0 }, b: { id: 'b', name: 'B', order: 1 } });
});

test('both paths evaluate by alias, id and file key with X-Access-Token', async () => {
  for (const family of ['rules', 'projects'] as const) {
    for (const key of ['discount-tier', 'discount-tier-id', 'discount-tier.json', 'pricing%2Fdiscount-tier.json', 'pricing/discount-tier.json']) {
      const reply = await evaluate(family, key, { context: { amount: 150 } });
      assert.equal(reply.status, 200, `${family} ${key}: ${reply.text}`);
      assert.deepEqual(reply.json.result, [{ tier: 'gold' }], `${family} ${key}`);
      assert.match(reply.json.performance, PERFORMANCE);
      assert.equal(reply.json.trace, undefined);
    }
  }
  const basic = await evaluate('rules', 'discount-tier', { context: { amount: 5 }, trace: false });
  assert.deepEqual(basic.json.result, [{ tier: 'basic' }]);
});

test('trace: true answers the evaluation trace beside the result', async () => {
  const reply = await evaluate('rules', 'discount-tier', { context: { amount: 150 }, trace: true });
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(reply.json.result, [{ tier: 'gold' }]);
  assert.notEqual(reply.json.trace, undefined);
  assert.notEqual(reply.json.trace, null);
});

test('a session or management key of the space may evaluate too (rules:solve)', async () => {
  const reply = await evaluate('rules', 'discount-tier', { context: { amount: 150 } }, { authorization: `Bearer ${server.space.managementKey}` });
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(reply.json.result, [{ tier: 'gold' }]);
});

test('an unknown key is a 404 in each family\'s error shape', async () => {
  const rules = await evaluate('rules', 'folder/no-such-rule.json', { context: {} });
  assert.equal(rules.status, 404, rules.text);
  assert.equal(rules.json.code, 'documents.invalid');
  assert.equal(rules.json.details, 'File not found');
  assert.equal(rules.json.key, 'folder/no-such-rule.json');
  assert.match(rules.json.message, /Unknown rule/);
  const legacy = await evaluate('projects', 'no-such-rule', { context: {} });
  assert.equal(legacy.status, 404, legacy.text);
  assert.equal(legacy.json.type, 'LoaderError');
  assert.equal(legacy.json.key, 'no-such-rule');
});

test('a wrong or missing access token is a 401; a project the token does not open is a 404', async () => {
  const wrong = await evaluate('rules', 'discount-tier', { context: {} }, { 'x-access-token': 'not-a-key' });
  assert.equal(wrong.status, 401, wrong.text);
  assert.equal(wrong.json.code, 'unauthorized');
  assert.equal(typeof wrong.json.message, 'string');
  const missing = await evaluate('projects', 'discount-tier', { context: {} }, {});
  assert.equal(missing.status, 401, missing.text);
  assert.equal(typeof missing.json.message, 'string');
  assert.equal(missing.json.error, undefined, 'the Agent shape, not Verdict\'s {"error": ...}');
  const elsewhere = await evaluate('rules', 'discount-tier', { context: {} }, undefined, 'another-space');
  assert.equal(elsewhere.status, 404, elsewhere.text);
  assert.equal(elsewhere.json.code, 'project.notFound');
  const legacyElsewhere = await evaluate('projects', 'discount-tier', { context: {} }, undefined, 'another-space');
  assert.equal(legacyElsewhere.status, 404);
  assert.match(legacyElsewhere.json.message, /Project not found/);
});

test('a body without a context object is a 400 naming it', async () => {
  for (const body of [{}, { context: [1, 2] }, { context: 'x' }]) {
    const reply = await evaluate('rules', 'discount-tier', body);
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json.code, 'request.invalid');
    assert.match(reply.json.message, /context/);
  }
  const notJson = await server.call('POST', `/api/projects/${server.space.space}/evaluate/discount-tier`, { raw: '{"context":', headers: { 'content-type': 'application/json', 'x-access-token': server.space.solverKey } });
  assert.equal(notJson.status, 400);
  assert.match(notJson.json.message, /not valid JSON/);
});
