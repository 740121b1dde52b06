// The `verdict` command line (SPEC §6). A thin adapter: each subcommand parses its arguments and calls the
// engine or the service; every failure ends as one line on stderr and exit code 1 (rule/input) or 2 (usage).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Command } from 'commander';
import { describeFailure } from './errors.ts';

// Rule authors write regular expressions (TEST, MATCH, REPLACE, SPLIT). V8's backtracking engine can spend
// exponential time on patterns like `(a+)+$`; with this flag it falls back to its linear-time engine instead, so
// no rule can hang the process. Set before any rule is compiled; it affects only this process.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

// `verdict solve … | head` closes the pipe early; that is the reader's choice, not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

/** What every module under commands/ exports. Subcommands are added with `program.command(name)` so they
 * inherit the error handling configured below. */
export interface CommandModule {
  register(program: Command): void;
}

// Registering a command is one line here: add `() => import('./commands/<name>.ts'),` to this list.
// Keep heavy imports (fastify, kafka, isolated-vm) inside the command's action so `verdict solve` starts fast.
const COMMANDS: ReadonlyArray<() => Promise<CommandModule>> = [
  () => import('./commands/solve.ts'),
  () => import('./commands/serve.ts'),
  () => import('./commands/space.ts'),
  () => import('./commands/key.ts'),
  () => import('./commands/import.ts'),
  () => import('./commands/rule.ts'),
  () => import('./commands/export.ts'),
  () => import('./commands/audit.ts'),
  () => import('./commands/kafka.ts'),
  () => import('./commands/lint.ts'),
  () => import('./commands/test.ts'),
];

/** Commander puts its "did you mean" hint on a second line; a usage error is one line. */
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

async function main(argv: string[]): Promise<number> {
  const program = new Command('verdict')
    .description('Verdict: a self-hosted rule solver, wire-compatible with the DecisionRules Solver API')
    .version(packageVersion(), '-V, --version')
    .showSuggestionAfterError(true)
    // Program options (-V/--version) only before a subcommand, so `verdict rule publish X --version 2` reaches the
    // subcommand's own --version instead of printing the program version.
    .enablePositionalOptions()
    // Throw instead of exiting so the exit code is decided in one place; usage errors print as one line.
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`verdict: ${oneLine(text.replace(/^error: /, ''))}\n`) });
  for (const load of COMMANDS) (await load()).register(program);
  try {
    await program.parseAsync(argv);
    // A command may report its result as an exit code (`verdict lint` exits 1 when it finds a defect).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    const failure = describeFailure(error);
    if (failure.line !== undefined) process.stderr.write(`${failure.line}\n`);
    if (process.env.VERDICT_DEBUG === '1' && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return failure.exitCode;
  }
}

// exitCode rather than process.exit(): stdout may still be draining into a pipe.
process.exitCode = await main(process.argv);
