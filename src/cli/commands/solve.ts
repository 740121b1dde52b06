// `verdict solve RULE.json [INPUT.json | -]`: solve a rule file locally, without a server or a store.
// Only the command line is defined here; the engine loads when the command runs, so --help and usage errors
// answer at once.
import type { Command } from 'commander';
import { LOOKUP_METHODS, STRATEGIES } from '../../engine/types.ts';
import type { SolveCommandOptions } from '../solve-file.ts';
import { choice, DEFAULT_TIMEOUT_MS, list, parseNow, parseTimeZone, positiveInteger } from '../solve-options.ts';

export function register(program: Command): void {
  program
    .command('solve')
    .description('solve a rule file locally (no server) and print the result JSON')
    .argument('<rule>', 'rule file: one rule, a rule-flow export (array), a folder export, a GoRules JDM graph or a .dmn model')
    .argument('[input]', 'input JSON file, or - to read stdin; an array of objects is a bulk solve (default: {})')
    .option('-s, --strategy <strategy>', `decision tables: ${STRATEGIES.join(', ')}`, choice('strategy', STRATEGIES))
    .option('--include <columns>', 'evaluate only these condition columns (input paths or column aliases, comma-separated)', list, [])
    .option('--exclude <columns>', 'skip these condition columns (ignored when --include is given)', list, [])
    .option('--lookup-method <method>', `lookup tables: ${LOOKUP_METHODS.join(' or ')}`, choice('lookup method', LOOKUP_METHODS))
    .option('--decisions <names>', 'DMN models: answer only these decisions (comma-separated names)', (value: string, previous: string[] | undefined) => list(value, previous ?? []))
    .option('--decision-service <name>', 'DMN models: evaluate this decision service')
    .option('--null-on-error', 'DMN models: an evaluation error makes its value null (DMN semantics) instead of failing')
    .option('--debug', 'print {"result": …, "trace": […]} with the evaluation trace')
    .option('--rules <dir>', 'directory of rule files the rule may call (SOLVE, LOOKUP_*, flows); repeatable', (dir: string, all: string[]) => [...all, dir], [])
    .option('--rule <idOrAlias>', 'which rule of a file holding several to solve')
    .option('--now <iso>', 'solve time as ISO-8601 (row validity, NOW(), partial dates); default: the clock', parseNow)
    .option('--timezone <zone>', 'IANA time zone for dates without an offset (default: $TIMEZONE or UTC)', parseTimeZone)
    .option('--timeout <ms>', `evaluation time limit in milliseconds (default: $RULE_TIMEOUT_MS or ${DEFAULT_TIMEOUT_MS})`, positiveInteger)
    .addHelpText(
      'after',
      `
Examples:
  verdict solve pricing.json input.json
  echo '{"segmentCode":"WEU"}' | verdict solve segment.json - --strategy EVALUATE_ALL
  verdict solve folder-export.json input.json --rule segmentation
  verdict solve flow.json input.json --rules ./rules --debug
  verdict solve loan.dmn applicant.json --decisions Risk --rules ./imported-models

Exit codes: 0 solved, 1 rule or input error, 2 bad usage.`,
    )
    .action(async (rulePath: string, inputPath: string | undefined, options: SolveCommandOptions, command: Command) => {
      const { runSolve } = await import('../solve-file.ts');
      // The result and the warnings go where the program writes its help and errors: the process's stdout and
      // stderr for `verdict` (src/cli/program.ts), strings when the tests run the program in their own process.
      const out = command.configureOutput();
      const output = await runSolve(rulePath, inputPath, options, (line) => out.writeErr!(line));
      out.writeOut!(`${JSON.stringify(output, null, 2)}\n`);
    });
}
