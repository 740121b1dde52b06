// Runs a command while busy processes keep every core saturated, as on a CI machine running other work: the
// test suite must pass there too (`npm run test:stress` runs `npm test` this way).
//
//   node scripts/with-load.ts [--hogs N] [--times K] [-- COMMAND [ARGS...]]
//
// The command defaults to `npm test` (so `npm run test:stress -- --times 3` is three stressed runs of the suite).
// --hogs N    busy processes, each one endless loop at normal priority (default: one per core). Against N hogs
//             on C cores the command gets about C/(N+its own processes) of the machine.
// --times K   run the command K times in a row, stopping at the first failure (default 1).
// Prints the load average and each run's wall time; the exit code is the failing run's, or 0.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';

function usage(message: string): never {
  process.stderr.write(`with-load: ${message}\nusage: node scripts/with-load.ts [--hogs N] [--times K] [-- COMMAND [ARGS...]]\n`);
  process.exit(2);
}

function positive(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) usage(`${name} must be a positive integer (got "${value ?? ''}")`);
  return n;
}

const argv = process.argv.slice(2);
const separator = argv.indexOf('--');
if (separator === argv.length - 1) usage('no command given after --');
const own = separator < 0 ? argv : argv.slice(0, separator);
const [command, ...commandArgs] = (separator < 0 ? ['npm', 'test'] : argv.slice(separator + 1)) as [string, ...string[]];
let hogCount = availableParallelism();
let times = 1;
for (let i = 0; i < own.length; i += 2) {
  if (own[i] === '--hogs') hogCount = positive('--hogs', own[i + 1]);
  else if (own[i] === '--times') times = positive('--times', own[i + 1]);
  else usage(`unknown option ${own[i]}`);
}

const hogs: ChildProcess[] = [];
let current: ChildProcess | undefined;

function stopHogs(): void {
  for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    stopHogs();
    current?.kill(signal);
    process.exit(130);
  });
}
process.on('exit', stopHogs);

for (let i = 0; i < hogCount; i++) {
  hogs.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

function run(): Promise<number> {
  return new Promise((resolve) => {
    current = spawn(command, commandArgs, { stdio: 'inherit' });
    current.on('error', (error) => {
      process.stderr.write(`with-load: cannot run ${command}: ${error.message}\n`);
      resolve(127);
    });
    current.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

const minutes = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
};
const walls: string[] = [];
let exitCode = 0;
for (let n = 1; n <= times; n++) {
  process.stderr.write(`with-load: run ${n} of ${times} beside ${hogCount} busy processes on ${availableParallelism()} cores: ${[command, ...commandArgs].join(' ')}\n`);
  const started = Date.now();
  exitCode = await run();
  const wall = Date.now() - started;
  walls.push(minutes(wall));
  process.stderr.write(`with-load: run ${n} ${exitCode === 0 ? 'passed' : `failed (exit ${exitCode})`} in ${minutes(wall)}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  if (exitCode !== 0) break;
}
stopHogs();
process.stderr.write(`with-load: ${exitCode === 0 ? `${times} of ${times} passed` : 'stopped at a failure'}; wall times ${walls.join(', ')}\n`);
process.exit(exitCode);
