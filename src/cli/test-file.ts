// `verdict test RULE.json [TESTS.json]` offline: no server, no database. The rule file is loaded as `verdict solve`
// loads it (--rule, --rules DIR), the tests come from TESTS.json or, without it, from the `testSuites` a Verdict
// export carries, and each test is judged by the same runner and comparison as on the server.
import { basename } from 'node:path';
import { LimitError, RuleError, TimeoutError, ValidationError, solve } from '../engine/index.ts';
import type { Problem } from '../engine/errors.ts';
import type { CompiledRule, Json, ScriptSandbox, SolveOptions } from '../engine/types.ts';
import { joinPaths } from '../rules/containers.ts';
import type { ContainerEntry } from '../rules/containers.ts';
import { readSuites, readTestsFile } from '../service/rule-tests/definitions.ts';
import type { SuiteDefinition } from '../service/rule-tests/definitions.ts';
import { TEST_SUITES_FIELD } from '../service/rule-tests/portable.ts';
import { runTests, TestSolveError } from '../service/rule-tests/runner.ts';
import type { RunnableTest, TestSolver } from '../service/rule-tests/runner.ts';
import { normaliseStrategy, supportedStrategy } from '../engine/context.ts';
import { InputError, UsageError } from './errors.ts';
import { readJsonFile } from './folder-resolver.ts';
import type { FolderResolver } from './folder-resolver.ts';
import { compileEntry, envTimeout, openRuleFile, sandboxFor, selectRule } from './solve-file.ts';
import type { Warn } from './solve-file.ts';
import type { ReportedRun } from './test-reporters.ts';

export interface OfflineTestOptions {
  rules: string[];
  rule?: string;
  timezone?: string;
  timeout?: number;
  /** Where warnings go (default stderr). */
  warn?: Warn;
}

function problemsText(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.path || '(file)'}: ${p.message}`).join('; ');
}

async function suitesOf(testsPath: string | undefined, rulePath: string, carried: unknown, carriedAt: string): Promise<SuiteDefinition[]> {
  const problems: Problem[] = [];
  if (testsPath === undefined) {
    if (carried === undefined) {
      throw new UsageError(`${rulePath} carries no "${TEST_SUITES_FIELD}"; give the tests file too: verdict test ${rulePath} TESTS.json`);
    }
    const suites = readSuites(carried, joinPaths(carriedAt, TEST_SUITES_FIELD), problems);
    if (problems.length > 0) throw new InputError(`${rulePath} has invalid tests (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problemsText(problems)}`);
    return suites;
  }
  const suites = readTestsFile(await readJsonFile(testsPath), basename(testsPath).replace(/\.json$/i, ''), problems);
  if (problems.length > 0) throw new InputError(`${testsPath} is not a valid tests file (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problemsText(problems)}`);
  return suites;
}

/**
 * Runs the tests offline. With TESTS.json: the rule the file holds (or --rule). Without it: every rule of the file
 * that carries `testSuites` (one rule, or a whole space exported by `verdict export`), unless --rule picks one.
 */
export async function runOfflineTests(rulePath: string, testsPath: string | undefined, options: OfflineTestOptions): Promise<ReportedRun[]> {
  const opened = await openRuleFile(rulePath, options);
  const carrying = opened.container.rules.filter((entry) => entry.document[TEST_SUITES_FIELD] !== undefined);
  const entries = testsPath === undefined && options.rule === undefined && carrying.length > 0
    ? carrying
    : [selectRule(opened.container, rulePath, options.rule)];
  const sandbox = await sandboxFor(opened.resolver);
  try {
    const runs: ReportedRun[] = [];
    for (const entry of entries) {
      const suites = await suitesOf(testsPath, rulePath, entry.document[TEST_SUITES_FIELD], entry.path);
      runs.push(await runEntry(entry, compileEntry(opened.resolver, entry, rulePath, options.warn), suites, { ...opened, sandbox, timeoutMs: options.timeout ?? envTimeout() }, rulePath));
    }
    return runs;
  } finally {
    sandbox?.dispose();
  }
}

interface Environment {
  resolver: FolderResolver;
  timeZone: string;
  sandbox: ScriptSandbox | undefined;
  timeoutMs: number;
}

async function runEntry(entry: ContainerEntry, compiled: CompiledRule, suites: SuiteDefinition[], env: Environment, rulePath: string): Promise<ReportedRun> {
  const tests: RunnableTest[] = suites.flatMap((suite, s) =>
    suite.tests.map((test, t) => ({ ...test, id: `${s}.${t}`, suiteId: String(s), suiteName: suite.name })),
  );
  const base: SolveOptions = { timeZone: env.timeZone, resolver: env.resolver, timeoutMs: env.timeoutMs, ...(env.sandbox && { sandbox: env.sandbox }) };
  const solver: TestSolver = async (test) => {
    try {
      const outcome = await solve(compiled, test.input, {
        ...base,
        strategy: supportedStrategy(compiled.type, normaliseStrategy(test.strategy ?? undefined)),
        ...(test.includedConditionCols !== null && { includedConditionCols: test.includedConditionCols }),
        ...(test.excludedConditionCols !== null && { excludedConditionCols: test.excludedConditionCols }),
        deadline: Date.now() + env.timeoutMs,
      });
      return outcome.result as Json[];
    } catch (err) {
      if (err instanceof RuleError || err instanceof ValidationError || err instanceof TimeoutError || err instanceof LimitError) throw new TestSolveError(err.message);
      throw err;
    }
  };
  const results = await runTests(tests, solver);
  const doc = entry.document;
  const name = typeof doc.ruleAlias === 'string' && doc.ruleAlias !== '' ? doc.ruleAlias : typeof doc.name === 'string' ? doc.name : basename(rulePath);
  return { label: typeof doc.version === 'number' ? `${name} v${doc.version}` : name, results };
}
