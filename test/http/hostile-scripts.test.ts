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
import { ScriptWorkerPool } from '../../src/script-workers/pool.ts';
import { track, UNHURRIED_MS, until, warmWorkers } from '../support/script-calls.ts';

function assertRuleError(reply: Reply, message: RegExp): void {
  assert.equal(reply.status, 400, reply.text);
  assert.deepEqual(Object.keys(reply.json ?? {}), ['error'], reply.text);
  assert.match(reply.json.error.message, message);
  assert.doesNotMatch(reply.text, /\n\s+at |stack|outcome|isolate/i, 'no internals');
}

/**
 * Health checks, one after another (50 ms apart), while `work` is pending; every one must be a 200. Returns how many
 * were both sent and answered while the server's pool was running a script (`pool.running`, not counting the time
 * the request spends before: routing, loading the rule, starting a worker). A server that the script brought down
 * answers none, and so does one whose event loop stood still while the script ran, however slow the machine.
 */
async function healthChecksWhileRunning(server: TestServer, work: Promise<unknown>): Promise<number> {
  const pool = server.running.services.sandbox;
  assert.ok(pool instanceof ScriptWorkerPool);
  const pending = track(work);
  let answered = 0;
  while (!pending.settled) {
    const sentWhileRunning = pool.running > 0;
    const reply = await server.call('GET', '/health-check');
    assert.equal(reply.status, 200);
    if (sentWhileRunning && pool.running > 0 && !pending.settled) answered++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return answered;
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
    // An unhurried time limit: none of the tests on this server is about it, and the memory bombs must fail as
    // memory errors, not timeouts. A bomb costs a second or two of CPU time (many times that in wall time on a
    // loaded machine), and every worker it kills is started again cold. Isolates of 32 MB, not the default 64, about
    // halve that cost; 30 MB of output still reaches the data limit before the memory limit. The infinite loops'
    // test has a server of its own with a short limit.
    server = await startTestServer({
      backend,
      env: { RULE_TIMEOUT_MS: String(UNHURRIED_MS), SCRIPT_WORKERS: '4', SCRIPT_MEMORY_MB: '32', SCRIPT_MAX_DATA_CHARS: '1000000' },
    });
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
    test(`${alias}: a script that kills V8 fails with a memory error; the server answers health checks while it runs and after`, async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const solving = server.solve(`/rule/solve/${alias}`, { data: {} });
        const answered = await healthChecksWhileRunning(server, solving);
        assertRuleError(await solving, /^script: the script exceeded its memory limit/);
        assert.ok(answered > 0, 'health checks were answered while the script ran');
      }
      assert.equal((await server.call('GET', '/health-check')).status, 200);
      assert.deepEqual((await server.solve('/rule/solve/echo', { data: { a: 1 } })).json, [{ got: { a: 1 } }]);
      assert.equal((await server.solve('/rule/solve/hello', { data: {} })).status, 200);
    });
  }

  test('DR.solve fan-out is stopped by the solve budget, without blocking the server or growing its memory', async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const solving = server.solve('/rule/solve/fan-out', { data: {} });
    const answered = await healthChecksWhileRunning(server, solving);
    // Stopped by a budget, not by the time limit (which would answer its own message) nor by memory.
    assertRuleError(await solving, /more than (64 scripts run at once in one solve|1000 nested rule calls)/);
    assert.ok(answered > 0, 'health checks were answered while the scripts ran');
    const grownMb = (process.memoryUsage().rss - rssBefore) / 1048576;
    assert.ok(grownMb < 200, `the server grew by ${Math.round(grownMb)} MB`);
  });

  test('a script calling itself stops at the depth limit with one message naming the chain', async () => {
    const reply = await server.solve('/rule/solve/self', { data: {} });
    assertRuleError(reply, /^rules call each other more than 32 levels deep: "Script self" -> "Script self" -> .* \(does a rule call itself\?\)$/);
    assert.doesNotMatch(reply.json.error.message, /script: script:/);
  });

  test("one space's infinite loops do not delay another space's scripts", async () => {
    // A server of its own, on the same database (the spaces and rules above), with the short time limit the loops
    // run until; four workers, three of them (SCRIPT_WORKERS_PER_SPACE's default) at most for one space.
    const limited = await startTestServer({ backend, env: { RULE_TIMEOUT_MS: '3000', SCRIPT_WORKERS: '4' } });
    try {
      const pool = limited.running.services.sandbox;
      assert.ok(pool instanceof ScriptWorkerPool);
      // Its four workers are started first: the loops then spin from the start, and the other space's script
      // does not spend the loops' time limit on a cold start (seconds on a loaded machine).
      await warmWorkers(pool, 4);
      const loops = [1, 2, 3, 4].map(() => track(limited.solve('/rule/solve/spin', { data: {} }, {}, server.space.solverKey)));
      // Three loops hold this space's share (three of the four workers): the fourth waits in the queue.
      await until(() => pool.waiting === 1, 'a loop waiting for a worker');
      const reply = await limited.solve('/rule/solve/quick', { data: {} }, {}, other.solverKey);
      assert.deepEqual(reply.json, [{ quick: true }]);
      // Had the loops taken every worker, the other space would have been answered only once one of them ended.
      assert.ok(loops.every((loop) => !loop.settled), 'the other space was answered while the loops still ran');
      for (const loop of await Promise.all(loops.map(({ promise }) => promise))) assertRuleError(loop, /exceeded the time limit of 3000 ms/);
      // The fourth loop waited in the queue until a worker came free at another loop's limit.
      const metrics = (await limited.call('GET', '/metrics')).text;
      const waitedSeconds = Number(/^verdict_script_queue_wait_seconds_sum (\S+)$/m.exec(metrics)?.[1]);
      assert.ok(waitedSeconds > 1, `queue wait in /metrics: ${waitedSeconds} s`);
    } finally {
      await limited.close();
    }
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
