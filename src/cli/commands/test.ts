// `verdict test`: run rule tests for CI. Against the store: `verdict test --space S [--rule R] [--version N]`
// (DATABASE_URL as the other store commands). Offline, no server and no database: `verdict test RULE.json
// [TESTS.json] [--rules DIR]`. Exit 0 when every test passes, 1 when any fails or errs, 2 on bad usage.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { Command, OutputConfiguration } from 'commander';
import { VERSION_RANGE, versionFromText } from '../../rules/bounds.ts';
import type { RuleTestRunRecord } from '../../store/ports.ts';
import { CheckFailedError, InputError, UsageError } from '../errors.ts';
import { REPORTERS, report, summaryLine, totals } from '../test-reporters.ts';
import type { ReportedRun, ReporterName } from '../test-reporters.ts';
import { positiveInteger } from '../solve-options.ts';
import { storeCommand } from './space.ts';

interface TestOptions {
  space?: string;
  rule?: string;
  version?: string;
  rules: string[];
  reporter: ReporterName;
  output?: string;
  timeout?: number;
}

function reporter(value: string): ReporterName {
  const name = value.trim().toLowerCase();
  if (!(REPORTERS as readonly string[]).includes(name)) throw new InvalidArgumentError(`unknown reporter "${value}" (expected ${REPORTERS.join(', ')})`);
  return name as ReporterName;
}

async function storedRuns(options: TestOptions & { space: string }): Promise<ReportedRun[]> {
  const version = options.version === undefined ? undefined : versionFromText(options.version);
  if (options.version !== undefined && version === undefined) throw new UsageError(`--version "${options.version}" must be ${VERSION_RANGE}`);
  if (version !== undefined && options.rule === undefined) throw new UsageError('--version needs --rule: which rule\'s version to test');
  const { ServiceError } = await import('../../service/errors.ts');
  return storeCommand(async (services) => {
    await services.spaces.require(options.space);
    let runs: RuleTestRunRecord[];
    try {
      runs = options.rule === undefined
        ? (await services.ruleTests.runSpace(options.space)).runs
        : [await services.ruleTests.runRule(options.space, options.rule, version)];
    } catch (err) {
      if (err instanceof ServiceError && err.kind !== 'internal') throw new InputError(`${err.message} (space "${options.space}")`);
      throw err;
    }
    const aliases = new Map((await services.ruleTests.listAll(options.space)).map((r) => [r.ruleId, r.ruleAlias]));
    return runs.map((run) => ({ label: `${aliases.get(run.ruleId) || run.ruleId} v${run.version}`, results: run.results }));
  });
}

/** `out` is the program's output: the process's stdout and stderr for `verdict` (src/cli/program.ts). */
async function execute(rulePath: string | undefined, testsPath: string | undefined, options: TestOptions, out: OutputConfiguration): Promise<void> {
  const writeOut = (text: string) => out.writeOut!(text);
  const writeErr = (text: string) => out.writeErr!(text);
  if (options.space !== undefined && rulePath !== undefined) throw new UsageError('give --space (tests stored in a space) or RULE.json [TESTS.json] (offline), not both');
  if (options.space === undefined && rulePath === undefined) throw new UsageError('give --space S to run stored tests, or RULE.json [TESTS.json] to run offline');
  if (options.space === undefined && options.version !== undefined) throw new UsageError('--version works with --space; offline, the rule file decides the version');
  if (options.space !== undefined && options.rules.length > 0) throw new UsageError('--rules DIR is for offline runs; with --space the rules come from the space');
  let runs: ReportedRun[];
  if (options.space !== undefined) {
    runs = await storedRuns({ ...options, space: options.space });
  } else {
    const { runOfflineTests } = await import('../test-file.ts');
    runs = await runOfflineTests(rulePath!, testsPath, { rules: options.rules, rule: options.rule, timeout: options.timeout, warn: writeErr });
  }
  const text = report(options.reporter, runs);
  const counts = totals(runs);
  if (options.output !== undefined) {
    try {
      // A report folder that CI collects (test-results/, reports/junit/) often does not exist yet.
      await mkdir(dirname(options.output), { recursive: true });
      await writeFile(options.output, text);
    } catch (err) {
      throw new InputError(`cannot write ${options.output}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    writeOut(`${summaryLine(counts)}\n`);
  } else {
    writeOut(text);
  }
  if (counts.tests === 0) writeErr('verdict: warning: no tests ran\n');
  if (counts.failed + counts.errors > 0) throw new CheckFailedError(`${counts.failed + counts.errors} of ${counts.tests} tests did not pass`);
}

export function register(program: Command): void {
  program
    .command('test')
    .description('run rule tests: stored in a space (--space), or offline from files (RULE.json [TESTS.json])')
    .argument('[rule]', 'offline: a rule file (one rule, a rule-flow export or a folder export)')
    .argument('[tests]', 'offline: {"tests": [...]} or {"suites": [{"name", "tests": [...]}]} (default: the rule\'s "testSuites" from a Verdict export)')
    .option('--space <space>', 'run the tests stored in this space (DATABASE_URL)')
    .option('--rule <idOrAlias>', 'only this rule (with --space), or which rule of a file holding several (offline)')
    .option('--version <n>', 'with --space and --rule: the version to test (default: the latest, whatever its status)')
    .option('--rules <dir>', 'offline: directory of rule files the rule may call (SOLVE, LOOKUP_*, flows); repeatable', (dir: string, all: string[]) => [...all, dir], [])
    .option('--reporter <name>', `report format: ${REPORTERS.join(', ')}`, reporter, 'spec' as ReporterName)
    .option('--output <file>', 'write the report to this file (a summary line goes to stdout)')
    .option('--timeout <ms>', 'offline: evaluation time limit per test in milliseconds (default: $RULE_TIMEOUT_MS or 5000)', positiveInteger)
    .addHelpText(
      'after',
      `
Examples:
  verdict test rules/pricing.json rules/pricing.tests.json --reporter junit --output junit.xml
  verdict test flow.json flow.tests.json --rules ./rules
  verdict test --space default --rule pricing --version 3

Exit codes: 0 every test passed, 1 a test failed or errored (or a rule or file is wrong), 2 bad usage.`,
    )
    .action((rulePath: string | undefined, testsPath: string | undefined, options: TestOptions, command: Command) =>
      execute(rulePath, testsPath, options, command.configureOutput()));
}
