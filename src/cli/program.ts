// The `verdict` command line (SPEC §6) without the process around it: main.ts runs it for `verdict …` on the
// process's streams. A thin adapter: each subcommand parses its arguments and calls the engine or the service;
// every failure ends as one line on stderr and exit code 1 (rule/input) or 2 (usage).
import { Command } from 'commander';
import { describeFailure } from './errors.ts';
import { packageVersion } from '../version.ts';

/** What every module under commands/ exports. Subcommands are added with `program.command(name)` so they
 * inherit the error handling configured below. */
export interface CommandModule {
  register(program: Command): void;
}

/** Where the program writes its help, usage errors and failure lines (the process's stdout and stderr). */
export interface CliOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

export const PROCESS_OUTPUT: CliOutput = {
  writeOut: (text) => void process.stdout.write(text),
  writeErr: (text) => void process.stderr.write(text),
};

// Registering a command is one line here: `<name>: () => import('./commands/<name>.ts'),`, where <name> is the
// command the module registers. Keep heavy imports (fastify, kafka, isolated-vm) inside the command's action so
// `verdict solve` starts fast.
const COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  solve: () => import('./commands/solve.ts'),
  serve: () => import('./commands/serve.ts'),
  space: () => import('./commands/space.ts'),
  key: () => import('./commands/key.ts'),
  import: () => import('./commands/import.ts'),
  convert: () => import('./commands/convert.ts'),
  rule: () => import('./commands/rule.ts'),
  export: () => import('./commands/export.ts'),
  audit: () => import('./commands/audit.ts'),
  kafka: () => import('./commands/kafka.ts'),
  lint: () => import('./commands/lint.ts'),
  test: () => import('./commands/test.ts'),
  mcp: () => import('./commands/mcp.ts'),
  user: () => import('./commands/user.ts'),
  job: () => import('./commands/job.ts'),
};

/**
 * The command modules `args` needs: only the named command's when the first argument names one (every start of
 * `verdict solve …` then skips loading the other ten), else all of them (`verdict --help`, `verdict help X`, and a
 * mistyped command, which gets a "did you mean").
 */
function commandsFor(args: readonly string[]): Array<() => Promise<CommandModule>> {
  const first = args[0];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? [COMMANDS[first]!] : Object.values(COMMANDS);
}

/** Commander puts its "did you mean" hint on a second line; a usage error is one line. */
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

/** The program with the commands `args` (the arguments after `verdict`) needs, writing to `output`. */
export async function cliProgram(args: readonly string[], output: CliOutput = PROCESS_OUTPUT): Promise<Command> {
  const program = new Command('verdict')
    .description('Verdict: a self-hosted rule solver, wire-compatible with the DecisionRules Solver API')
    .version(packageVersion(), '-V, --version')
    .showSuggestionAfterError(true)
    // Program options (-V/--version) only before a subcommand, so `verdict rule publish X --version 2` reaches the
    // subcommand's own --version instead of printing the program version.
    .enablePositionalOptions()
    // Throw instead of exiting so the exit code is decided in one place; usage errors print as one line.
    .exitOverride()
    .configureOutput({
      writeOut: output.writeOut,
      writeErr: output.writeErr,
      outputError: (text, write) => write(`verdict: ${oneLine(text.replace(/^error: /, ''))}\n`),
    });
  for (const load of commandsFor(args)) (await load()).register(program);
  return program;
}

/** Runs `program` on `args` (the arguments after `verdict`) and answers the exit code; failures are written as one line. */
export async function runProgram(program: Command, args: readonly string[], output: CliOutput = PROCESS_OUTPUT): Promise<number> {
  try {
    await program.parseAsync([...args], { from: 'user' });
    // A command may report its result as an exit code (`verdict lint` exits 1 when it finds a defect).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    const failure = describeFailure(error);
    if (failure.line !== undefined) output.writeErr(`${failure.line}\n`);
    if (process.env.VERDICT_DEBUG === '1' && error instanceof Error && error.stack) output.writeErr(`${error.stack}\n`);
    return failure.exitCode;
  }
}

/** `verdict ARGS…`: the exit code. */
export async function runCli(args: readonly string[], output: CliOutput = PROCESS_OUTPUT): Promise<number> {
  return runProgram(await cliProgram(args, output), args, output);
}
