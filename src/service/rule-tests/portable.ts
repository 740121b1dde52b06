// Rule tests in Verdict's exports (docs/decisions/rule-tests-portability.md): a rule document in an export carries
// its rule's suites as `testSuites: [{"name", "description", "tests": [...]}]`, a field DecisionRules' importer
// ignores. Stored documents never carry it: an import takes it off and writes the suites beside the rule.
import { randomUUID } from 'node:crypto';
import type { Problem } from '../../engine/errors.ts';
import type { Json } from '../../engine/types.ts';
import type { RuleTestSuiteWithTests } from '../../store/ports.ts';
import { readSuites, testJson } from './definitions.ts';
import type { SuiteDefinition } from './definitions.ts';

export const TEST_SUITES_FIELD = 'testSuites';

/** The export form of a rule's suites. */
export function suitesToJson(suites: readonly RuleTestSuiteWithTests[]): Json[] {
  return suites.map(({ suite, tests }) => ({
    name: suite.name,
    ...(suite.description !== '' ? { description: suite.description } : {}),
    tests: tests.map((t) => testJson(t)),
  }));
}

/** Suites ready for the store, with new ids. */
export function storedSuites(ruleId: string, suites: readonly SuiteDefinition[], now: string): RuleTestSuiteWithTests[] {
  return suites.map((definition) => {
    const suiteId = randomUUID();
    return {
      suite: { id: suiteId, ruleId, name: definition.name, description: definition.description, createdAt: now, updatedAt: now },
      tests: definition.tests.map((t, position) => ({ ...t, id: randomUUID(), suiteId, position, createdAt: now, updatedAt: now })),
    };
  });
}

/** The suites a document of an import carries (problems at `path.testSuites...`), and the document without them. */
export function takeSuites(document: Record<string, unknown>, path: string, problems: Problem[]): { document: Record<string, unknown>; suites: SuiteDefinition[] | undefined } {
  if (!Object.hasOwn(document, TEST_SUITES_FIELD)) return { document, suites: undefined };
  const { [TEST_SUITES_FIELD]: value, ...rest } = document;
  const where = path === '' ? TEST_SUITES_FIELD : `${path}.${TEST_SUITES_FIELD}`;
  const suites = readSuites(value, where, problems);
  return { document: rest, suites };
}
