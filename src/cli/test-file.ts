// `verdict test RULE.json [TESTS.json]` offline: no server, no database. The rule file is loaded as `verdict solve`
// loads it (--rule, --rules DIR), the tests come from TESTS.json or, without it, from the `testSuites` a Verdict
// export carries, and each test is judged by the same runner and comparison as on the server.
import { basename } from 'node:path';
import { LimitError, RuleError, TimeoutError, ValidationError, solve } from '../engine/index.ts';
import type { Problem } from '../engine/errors.ts';
import type { Json, SolveOptions } from '../engine/types.ts';
import { joinPaths } from '../rules/containers.ts';
import { readSuites, readTestsFile } from '../service/rule-tests/definitions.ts';
import type { SuiteDefinition } from '../service/rule-tests/definitions.ts';
import { TEST_SUITES_FIELD } from '../service/rule-tests/portable.ts';
import { runTests, TestSolveError } from '../service/rule-tests/runner.ts';
import type { RunnableTest, TestSolver } from '../service/rule-tests/runner.ts';
import { effectiveStrategy } from '../service/solve.ts';
import { InputError, UsageError } from './errors.ts';
import { readJsonFile } from './folder-resolver.ts';
import { envTimeout, loadRuleFile, sandboxFor } from './solve-file.ts';
import type { ReportedRun } from './test-reporters.ts';

export interface OfflineTestOptions {
  rules: string[];
  rule?: string;
  timezone?: string;
  timeout?: number;
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

export async function runOfflineTests(rulePath: string, testsPath: string | undefined, options: OfflineTestOptions): Promise<ReportedRun> {
  const { entry, compiled, resolver, timeZone } = await loadRuleFile(rulePath, options);
  const suites = await suitesOf(testsPath, rulePath, entry.document[TEST_SUITES_FIELD], entry.path);
  const tests: RunnableTest[] = suites.flatMap((suite, s) =>
    suite.tests.map((test, t) => ({ ...test, id: `${s}.${t}`, suiteId: String(s), suiteName: suite.name })),
  );
  const sandbox = await sandboxFor(resolver);
  const timeoutMs = options.timeout ?? envTimeout();
  const base: SolveOptions = { timeZone, resolver, timeoutMs, ...(sandbox && { sandbox }) };
  const solver: TestSolver = async (test) => {
    try {
      const outcome = await solve(compiled, test.input, {
        ...base,
        strategy: effectiveStrategy(compiled.type, test.strategy ?? undefined),
        ...(test.includedConditionCols !== null && { includedConditionCols: test.includedConditionCols }),
        ...(test.excludedConditionCols !== null && { excludedConditionCols: test.excludedConditionCols }),
        deadline: Date.now() + timeoutMs,
      });
      return outcome.result as Json[];
    } catch (err) {
      if (err instanceof RuleError || err instanceof ValidationError || err instanceof TimeoutError || err instanceof LimitError) throw new TestSolveError(err.message);
      throw err;
    }
  };
  try {
    const results = await runTests(tests, solver);
    const doc = entry.document;
    const name = typeof doc.ruleAlias === 'string' && doc.ruleAlias !== '' ? doc.ruleAlias : typeof doc.name === 'string' ? doc.name : basename(rulePath);
    return { label: typeof doc.version === 'number' ? `${name} v${doc.version}` : name, results };
  } finally {
    sandbox?.dispose();
  }
}
