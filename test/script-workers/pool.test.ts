// The script worker pool against hostile scripts, with real worker processes: a script that kills V8, loops, hangs
// its worker or floods the pool harms only its own solve, and the process that hosts the pool (this test) lives on.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptWorkerPool } from '../../src/script-workers/pool.ts';
import type { ScriptPoolOptions } from '../../src/script-workers/pool.ts';
import type { ScriptCall } from '../../src/engine/types.ts';
import { LimitError, RuleError, TimeoutError } from '../../src/engine/errors.ts';
import { scriptCall, scriptHandle as handle, startedSignal, track, UNHURRIED_MS } from '../support/script-calls.ts';

// Scripts whose subject is not a time limit get an unhurried one: a worker's cold start alone can take seconds on a
// loaded machine. The tests of a limit set their own, and compare what they observe with it.
const call = (overrides: Partial<ScriptCall> = {}): ScriptCall => scriptCall(UNHURRIED_MS, overrides);

interface Recorded {
  waited: number[];
  rejected: string[];
  lost: string[];
}

function pool(options: Partial<ScriptPoolOptions> = {}): { pool: ScriptWorkerPool; events: Recorded } {
  const events: Recorded = { waited: [], rejected: [], lost: [] };
  const created = new ScriptWorkerPool({
    workers: 2,
    perSpace: 2,
    queuePerSpace: 10,
    isolateMemoryMb: 32,
    solveMemoryMb: 512,
    defaultTimeoutMs: 3000,
    dataLimits: { maxChars: 100_000, maxDepth: 50 },
    events: {
      waited: (seconds) => events.waited.push(seconds),
      rejected: (reason) => events.rejected.push(reason),
      lost: (loss) => events.lost.push(loss),
    },
    ...options,
  });
  after(() => created.dispose());
  return { pool: created, events };
}

const MAP_BOMB = 'const m=new Map();let i=0;while(true)m.set(i++,{i});';
const OBJECT_BOMB = "const o={};let i=0;while(true)o['k'+i]=i++;";

