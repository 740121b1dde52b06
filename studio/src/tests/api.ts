// The rule tests routes (/api/tests, issue 13) as the Tests tab uses them; shapes as the management OpenAPI
// documents them (src/http/plugins/management/rule-tests.ts).
import type { ApiClient } from '../api/client.ts';

export interface TestDefinition {
  name: string;
  input: Record<string, unknown>;
  expected: unknown[];
  ignore?: string[];
  strategy?: string | null;
  includedConditionCols?: string[] | null;
  excludedConditionCols?: string[] | null;
}

export interface RuleTest extends TestDefinition {
  id: string;
  suiteId: string;
}

export interface Suite {
  id: string;
  ruleId: string;
  name: string;
  description?: string;
  tests: RuleTest[];
}

export interface Difference {
  path: string;
  kind: 'changed' | 'missing' | 'unexpected';
  expected?: unknown;
  received?: unknown;
}

export interface TestResult {
  testId: string;
  suiteId: string;
  suiteName: string;
  testName: string;
  status: 'passed' | 'failed' | 'error';
  received: unknown[] | null;
  differences: Difference[];
  error: string | null;
}

export interface RunSummary {
  id: string;
  ruleId: string;
  version: number;
  createdAt: string;
  trigger: 'run' | 'publish';
  forced: boolean;
  passed: number;
  failed: number;
  errors: number;
}

export interface Run extends RunSummary {
  results: TestResult[];
}

const enc = encodeURIComponent;

export function testsApi(api: ApiClient) {
  return {
    suites: async (ruleId: string) => (await api.call<{ suites: Suite[] }>('GET', `/api/tests/rule/${enc(ruleId)}`)).suites,
    createSuite: (ruleId: string, name: string) => api.call<Suite>('POST', `/api/tests/rule/${enc(ruleId)}/suites`, { name }),
    renameSuite: (suiteId: string, name: string) => api.call<Suite>('PUT', `/api/tests/suites/${enc(suiteId)}`, { name }),
    deleteSuite: (suiteId: string) => api.call<unknown>('DELETE', `/api/tests/suites/${enc(suiteId)}`),
    createTest: (suiteId: string, test: TestDefinition) => api.call<RuleTest>('POST', `/api/tests/suites/${enc(suiteId)}/tests`, test),
    updateTest: (suiteId: string, testId: string, test: TestDefinition) => api.call<RuleTest>('PUT', `/api/tests/suites/${enc(suiteId)}/tests/${enc(testId)}`, test),
    deleteTest: (suiteId: string, testId: string) => api.call<unknown>('DELETE', `/api/tests/suites/${enc(suiteId)}/tests/${enc(testId)}`),
    /** Runs the given tests (all of the rule's when none) against a stored version; the run is kept in the history. */
    run: (ruleId: string, version: number, testIds?: string[]) =>
      api.call<Run>('POST', `/api/tests/run/${enc(ruleId)}/${version}`, testIds ? { testIds } : undefined),
    runs: async (ruleId: string) => (await api.call<{ items: RunSummary[] }>('GET', `/api/tests/runs?rule=${enc(ruleId)}&limit=50`)).items,
    runById: (runId: string) => api.call<Run>('GET', `/api/tests/runs/${enc(runId)}`),
  };
}
