// A GoRules JDM decision graph through the service over real HTTP (issue 30): imported by the management API (format
// detected, its embedded tests its suite "JDM tests"), versioned, tested, published, solved by /rule/solve
// (answer `[output]`) and the Agent API (the output object, a per-node trace keyed by node id), exported back to
// JDM unchanged (unknown fields included); a table exports as a JDM graph, anything inexact is refused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { toVerdictTable } from '../../src/formats/decisionrules/table.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';

let backend: Backend;
let server: TestServer;

/** zen's kit graph: a collect table over coupon codes, with three embedded tests. */
const DISCOUNTS = JSON.parse(readFileSync(new URL('../conformance/zen/graphs/decision-table-discounts.json', import.meta.url), 'utf8')) as {
  nodes: Record<string, unknown>[];
  edges: unknown[];
  tests: { input: Record<string, unknown>; output: unknown }[];
};
/** The same file with a field GoRules may add one day: kept on the way in and out. */
const FILE = { contentType: 'application/vnd.gorules.decision', ...DISCOUNTS, futureField: { kept: true } };

function manage(method: string, path: string, body?: unknown): Promise<Reply> {
  return server.call(method, path, { key: server.space.managementKey, ...(body === undefined ? {} : { body }) });
}

let ruleId: string;
let alias: string;

before(async () => {
  backend = sqliteBackend();
  server = await startTestServer({ backend });
  const imported = await manage('POST', '/api/rule-flow/import?name=Coupon%20discounts', FILE);
  assert.equal(imported.status, 200, imported.text);
  assert.equal(imported.json.imported.length, 1);
  ({ ruleId, ruleAlias: alias } = imported.json.imported[0]);
  assert.equal(imported.json.imported[0].type, 'decision-graph');
});

after(async () => {
  await server?.close();
  await backend?.cleanup();
});

test('the import keeps the graph, names it and makes the embedded tests its suite; the tests pass on the server', async () => {
  assert.equal(alias, 'coupon-discounts');
  const rule = await manage('GET', `/api/rule/${ruleId}`);
  assert.equal(rule.status, 200, rule.text);
  assert.equal(rule.json.type, 'decision-graph');
  assert.equal(rule.json.name, 'Coupon discounts');
  assert.deepEqual(rule.json.decisionGraph.nodes, DISCOUNTS.nodes);
  assert.deepEqual(rule.json.decisionGraph.futureField, { kept: true });
  const suites = await manage('GET', `/api/tests/rule/${ruleId}`);
  assert.equal(suites.status, 200, suites.text);
  const run = await manage('POST', `/api/tests/run/${ruleId}`);
  assert.equal(run.status, 200, run.text);
  assert.deepEqual([run.json.passed, run.json.failed, run.json.errors], [DISCOUNTS.tests.length, 0, 0]);
});

test('published, it solves by /rule/solve ([output]) and by the Agent API (the output, a trace per node)', async () => {
  const published = await manage('PUT', `/api/rule/status/${ruleId}/published`);
  assert.equal(published.status, 200, published.text);
  for (const { input, output } of DISCOUNTS.tests) {
    const solved = await server.solve(`/rule/solve/${alias}`, { data: input });
    assert.equal(solved.status, 200, solved.text);
    assert.deepEqual(solved.json, [output]);
  }
  const { input, output } = DISCOUNTS.tests[0]!;
  const agent = await server.call('POST', `/api/rules/${server.space.space}/evaluate/pricing/${alias}.json`, {
    headers: { 'x-access-token': server.space.solverKey },
    body: { context: input, trace: true },
  });
  assert.equal(agent.status, 200, agent.text);
  assert.deepEqual(agent.json.result, output);
  const nodeIds = DISCOUNTS.nodes.map((n) => n.id as string);
  const traced = Object.keys(agent.json.trace as Record<string, unknown>);
  assert.ok(traced.length >= 2 && traced.every((id) => nodeIds.includes(id)), `trace keyed by node id: ${traced.join(', ')}`);
  const orders = traced.map((id) => (agent.json.trace[id] as { order: number }).order).sort((a, b) => a - b);
  assert.deepEqual(orders, traced.map((_, i) => i));
});

test('exported back to JDM: the same graph, unknown fields and tests included', async () => {
  const exported = await manage('GET', `/api/jdm/export/${alias}`);
  assert.equal(exported.status, 200, exported.text);
  assert.equal(exported.json.contentType, 'application/vnd.gorules.decision');
  assert.deepEqual(exported.json.nodes, DISCOUNTS.nodes);
  assert.deepEqual(exported.json.edges, DISCOUNTS.edges);
  assert.deepEqual(exported.json.futureField, { kept: true });
  assert.deepEqual(exported.json.tests, DISCOUNTS.tests);
});

test('a decision table exports as an input -> table -> output graph; what JDM cannot express is a 400 naming it', async () => {
  const table = toVerdictTable(
    { name: 'Tier', hitPolicy: 'first', inputs: [{ field: 'amount' }], outputs: [{ field: 'tier' }], rows: [{ when: [{ op: 'ge', value: 100 }], then: [{ kind: 'lit', value: 'gold' }] }] },
    { ruleId: 'tier-table', ruleAlias: 'tier' },
  );
  assert.equal((await manage('POST', '/api/rule-flow/import', table)).status, 200);
  const exported = await manage('GET', '/api/jdm/export/tier/1?hit-policy=collect');
  assert.equal(exported.status, 200, exported.text);
  assert.deepEqual(exported.json.nodes.map((n: { type: string }) => n.type), ['inputNode', 'decisionTableNode', 'outputNode']);
  assert.equal(exported.json.nodes[1].content.hitPolicy, 'collect');
  const script = { type: 'complex-rule', name: 'S', ruleId: 'script-rule', ruleAlias: 'script', status: 'pending', version: 1, inputSchema: {}, outputSchema: {}, script: 'return {};' };
  assert.equal((await manage('POST', '/api/rule-flow/import', script)).status, 200);
  const refused = await manage('GET', '/api/jdm/export/script');
  assert.equal(refused.status, 400, refused.text);
  assert.match(refused.json.error.message, /cannot be written as JDM exactly: type: a complex-rule is not a decision graph/);
});

test('a malformed JDM file is refused with paths into the file; nothing is stored', async () => {
  const before = await manage('GET', '/api/rule');
  const refused = await manage('POST', '/api/rule-flow/import', { nodes: [], edges: [], contentType: 'text/plain', tests: 'no' });
  assert.equal(refused.status, 400, refused.text);
  assert.match(refused.json.error.message, /contentType/);
  assert.match(refused.json.error.message, /tests/);
  const afterwards = await manage('GET', '/api/rule');
  assert.deepEqual(afterwards.json, before.json);
});
