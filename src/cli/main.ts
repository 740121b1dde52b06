// `verdict`, the process: the command line itself is src/cli/program.ts; this file sets up what belongs to the
// process (the regexp engine flag, a closed stdout pipe) and ends it with the program's exit code.
import { setFlagsFromString } from 'node:v8';
import { runCli } from './program.ts';

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

// exitCode rather than process.exit(): stdout may still be draining into a pipe.
process.exitCode = await runCli(process.argv.slice(2));
