// Hostile scripting rules against a real server (the same startServer as `verdict serve`) with its real pool of
// script worker processes: no script from any space may stop the server, stall other spaces or leak internals.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { messageTable, script } from './fixtures.ts';
import { startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';
import type { CreatedSpace } from '../../src/service/spaces.ts';

function assertRuleError(reply: Reply, message: RegExp): void {
  assert.equal(reply.status, 400, reply.text);
  assert.deepEqual(Object.keys(reply.json ?? {}), ['error'], reply.text);
  assert.match(reply.json.error.message, message);
  assert.doesNotMatch(reply.text, /\n\s+at |stack|outcome|isolate/i, 'no internals');
}

/** Health-check round trips while `work` runs: the slowest one, in ms. */
async function slowestHealthCheck(server: TestServer, work: Promise<unknown>): Promise<number> {
  let done = false;
  void work.finally(() => (done = true));
  let slowest = 0;
  let checks = 0;
  while (!done || checks === 0) {
    const started = performance.now();
    const reply = await server.call('GET', '/health-check');
    assert.equal(reply.status, 200);
    slowest = Math.max(slowest, performance.now() - started);
    checks++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return slowest;
}

const FAN_OUT = `
const depth = input.depth || 0;
if (depth >= 6) return { leaf: true };
const parts = await Promise.all([1, 2, 3, 4].map(() => DR.solve('fan-out', { depth: depth + 1 })));
return { parts: parts.length };`;

describe('hostile scripts over HTTP', () => {
  let backend: Backend;
  let server: TestServer;
  let other: CreatedSpace;

  before(async () => {
    backend = sqliteBackend();
    // A 6 s time limit: the memory bombs reach their memory limit in about 1.5 s on a quiet machine, and must
    // still reach it first (and fail as a memory error, not a timeout) when CI runs other suites beside this one.
    server = await startTestServer({ backend, env: { RULE_TIMEOUT_MS: '6000', SCRIPT_WORKERS: '4', SCRIPT_MAX_DATA_CHARS: '1000000' } });
    await server.running.services.rulesIO.importContainer(server.space.space, [
      script('rule-map-bomb', 'map-bomb', 'const m=new Map();let i=0;while(true)m.set(i++,{i});'),
      script('rule-object-bomb', 'object-bomb', "const o={};let i=0;while(true)o['k'+i]=i++;"),
      script('rule-fan-out', 'fan-out', FAN_OUT),
      script('rule-self', 'self', 'return await DR.solve("self", input);'),
      script('rule-spin', 'spin', 'while (true) {}'),
      script('rule-echo', 'echo', 'return { got: input };'),
      script('rule-deep-out', 'deep-out', 'let o = {}; const r = o; for (let i = 0; i < 5000; i++) o = o.a = {}; return r;'),
      script('rule-huge-out', 'huge-out', 'return "x".repeat(30e6);'),
      script('rule-to-json', 'to-json', 'Array.prototype.toJSON = () => 5;\nreturn { list: [1] };'),
      messageTable('rule-hello', 'hello', 1, 'hello'),
    ]);
    other = await server.running.services.spaces.create('bystander');
    await server.running.services.rulesIO.importContainer(other.space, [script('rule-quick', 'quick', 'return { quick: true };')]);
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  for (const alias of ['map-bomb', 'object-bomb']) {
    test(`${alias}: a script that kills V8 fails with a memory error; the server answers health checks within 1 s, during and after`, async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const solving = server.solve(`/rule/solve/${alias}`, { data: {} });
        const slowest = await slowestHealthCheck(server, solving);
        assert.ok(slowest < 1000, `a health check took ${Math.round(slowest)} ms`);
        assertRuleError(await solving, /^script: the script exceeded its memory limit/);
      }
      const after = performance.now();
      assert.equal((await server.call('GET', '/health-check')).status, 200);
      assert.ok(performance.now() - after < 1000);
      assert.deepEqual((await server.solve('/rule/solve/echo', { data: { a: 1 } })).json, [{ got: { a: 1 } }]);
      assert.equal((await server.solve('/rule/solve/hello', { data: {} })).status, 200);
    });
  }

  test('DR.solve fan-out is stopped by the solve budget, without blocking the server or growing its memory', async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const solving = server.solve('/rule/solve/fan-out', { data: {} });
    const slowest = await slowestHealthCheck(server, solving);
    const reply = await solving;
    assertRuleError(reply, /more than (64 scripts run at once in one solve|1000 nested rule calls)/);
    assert.ok(performance.now() - started < 3000, `stopped after ${Math.round(performance.now() - started)} ms`);
    assert.ok(slowest < 1000, `a health check took ${Math.round(slowest)} ms`);
    const grownMb = (process.memoryUsage().rss - rssBefore) / 1048576;
    assert.ok(grownMb < 200, `the server grew by ${Math.round(grownMb)} MB`);
  });

  test('a script calling itself stops at the depth limit with one message naming the chain', async () => {
    const reply = await server.solve('/rule/solve/self', { data: {} });
    assertRuleError(reply, /^rules call each other more than 32 levels deep: "Script self" -> "Script self" -> .* \(does a rule call itself\?\)$/);
    assert.doesNotMatch(reply.json.error.message, /script: script:/);
  });

  test("one space's infinite loops do not delay another space's scripts", async () => {
    const loops = [1, 2, 3].map(() => server.solve('/rule/solve/spin', { data: {} }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Three loops hold this space's share (three of the four workers): the fourth waits in the queue.
    loops.push(server.solve('/rule/solve/spin', { data: {} }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const reply = await server.solve('/rule/solve/quick', { data: {} }, {}, other.solverKey);
    const waited = performance.now() - started;
    assert.deepEqual(reply.json, [{ quick: true }]);
    // Without a per-space share it would wait for a loop's 6 s time limit; the margin is for CI running other
    // suites on the same two cores as the three spinning workers.
    assert.ok(waited < 2500, `the other space waited ${Math.round(waited)} ms`);
    for (const loop of await Promise.all(loops)) assertRuleError(loop, /exceeded the time limit of 6000 ms/);
    const metrics = (await server.call('GET', '/metrics')).text;
    const waitedSeconds = Number(/^verdict_script_queue_wait_seconds_sum (\S+)$/m.exec(metrics)?.[1]);
    assert.ok(waitedSeconds > 1, `queue wait in /metrics: ${waitedSeconds} s`);
  });

  test('script input and output beyond the data limits are 400s naming the limit', async () => {
    const deep = `{"data":{"v":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`;
    const deepInput = await server.call('POST', '/rule/solve/echo', { key: server.space.solverKey, raw: deep, headers: { 'content-type': 'application/json' } });
    assertRuleError(deepInput, /^the script's input nests deeper than 100 levels$/);
    assertRuleError(await server.solve('/rule/solve/deep-out', { data: {} }), /^the script's output nests deeper than 100 levels$/);
    assertRuleError(await server.solve('/rule/solve/huge-out', { data: {} }), /^the script's output is 30000002 characters of JSON, over the limit of 1000000$/);
  });

  test("a script that breaks the sandbox's result protocol gets a fixed message", async () => {
    assertRuleError(await server.solve('/rule/solve/to-json', { data: {} }), /^script: the script's result could not be read/);
  });
});
