// `./dev start` stops its server when its PID gets SIGTERM or SIGINT (Ctrl-C): the process the README's user
// sees is the server itself, so nothing keeps serving the port afterwards (no node orphaned under a dead npm).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { eventually } from './harness.ts';
import { ROOT, processesWithEnv, spawnUntilListening } from './process.ts';

/** Whether anything still answers HTTP at `url`. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/health-check`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

describe('./dev start', () => {
  let backend: Backend;
  before(() => {
    backend = sqliteBackend();
  });
  after(() => backend.cleanup());

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} to the PID of ./dev start stops the server and leaves no process behind`, { timeout: 60_000 }, async () => {
      const env = { ...process.env, DATABASE_URL: backend.url, VERDICT_SEED_EXAMPLES: 'false' };
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
});