describe('script worker pool', () => {
  test('runs a script in a worker: input, logs, DR.solve answered by the host', async () => {
    const { pool: scripts } = pool();
    const lines: string[] = [];
    const value = await scripts.run(
      handle('log("from", input.who);\nreturn { sum: input.a + 1, other: await DR.solve("other", { q: 1 }) };'),
      call({ input: { a: 41, who: 'worker' }, log: (line) => lines.push(line), solve: async (id, data) => ({ id, data }) }),
      'space-a',
    );
    assert.deepEqual(value, { sum: 42, other: { id: 'other', data: { q: 1 } } });
    assert.deepEqual(lines, ['from worker']);
  });

  test('hostless scripts run in the worker\'s warm realm; a source crosses once per worker, again after it forgot', async () => {
    const { pool: scripts } = pool({ workers: 1, perSpace: 1 });
    const warm = { source: 'leftover = input.n;\nreturn [typeof eval, leftover * 2];', cacheKey: `pool-warm-${Date.now()}`, hostless: true };
    for (const n of [1, 2, 3]) assert.deepEqual(await scripts.run(warm, call({ input: { n } }), 's'), ['undefined', n * 2]);
    // Past 512 sources the supervisor tells the worker to forget them all: the first one is sent again when used.
    const many = Array.from({ length: 513 }, (_, i) => ({ source: `return ${i};`, cacheKey: `pool-many-${Date.now()}-${i}`, hostless: true }));
    for (const [i, script] of many.entries()) assert.equal(await scripts.run(script, call(), 's'), i);
    assert.deepEqual(await scripts.run(warm, call({ input: { n: 4 } }), 's'), ['undefined', 8]);
    assert.equal(await scripts.run(many[512]!, call(), 's'), 512);
  });

  for (const [name, source] of [['a growing Map', MAP_BOMB], ['an object with ever more keys', OBJECT_BOMB]]) {
    test(`a script that exhausts V8's heap with ${name} fails alone with a memory error; the pool goes on`, async () => {
      const { pool: scripts, events } = pool();
      await assert.rejects(scripts.run(handle(source), call(), 'space-a'), (error: Error) => {
        assert.ok(error instanceof RuleError, String(error));
        assert.match(error.message, /^script: the script exceeded its memory limit/);
        return true;
      });
      assert.deepEqual(await scripts.run(handle('return 1 + 1'), call(), 'space-a'), 2);
      assert.ok(events.lost.length <= 1 && events.lost.every((loss) => loss === 'memory'), `lost: ${events.lost.join(',')}`);
    });
  }

  test('an infinite loop ends at its deadline as a TimeoutError; the next script runs', async () => {
    const { pool: scripts } = pool();
    // A worker is started first, so that the time measured is the loop's, not a cold start's.
    assert.equal(await scripts.run(handle('return 1'), call(), 'space-a'), 1);
    const limitMs = 300;
    const started = Date.now();
    await assert.rejects(scripts.run(handle('while (true) {}'), call({ deadline: started + limitMs, timeoutMs: limitMs }), 'space-a'), {
      name: 'TimeoutError',
      message: `Rule evaluation exceeded the time limit of ${limitMs} ms`,
    });
    // Stopped at its limit, not left to run: ten times the limit is far beyond any scheduling delay at a load of 8.
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 10 * limitMs, `stopped after ${elapsed} ms`);
    assert.equal(await scripts.run(handle('return "next"'), call(), 'space-a'), 'next');
  });

  test('a worker that stops answering is killed by the supervisor at the deadline', async () => {
    const killGraceMs = 100;
    const { pool: scripts, events } = pool({ killGraceMs });
    // A worker is started first, then frozen: the run below goes to a process that can neither run the script nor
    // stop it itself (the worker's own timeout never fires), so only the supervisor can end the run. Freezing it
    // before the run, not from inside it, leaves no race with the worker's own timeout on a slow machine.
    assert.equal(await scripts.run(handle('return 1'), call(), 'space-a'), 1);
    const pids = scripts.workerPids();
    assert.equal(pids.length, 1);
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    const limitMs = 400;
    const started = Date.now();
    await assert.rejects(scripts.run(handle('return "never"'), call({ deadline: started + limitMs, timeoutMs: limitMs }), 'space-a'), {
      name: 'TimeoutError',
      message: `Rule evaluation exceeded the time limit of ${limitMs} ms`,
    });
    // The supervisor waits out the deadline (its grace also covers a timer armed on a stale loop clock), then acts:
    // well before ten times the limit.
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= limitMs && elapsed < 10 * limitMs, `killed after ${elapsed} ms`);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), /ESRCH/, `worker ${pid} is gone`);
    assert.deepEqual(events.lost, ['timeout']);
    assert.equal(await scripts.run(handle('return "replaced"'), call(), 'space-a'), 'replaced');
  });

  test('a worker killed from outside fails only its own run', async () => {
    const { pool: scripts, events } = pool();
    const doomed = scripts.run(
      handle('return await DR.solve("x", {});'),
      call({
        solve: async () => {
          for (const pid of scripts.workerPids()) process.kill(pid, 'SIGKILL');
          return new Promise(() => {});
        },
      }),
      'space-a',
    );
    await assert.rejects(doomed, /the script sandbox stopped unexpectedly/);
    assert.deepEqual(events.lost, ['crash']);
    assert.equal(await scripts.run(handle('return 3'), call(), 'space-a'), 3);
  });

  test('all scripts of one solve share its worker, and its memory bound covers them together', async () => {
    // Each script keeps ~40 MB, under its isolate's 64 MB; four of them at once pass the solve's 200 MB.
    const { pool: scripts, events } = pool({ isolateMemoryMb: 64, solveMemoryMb: 200, memoryPollMs: 20 });
    const scope = {};
    const hog = handle('const keep = []; for (let i = 0; i < 40; i++) keep.push(new Array(131072).fill(i + 0.5)); await DR.solve("wait", {}); return keep.length;');
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const nested = (): Promise<unknown> =>
      scripts.run(hog, call({ scope, solve: () => gate.then(() => 1) }), 'space-a');
    const outer = scripts.run(
      handle('return await Promise.all([DR.solve("a", {}), DR.solve("b", {}), DR.solve("c", {}), DR.solve("d", {})]);'),
      call({ scope, solve: () => nested() }),
      'space-a',
    );
    await assert.rejects(outer, /the script exceeded its memory limit \(64 MB per script, 200 MB per solve\)/);
    release();
    assert.deepEqual(events.lost, ['memory']);
    assert.equal(scripts.size, 0, 'one worker served the whole solve, and it is gone');
  });

  test("one space's runaway scripts leave a worker for the others", async () => {
    const { pool: scripts, events } = pool({ workers: 3, perSpace: 2 });
    // Two loops hold their space's share of the workers for as long as this test lasts (dispose ends them); a third
    // of the same space, with a short deadline, waits in the queue behind them until that deadline passes.
    const running = startedSignal(2);
    const loop = handle('await DR.solve("started", {});\nwhile (true) {}');
    const holders = [1, 2].map(() => track(scripts.run(loop, call({ solve: running.solve }), 'greedy')));
    const queued = track(scripts.run(loop, call({ deadline: Date.now() + 1000, timeoutMs: 1000 }), 'greedy'));
    assert.equal(scripts.waiting, 1, 'the third loop waits: its space holds its share');
    await running.all;
    // The other space is served while the loops run: had they taken every worker, it would wait until they ended.
    assert.equal(await scripts.run(handle('return "served"'), call(), 'polite'), 'served');
    assert.ok(holders.every((loop) => !loop.settled), 'the other space was answered while the loops still ran');
    // The third loop never got a worker: it waited in the queue until its deadline (1 s).
    await assert.rejects(queued.promise, TimeoutError);
    assert.deepEqual(events.rejected, ['timeout']);
    assert.ok(events.waited.some((seconds) => seconds > 0.5), `waits: ${events.waited.join(',')}`);
    assert.ok(holders.every((loop) => !loop.settled), 'the two loops still hold their workers');
    scripts.dispose();
    for (const loop of holders) await assert.rejects(loop.promise, /the script sandbox has been shut down/);
  });

  test("a space's full queue refuses at once with a LimitError", async () => {
    const { pool: scripts, events } = pool({ workers: 1, perSpace: 1, queuePerSpace: 0 });
    const first = scripts.run(handle('while (true) {}'), call({ deadline: Date.now() + 500, timeoutMs: 500 }), 'busy');
    await assert.rejects(scripts.run(handle('return 1'), call(), 'busy'), (error: Error) => {
      assert.ok(error instanceof LimitError);
      assert.match(error.message, /too many scripts of this space are running or waiting/);
      return true;
    });
    await assert.rejects(first, TimeoutError);
    assert.deepEqual(events.rejected, ['queue-full']);
  });

  test('input and output beyond the data limits are LimitErrors naming the limit', async () => {
    const { pool: scripts } = pool();
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) deep = (deep.a = {}) as Record<string, unknown>;
    await assert.rejects(scripts.run(handle('return 1'), call({ input: root }), 's'), { name: 'LimitError', message: "the script's input nests deeper than 50 levels" });
    await assert.rejects(scripts.run(handle('let o = {}; const r = o; for (let i = 0; i < 5000; i++) o = o.a = {}; return r;'), call(), 's'), {
      name: 'LimitError',
      message: "the script's output nests deeper than 50 levels",
    });
    await assert.rejects(scripts.run(handle('return "x".repeat(30e6)'), call(), 's'), {
      name: 'LimitError',
      message: "the script's output is 30000002 characters of JSON, over the limit of 100000",
    });
    await assert.rejects(scripts.run(handle('return 1'), call({ input: { text: 'y'.repeat(200_000) } }), 's'), { name: 'LimitError', message: /input is 200011 characters/ });
  });

  test("a script that breaks the result protocol gets a fixed message, not the sandbox's internals", async () => {
    const { pool: scripts } = pool();
    await assert.rejects(scripts.run(handle('Array.prototype.toJSON = () => 5;\nreturn { list: [1, 2] };'), call(), 's'), (error: Error) => {
      assert.ok(error instanceof RuleError);
      assert.equal(error.message, "script: the script's result could not be read (did the script replace a built-in such as JSON or a prototype's toJSON?)");
      return true;
    });
  });

  test('dispose ends waiting and running scripts and every worker process', async () => {
    const { pool: scripts } = pool({ workers: 1, perSpace: 1 });
    // Dispose meets a running script (its loop has begun) and a waiting one, not a worker still starting.
    const started = startedSignal();
    const running = scripts.run(handle('await DR.solve("started", {});\nwhile (true) {}'), call({ solve: started.solve }), 's');
    const waiting = scripts.run(handle('return 1'), call(), 's');
    await started.all;
    assert.equal(scripts.waiting, 1);
    const pids = scripts.workerPids();
    assert.equal(pids.length, 1);
    scripts.dispose();
    await assert.rejects(waiting, /the script sandbox has been shut down/);
    await assert.rejects(running, /the script sandbox has been shut down/);
    // A running script fails only once its worker has exited (and been reaped): no process is left by now.
    assert.equal(scripts.size, 0);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });
});
