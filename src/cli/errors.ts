// How the `verdict` command fails: one line on stderr and an exit code a script can test
// (docs/decisions/cli-exit-codes.md). Commands throw these; main.ts turns every error into its line and code.
import { CommanderError } from 'commander';
import { classify } from '../service/errors.ts';
import { DatabaseSetupError } from '../store/ports.ts';

export const EXIT_OK = 0;
/** The rule, the input, or a file they come from is wrong. */
export const EXIT_FAILURE = 1;
/** The command line itself is wrong: unknown option, missing argument, bad option value. */
export const EXIT_USAGE = 2;

/** Bad usage that commander cannot see (e.g. a file holding several rules and no --rule). Exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A file or input that cannot be read or is not what it should be. Exit 1. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** The command ran, and what it checked did not pass (e.g. `verdict test` with a failing test). Exit 1. */
export class CheckFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckFailedError';
  }
}

export interface Failure {
  exitCode: number;
  /** The line to print on stderr, or undefined when commander already printed it. */
  line: string | undefined;
}

/** Maps anything a command throws to its exit code and its one line. Never includes a stack trace. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof CommanderError) {
    // Commander printed the message (or the help) already.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return { exitCode: EXIT_OK, line: undefined };
    if (error.code === 'commander.help') return { exitCode: error.exitCode === 0 ? EXIT_OK : EXIT_USAGE, line: undefined };
    return { exitCode: EXIT_USAGE, line: undefined };
  }
  if (error instanceof UsageError) return { exitCode: EXIT_USAGE, line: `verdict: ${error.message}` };
  if (error instanceof InputError || error instanceof CheckFailedError || error instanceof DatabaseSetupError) return { exitCode: EXIT_FAILURE, line: `verdict: ${oneLine(error.message)}` };
  // Every kind of the error catalog but `internal` is the rule's, the input's or the setup's: exit 1.
  const failure = classify(error);
  if (failure !== undefined && failure.kind !== 'internal') return { exitCode: EXIT_FAILURE, line: `verdict: ${oneLine(failure.message)}` };
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT_FAILURE, line: `verdict: internal error: ${oneLine(message)} (set VERDICT_DEBUG=1 for details)` };
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
