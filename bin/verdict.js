#!/usr/bin/env node
// From a checkout, Node 24 runs the TypeScript sources directly; an installed package (Node does not strip types
// under node_modules) runs the compiled dist/ that `npm pack` builds.
//
// A checkout run by an older Node (the README allows any Node >= 18 on PATH; `npm run verdict` uses that one)
// cannot load the .ts sources, so it re-runs itself under Node 24 found or installed by scripts/env.sh, the same
// tools folder `./dev` uses. This file therefore stays plain JavaScript that Node 18 parses.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

if (existsSync(compiled) || major >= 24) {
  await import(existsSync(compiled) ? compiled.href : new URL('../src/cli/main.ts', import.meta.url).href);
} else {
  reRunUnderNode24();
}

function reRunUnderNode24() {
  if (process.env.VERDICT_NODE24_REEXEC === '1') {
    // scripts/env.sh put a Node first on PATH that is still too old: stop instead of re-running forever.
    process.stderr.write(`verdict: needs Node 24 to run from a checkout but got ${process.version} after scripts/env.sh (${process.execPath}); put Node 24 first on PATH\n`);
    process.exit(1);
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  const script = fileURLToPath(import.meta.url);
  // `exec` makes the child Node 24 itself, not a shell in between, so the signals forwarded below reach it.
  const child = spawn('bash', ['-c', '. "$0/scripts/env.sh" && exec node "$1" "${@:2}"', root, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, VERDICT_NODE24_REEXEC: '1' },
  });
  child.on('error', (err) => {
    process.stderr.write(`verdict: cannot run bash to find Node 24 for this checkout (${err.message}); run ". scripts/env.sh" first or put Node 24 on PATH\n`);
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
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
