// `verdict lint RULE.json [--json]`: static analysis of a decision table (unreachable rows, overlaps, gaps,
// contradictions, duplicates, type mismatches). Exit 1 when a defect (unreachable, contradiction, type) is found,
// 0 otherwise; overlaps and gaps may be intended. The analysis loads when the command runs.
import type { Command } from 'commander';
import { parseTimeZone } from '../solve-options.ts';
import type { LintCommandOptions } from '../lint-file.ts';

export function register(program: Command): void {
  program
    .command('lint')
    .description('analyse a decision table: unreachable rows, overlaps, gaps, contradictions, duplicates, type mismatches')
    .argument('<rule>', 'rule file: one rule, a rule-flow export (array) or a folder export')
    .option('--json', 'print the report as JSON: {"findings": [...], "undecided": {...}, "omitted": {...}}')
    .option('--rule <idOrAlias>', 'which decision table of a file holding several to analyse')
    .option('--timezone <zone>', 'IANA time zone for date cells without an offset (default: $TIMEZONE or UTC)', parseTimeZone)
    .addHelpText(
      'after',
      `
Examples:
  verdict lint pricing.json
  verdict lint folder-export.json --rule segmentation --json

Exit codes: 0 no defect (overlaps and gaps may be intended), 1 an unreachable row, a contradiction or a type
mismatch was found (or the rule file is invalid), 2 bad usage (including a rule that is not a decision table).`,
    )
    .action(async (rulePath: string, options: LintCommandOptions) => {
      const { runLint, formatReport } = await import('../lint-file.ts');
      const { report, label, defects } = await runLint(rulePath, options);
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, label));
      // The report is the command's result: main.ts keeps this exit code.
      if (defects) process.exitCode = 1;
    });
}
