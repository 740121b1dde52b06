// Running tests: solve each test's input through the solve function it is given (the service's solve path on the
// server, the engine over rule files offline), compare with what the test expects, and report each outcome. One
// runner for both, so `verdict test` offline and a run on the server judge a test the same way.
import type { Json } from '../../engine/types.ts';
import type { RuleTestResult } from '../../store/ports.ts';
import { compareOutput } from './compare.ts';
import type { TestDefinition } from './definitions.ts';

/** A solve that failed for a reason the test reports (a rule error, a timeout): the test's status is error. */
export class TestSolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TestSolveError';
  }
}

export interface RunnableTest extends TestDefinition {
  id: string;
  suiteId: string;
  suiteName: string;
}

/** Solves one test's input with its options; returns the result array or throws TestSolveError. */
export type TestSolver = (test: RunnableTest) => Promise<Json[]>;

export async function runTests(tests: readonly RunnableTest[], solve: TestSolver): Promise<RuleTestResult[]> {
  const results: RuleTestResult[] = [];
  for (const test of tests) {
    const started = performance.now();
    let received: Json[] | null = null;
    let error: string | null = null;
    try {
      received = await solve(test);
    } catch (err) {
      if (!(err instanceof TestSolveError)) throw err;
      error = err.message;
    }
    const differences = received === null ? [] : compareOutput(test.expected, received, test.ignore);
    results.push({
      testId: test.id,
      suiteId: test.suiteId,
      suiteName: test.suiteName,
      testName: test.name,
      status: error !== null ? 'error' : differences.length > 0 ? 'failed' : 'passed',
      received,
      differences,
      error,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    });
  }
  return results;
}

export interface RunCounts {
  passed: number;
  failed: number;
  errors: number;
}

export function countResults(results: readonly RuleTestResult[]): RunCounts {
  return {
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    errors: results.filter((r) => r.status === 'error').length,
  };
}
