#!/usr/bin/env node
// `node bin/node24.js FILE.ts ARGS...`: run a TypeScript file of this checkout under Node 24, whatever Node runs
// this. The README allows any Node >= 18 on PATH and npm scripts use that one, but only Node 24 strips types, so
// an older Node re-runs the file under the Node 24 that scripts/env.sh finds or installs (the tools folder `./dev`
// uses). Plain JavaScript that Node 18 parses. bin/verdict.js uses it for the CLI; package.json for its scripts.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Runs `file` with `args` as if started as `node file args...`. */
export async function runUnderNode24(file, args) {
  const script = resolve(file);
  if (Number(process.versions.node.split('.')[0]) >= 24) {
    // Same process: the script sees the argv it would see when started directly.
    process.argv = [process.execPath, script, ...args];
    await import(pathToFileURL(script).href);
    return;
  }
  if (process.env.VERDICT_NODE24_REEXEC === '1') {
    // scripts/env.sh put a Node first on PATH that is still too old: stop instead of re-running forever.
    process.stderr.write(`verdict: ${script} needs Node 24 but scripts/env.sh left ${process.version} (${process.execPath}) first on PATH; put Node 24 first on PATH\n`);
    process.exit(1);
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  // `exec` makes the child Node 24 itself, not a shell in between, so the signals forwarded below reach it.
  const child = spawn('bash', ['-c', '. "$0/scripts/env.sh" && exec node "$@"', root, script, ...args], {
    stdio: 'inherit',
    env: { ...process.env, VERDICT_NODE24_REEXEC: '1' },
  });
  child.on('error', (err) => {
    process.stderr.write(`verdict: cannot run bash to find Node 24 for ${script} (${err.message}); put Node 24 first on PATH\n`);
    process.exit(1);
  });
  // `kill PID` names this process; pass the signal on so the real command (e.g. `verdict serve`) shuts down
  // gracefully instead of being orphaned. Ctrl-C reaches both through the terminal; serve ignores the duplicate.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => {
    if (signal) {
      // Die of the same signal, so the caller sees what the child saw.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, ...args] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bin/node24.js FILE.ts [ARGS...]\n');
    process.exit(2);
  }
  await runUnderNode24(file, args);
}
