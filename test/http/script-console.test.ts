// A scripting rule's console over HTTP: the lines log() and console.* print reach the test bench's answer
// (POST /api/tools/solve `trace`) and an X-Debug audit record (`debug`) alike, through the script worker processes;
// a script stopped at its time limit answers the limit's message. Real server, SQLite.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { UNHURRIED_MS } from '../support/script-calls.ts';

const SCRIPT = [
  "log('total', input.a + input.b, { a: input.a });",
  "console.log('plain');",
  "console.warn('careful');",
  "console.error('bad', 1);",
  'output.sum = input.a + input.b;',
  'return output;',
].join('\n');
const LINES = ['total 5 {"a":2}', 'plain', '[warn] careful', '[error] bad 1'];

function scriptRule(script = SCRIPT, extra: Record<string, unknown> = {}) {
  return { type: 'complex-rule', name: 'Console check', inputSchema: { a: {}, b: {} }, outputSchema: { sum: {} }, script, ...extra };
}

describe('script console over HTTP', () => {
  let backend: Backend;
  let server: TestServer;
  const manage = (method: string, path: string, body?: unknown) => server.call(method, path, { key: server.space.managementKey, body });

  before(async () => {
    backend = sqliteBackend();
    // An unhurried time limit: the first script starts a worker process, which alone can take seconds on a loaded
    // machine. The endless loop's test has a server of its own with a short limit.
    server = await startTestServer({ backend, env: { RULE_TIMEOUT_MS: String(UNHURRIED_MS) } });
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  test('the bench answer carries the console lines in order, per input for a bulk run', async () => {
    const one = await manage('POST', '/api/tools/solve', { rule: scriptRule(), data: { a: 2, b: 3 } });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.json, { result: [{ sum: 5 }], trace: LINES, warnings: [] });
    const bulk = await manage('POST', '/api/tools/solve', { rule: scriptRule(), data: [{ a: 2, b: 3 }, { a: 1, b: 1 }] });
    assert.equal(bulk.status, 200, bulk.text);
    assert.deepEqual(bulk.json.trace, [LINES, ['total 2 {"a":1}', 'plain', '[warn] careful', '[error] bad 1']]);
  });

  test('a stored script solved with X-Debug keeps the same lines in its audit record', async () => {
    const saved = await manage('POST', '/api/rule', { ...scriptRule(), ruleAlias: 'console-check', status: 'published' });
    assert.equal(saved.status, 200, saved.text);
    const correlation = `console-${Date.now()}`;
    const reply = await server.solve('/rule/solve/console-check', { data: { a: 2, b: 3 } }, { 'x-debug': 'true', 'x-audit': 'true', 'x-correlation-id': correlation });
    assert.equal(reply.status, 200, reply.text);
    const record = await eventually(async () => (await manage('GET', `/api/audit?correlationId=${correlation}`)).json.items[0], UNHURRIED_MS);
    assert.deepEqual(record.debug, LINES);
  });

  test('an endless loop answers the time limit it passed', async () => {
    // On the same database (the same space and keys), with a short limit.
    const limited = await startTestServer({ backend, env: { RULE_TIMEOUT_MS: '1500' } });
    try {
      const reply = await limited.call('POST', '/api/tools/solve', {
        key: server.space.managementKey,
        body: { rule: scriptRule("log('before');\nwhile (true) {}"), data: { a: 1, b: 1 } },
      });
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(reply.json, { error: { message: 'Rule evaluation exceeded the time limit of 1500 ms' } });
    } finally {
      await limited.close();
    }
  });
});
