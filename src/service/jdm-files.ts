// JDM files where DecisionRules exports are read (the management import, `verdict import`, `verdict solve`,
// `verdict test`, `verdict lint`, `--rules DIR`): a file detected as JDM becomes one `decision-graph` rule document,
// and its embedded tests (`tests: [{input, output}]`) become the rule's suite "JDM tests" (each test expects the
// answer `[output]`), carried as the `testSuites` a Verdict export carries, so every reader after this point is
// the one DecisionRules files go through. docs/decisions/formats-layer.md.
import { ValidationError } from '../rules/problems.ts';
import { detectFormat, readJdm } from '../formats/jdm/index.ts';
import type { JdmTest, ReadJdmOptions, Unsupported } from '../formats/jdm/index.ts';
import { TEST_SUITES_FIELD } from './rule-tests/portable.ts';

export const JDM_SUITE_NAME = 'JDM tests';

export interface RuleFileValue {
  /** A DecisionRules container (the file itself, or the rule document a JDM file became). */
  value: unknown;
  format: 'jdm' | 'decisionrules';
  /** What Verdict cannot run in a JDM file (custom nodes): the graph imports, solving fails there. */
  unsupported: Unsupported[];
}

/** The suite a JDM file's tests become. */
export function jdmSuites(tests: readonly JdmTest[]): Record<string, unknown>[] {
  if (tests.length === 0) return [];
  return [{
    name: JDM_SUITE_NAME,
    description: 'The tests embedded in the JDM file',
    tests: tests.map((t, i) => ({ name: `test ${i + 1}`, input: t.input, expected: [t.output ?? null] })),
  }];
}

/** A rule's suites back as JDM tests: every test whose answer is one object (`[output]`). */
export function jdmTestsOf(suites: readonly { tests: readonly { input: unknown; expected: readonly unknown[] }[] }[]): JdmTest[] {
  return suites.flatMap((s) => s.tests.filter((t) => t.expected.length === 1).map((t) => ({ input: t.input, output: t.expected[0] })));
}

/**
 * A parsed rule file as a DecisionRules container: unchanged unless it is JDM. A malformed JDM file is a
 * ValidationError with paths into the file.
 */
export function ruleFileValue(json: unknown, options: ReadJdmOptions = {}): RuleFileValue {
  if (detectFormat(json) !== 'jdm') return { value: json, format: 'decisionrules', unsupported: [] };
  const read = readJdm(json, options);
  if (read.problems.length > 0) throw new ValidationError(read.problems);
  const suites = jdmSuites(read.tests);
  const value = suites.length > 0 ? { ...read.document, [TEST_SUITES_FIELD]: suites } : read.document;
  return { value, format: 'jdm', unsupported: read.unsupported };
}
