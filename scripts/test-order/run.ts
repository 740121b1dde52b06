// The test run of the suite runner (scripts/test-suite.ts) when no node:test option is given: node:test's run() on
// the files in the order given. `node --test` sorts its files by path whatever order they come in, so the longest-
// first order only holds through run(). Same as `node --test`: a process per file, the global setup, the spec
// report on stdout, exit code 1 when a test fails; and each file's duration written to TIMINGS_OUT.
//
//   node scripts/test-order/run.ts CONCURRENCY GLOBAL_SETUP TIMINGS_OUT FILE...
import { createWriteStream } from 'node:fs';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import timingsReporter from './timings-reporter.ts';

const [concurrency, globalSetupPath, timingsOut, ...files] = process.argv.slice(2);
if (concurrency === undefined || globalSetupPath === undefined || timingsOut === undefined || files.length === 0) {
  process.stderr.write('usage: node scripts/test-order/run.ts CONCURRENCY GLOBAL_SETUP TIMINGS_OUT FILE...\n');
  process.exit(2);
}

const controller = new AbortController();
// A stop from the suite runner cancels the run; the global teardown still stops the shared browser and broker.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => controller.abort());

// globalSetupPath is run()'s form of --test-global-setup (Node 24); @types/node does not list it yet.
const runOptions: NonNullable<Parameters<typeof run>[0]> & { globalSetupPath: string } = {
  files,
  concurrency: Number(concurrency),
  isolation: 'process',
  globalSetupPath,
  signal: controller.signal,
};
const stream = run(runOptions);
stream.on('test:summary', (data) => {
  // The run's own summary (no file) says whether everything passed.
  if (data.file === undefined && !data.success) process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
stream.compose(timingsReporter).pipe(createWriteStream(timingsOut));
