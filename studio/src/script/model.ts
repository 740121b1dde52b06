// Scripting rules (`complex-rule`, spec/rule-format.md §6) as the Studio handles them, without the DOM: the blank
// rule, the server's script problems by line, the console lines of a bench run, and what a stopped script means.
import type { Problem } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';

/** A new scripting rule that saves as it is and shows the API at work. */
export function blankScript(name: string): RuleDocument {
  return {
    type: 'complex-rule',
    name,
    status: 'pending',
    inputSchema: { amount: {} },
    outputSchema: { result: {} },
    script: [
      '// input is the request data; fill output and return it.',
      "// DR.solve('rule-alias', data) solves another rule of this space; log(...) prints to the bench console.",
      "log('amount', input.amount);",
      'output.result = input.amount * 2;',
      'return output;',
      '',
    ].join('\n'),
  };
}

/** The server's problems with the script (path `script`), at the line its message names ("line 3: …"). */
export function scriptProblems(problems: readonly Problem[]): { line?: number; message: string }[] {
  return problems
    .filter((p) => p.path === 'script' || p.path.startsWith('script.'))
    .map((p) => {
      const line = /^line (\d+): /.exec(p.message);
      return line ? { line: Number(line[1]), message: p.message } : { message: p.message };
    });
}

/**
 * The console of a run: the trace of a script solve is its log lines (§10.1); a bulk run has one list per input.
 * `input` is the 0-based input of a bulk run, null for a single input.
 */
export function consoleLines(trace: unknown): { input: number | null; lines: string[] }[] {
  if (!Array.isArray(trace)) return [];
  if (trace.length > 0 && trace.every(Array.isArray)) {
    return trace.map((lines, input) => ({ input, lines: (lines as unknown[]).map(String) }));
  }
  return [{ input: null, lines: trace.map(String) }];
}

/** What a person should do about a script the sandbox stopped; undefined for other errors (their message says it). */
export function explainScriptError(message: string): string | undefined {
  const time = /exceeded the time limit of (\d+) ms/.exec(message);
  if (time) {
    return `The script was stopped after ${time[1]} ms, the server's time limit for one solve (RULE_TIMEOUT_MS), which includes the rules it calls. Look for a loop that never ends, or a DR.solve or DR.http call that takes too long. Its log lines are lost with it.`;
  }
  if (/memory limit/.test(message)) {
    return 'The script was stopped because it used more memory than the sandbox allows (SCRIPT_MEMORY_MB per script, SCRIPT_SOLVE_MEMORY_MB per solve). Look for an array, object or string that keeps growing, for instance in a loop that never ends.';
  }
  return undefined;
}
