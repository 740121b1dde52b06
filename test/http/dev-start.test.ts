// `./dev start` stops its server when its PID gets SIGTERM or SIGINT (Ctrl-C): the process the README's user
// sees is the server itself, so nothing keeps serving the port afterwards (no node orphaned under a dead npm).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { withServices } from '../../src/server/one-shot.ts';
import { call, eventually } from './harness.ts';
import { heldRule, processesWithEnv, ROOT, spawnUntilListening, START_GUARD_MS } from './process.ts';

/**
 * Whether anything still answers HTTP at `url`. A stopped server refuses the connection at once; the guard is for
 * a live one, which on a loaded machine may take seconds to answer.
 */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/health-check`, { signal: AbortSignal.timeout(60_000) });
    return true;
  } catch {
    return false;
  }
}

// STUDIO_ENABLED=false: these tests are about the process, and a Studio build started here would rewrite the
// checkout's studio/dist under other suites that serve it (the build decision is tested in studio-stale.test.ts).
describe('./dev start', () => {
  let backend: Backend;
  before(() => {
    backend = sqliteBackend();
  });
  after(() => backend.cleanup());

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} to the PID of ./dev start stops the server and leaves no process behind`, { timeout: START_GUARD_MS + 120_000 }, async () => {
      const env = { ...process.env, DATABASE_URL: backend.url, VERDICT_SEED_EXAMPLES: 'false', STUDIO_ENABLED: 'false' };
      const dev = await spawnUntilListening(join(ROOT, 'dev'), ['start'], env);
      try {
        assert.equal(await answers(dev.url), true, `the server did not answer at ${dev.url}`);
        assert.ok(processesWithEnv('DATABASE_URL', backend.url).length > 0, 'the server process is not visible in /proc');
        const exited = once(dev.child, 'exit');
        dev.child.kill(signal);
        const [code] = (await exited) as [number | null];
        assert.equal(code, 0, `./dev start exited with ${code} on ${signal}\nstderr:\n${dev.stderr()}`);
        assert.match(dev.stdout(), /"msg":"stopped"/, 'the server did not shut down gracefully');
        assert.equal(await answers(dev.url), false, `${dev.url} still answers after ${signal}`);
        await eventually(async () => (processesWithEnv('DATABASE_URL', backend.url).length === 0 ? true : undefined)).catch(() => {
          assert.fail(`processes still running with DATABASE_URL=${backend.url}: ${processesWithEnv('DATABASE_URL', backend.url).join(', ')}`);
        });
      } finally {
        await dev.stop();
      }
    });
  }

  test('Ctrl-C under a wrapper delivers SIGINT twice (terminal and forwarded): the in-flight request still finishes', { timeout: START_GUARD_MS + 120_000 }, async () => {
    const held = await heldRule();
    const env = { ...process.env, DATABASE_URL: backend.url, VERDICT_SEED_EXAMPLES: 'false', STUDIO_ENABLED: 'false', ...held.env };
    const dev = await spawnUntilListening(join(ROOT, 'dev'), ['start'], env);
    try {
      // The earlier tests created the space "default"; a fresh key of it solves the held script rule. Written by
      // another process than the server's, as the CLI would (withServices is what its commands use).
      const solverKey = await withServices(async (services) => {
        await services.rulesIO.importContainer('default', [held.rule]);
        return (await services.keys.create('default', 'solver')).key;
      }, { DATABASE_URL: backend.url });
      await eventually(async () => ((await call(dev.url, 'POST', '/rule/solve/held', { key: solverKey, body: { data: {} } })).status === 200 ? true : undefined));

      const inFlight = call(dev.url, 'POST', '/rule/solve/held', { key: solverKey, body: { data: { hold: true } } });
      await held.arrived;
      const exited = once(dev.child, 'exit');
      dev.child.kill('SIGINT');
      // The second arrives while the server waits for the request (two sent at once would merge into one signal).
      await eventually(async () => (/"msg":"shutting down"/.test(dev.stdout()) ? true : undefined));
      dev.child.kill('SIGINT');
      // Both signals are in; the request has been in flight all along and may finish now.
      held.release();
      const reply = await inFlight;
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, [{ done: true }]);
      const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, dev.stderr());
      assert.match(dev.stdout(), /"msg":"stopped"/);
    } finally {
      await dev.stop();
      await held.close();
    }
  });
});
