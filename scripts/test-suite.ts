// `npm run test:unit` (the last step of `npm test` and `./dev test`): every test file under test/ through
// node:test, each file in its own process, with what the run shares set up once (test/global-setup.ts).
//
//   node scripts/test-suite.ts [--concurrency N] [node:test options] [FILES...]
//
// FILES (paths or globs) default to every test/**/*.test.ts; options starting with `--` (--test-name-pattern=...,
// --test-reporter=...) are passed to node:test. The files start longest first (scripts/test-order/order.ts), and a
// run without options records each file's duration for the next run's order. Environment:
//   NODE_COMPILE_CACHE      Node's on-disk cache of compiled modules, TypeScript stripping included, inherited by
//                           every test file and every `verdict` process a test starts (default: a folder under
//                           node_modules/.cache). It cuts a CLI start from about 0.6 s of CPU to 0.2 s.
//   TEST_CONCURRENCY        test files at once (default: the number of cores, at least 2).
import { spawn } from 'node:child_process';
import { globSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { longestFirst, readSlowList, readTimings, slowListFile, timingsFile } from './test-order/order.ts';
import { KEYCLOAK_RUN_ENV, KEYCLOAK_SUITES, STUDIO_RUN_ENV } from '../test/run-env.ts';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

function concurrencyOf(args: string[]): number {
  const index = args.indexOf('--concurrency');
  const given = index >= 0 ? args.splice(index, 2)[1] : process.env.TEST_CONCURRENCY;
  // One file more than cores: most suites spend part of their time waiting on a browser, a broker or a server
  // process, so a third file on two cores keeps them busy (a full run: 637 s at 2, 507 s at 3, docs/decisions).
  if (given === undefined || given === '') return availableParallelism() + 1;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`test-suite: the concurrency must be a positive integer (got "${given}")\n`);
    process.exit(2);
  }
  return n;
}

const args = process.argv.slice(2);
const concurrency = concurrencyOf(args);
const options = args.filter((arg) => arg.startsWith('--'));
const given = args.filter((arg) => !arg.startsWith('--'));
const files = given.length > 0 ? given : ['test/**/*.test.ts'];
// Globs are expanded here (node:test would expand them in its own order) so the files can be ordered.
const expanded = [...new Set(files.flatMap((file) => (/[*?[{]/.test(file) ? globSync(file, { cwd: root }).sort() : [file])))];
if (expanded.length === 0) {
  // node:test given no file would run its default set instead.
  process.stderr.write(`test-suite: no test file matches ${files.join(' ')}\n`);
  process.exit(2);
}
const ordered = longestFirst(expanded, readTimings(timingsFile(root)), readSlowList(slowListFile(root)));

const env = { ...process.env };
env.NODE_COMPILE_CACHE ||= join(root, 'node_modules', '.cache', 'verdict-node-compile');
// The global setup builds the Studio and starts the shared Chromium only for a run that can include Studio suites.
env[STUDIO_RUN_ENV] = ordered.some((file) => file.includes('studio')) ? 'true' : 'false';
// ... and starts the test Keycloak (about 40 s) in the background only for a run that can include its suites.
env[KEYCLOAK_RUN_ENV] = ordered.some((file) => KEYCLOAK_SUITES.test(file)) ? 'true' : 'false';

// A plain run (no filter, no reporter of the caller's) runs the files in order and reports each file's duration to a
// temporary file, merged into the timings after the run: a filtered run's durations would misstate the lengths.
const timingsOut = options.length === 0 ? join(mkdtempSync(join(tmpdir(), 'verdict-test-timings-')), 'timings.json') : undefined;

/** Merges the run's durations into the stored timings (files not in this run keep theirs). Never fails the run. */
function saveTimings(): void {
  if (timingsOut === undefined) return;
  try {
    const measured = readTimings(timingsOut);
    if (Object.keys(measured).length > 0) {
      const path = timingsFile(root);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${JSON.stringify({ ...readTimings(path), ...measured }, null, 1)}\n`);
    }
  } catch (error) {
    process.stderr.write(`test-suite: the files' timings were not saved: ${(error as Error).message}\n`);
  } finally {
    rmSync(dirname(timingsOut), { recursive: true, force: true });
  }
}

const globalSetup = join(root, 'test', 'global-setup.ts');
// `node --test` sorts the files by path: the ordered run goes through node:test's run() (scripts/test-order/run.ts),
// and a run with the caller's options (filters, reporters), which needs no order, through `node --test`.
const child = spawn(
  process.execPath,
  timingsOut === undefined
    ? ['--test', `--test-concurrency=${concurrency}`, `--test-global-setup=${globalSetup}`, ...options, ...ordered]
    : [join(root, 'scripts', 'test-order', 'run.ts'), String(concurrency), globalSetup, timingsOut, ...ordered],
  { cwd: root, env, stdio: 'inherit' },
);
// Ctrl-C reaches the runner through the terminal; a `kill` of this process is passed on, so the runner's global
// teardown stops the shared browser and broker.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => {
  saveTimings();
  process.exit(code ?? (signal === null ? 1 : 128));
});
