// Reading test and suite definitions from JSON (the management API, a TESTS.json file, an export's `testSuites`):
// every problem at once, each with its path. The same shape everywhere:
//   test:  {"name", "input": {...}, "expected": [...], "ignore"?: ["path"], "strategy"?, "includedConditionCols"?,
//           "excludedConditionCols"?}
//   suite: {"name", "description"?, "tests": [test, ...]}
import type { Problem } from '../../engine/errors.ts';
import type { Json } from '../../engine/types.ts';
import type { RuleTestDefinition } from '../../store/ports.ts';
import { STRATEGIES } from '../../engine/types.ts';
import { at, describe, isObject } from '../../rules/check.ts';
import { ignoreProblems } from './compare.ts';

export type TestDefinition = RuleTestDefinition;

export interface SuiteDefinition {
  name: string;
  description: string;
  tests: TestDefinition[];
}

const MAX_NAME = 200;
export const MAX_TESTS_PER_SUITE = 1000;

function readName(value: unknown, path: string, problems: Problem[]): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NAME) {
    problems.push({ path, message: `must be a name of 1-${MAX_NAME} characters (got ${describe(value)})` });
    return '';
  }
  return value.trim();
}

function readColumns(value: unknown, path: string, problems: Problem[]): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    problems.push({ path, message: `must be an array of column names or input paths (got ${describe(value)})` });
    return null;
  }
  return value as string[];
}

const TEST_FIELDS = new Set(['name', 'input', 'expected', 'ignore', 'strategy', 'includedConditionCols', 'excludedConditionCols', 'id', 'position', 'suiteId', 'createdAt', 'updatedAt']);

/** A test definition, or undefined with its problems added (paths below `path`). */
export function readTest(value: unknown, path: string, problems: Problem[]): TestDefinition | undefined {
  if (!isObject(value)) {
    problems.push({ path, message: `must be a test object {"name", "input", "expected"} (got ${describe(value)})` });
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(value)) {
    if (!TEST_FIELDS.has(key)) problems.push({ path: at(path, key), message: 'is not a test field (name, input, expected, ignore, strategy, includedConditionCols, excludedConditionCols)' });
  }
  const name = readName(value.name, at(path, 'name'), problems);
  const input = value.input ?? {};
  if (!isObject(input)) problems.push({ path: at(path, 'input'), message: `must be a JSON object, the solve's input (got ${describe(input)})` });
  const expected = value.expected;
  if (!Array.isArray(expected)) {
    problems.push({ path: at(path, 'expected'), message: `must be an array, the result array the solve should return (got ${describe(expected)})` });
  }
  let ignore: string[] = [];
  if (value.ignore !== undefined && value.ignore !== null) {
    if (!Array.isArray(value.ignore) || value.ignore.some((p) => typeof p !== 'string')) {
      problems.push({ path: at(path, 'ignore'), message: `must be an array of output paths such as "price" or "[0].items[1].price" (got ${describe(value.ignore)})` });
    } else {
      ignore = value.ignore as string[];
      for (const p of ignoreProblems(ignore)) problems.push({ path: at(at(path, 'ignore'), p.index), message: p.message });
    }
  }
  let strategy: string | null = null;
  if (value.strategy !== undefined && value.strategy !== null) {
    const upper = typeof value.strategy === 'string' ? value.strategy.trim().toUpperCase() : '';
    if (!(STRATEGIES as readonly string[]).includes(upper)) problems.push({ path: at(path, 'strategy'), message: `must be one of ${STRATEGIES.join(', ')} (got ${describe(value.strategy)})` });
    else strategy = upper;
  }
  const includedConditionCols = readColumns(value.includedConditionCols, at(path, 'includedConditionCols'), problems);
  const excludedConditionCols = readColumns(value.excludedConditionCols, at(path, 'excludedConditionCols'), problems);
  if (problems.length > before) return undefined;
  return { name, input: input as Json, expected: expected as Json[], ignore, strategy, includedConditionCols, excludedConditionCols };
}

/** A list of tests (`path` is where the array sits). */
export function readTests(value: unknown, path: string, problems: Problem[]): TestDefinition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ path, message: `must be an array of tests (got ${describe(value)})` });
    return [];
  }
  if (value.length > MAX_TESTS_PER_SUITE) {
    problems.push({ path, message: `holds ${value.length} tests; a suite holds at most ${MAX_TESTS_PER_SUITE}` });
    return [];
  }
  const tests: TestDefinition[] = [];
  value.forEach((item, index) => {
    const test = readTest(item, at(path, index), problems);
    if (test) tests.push(test);
  });
  return tests;
}

export function readSuite(value: unknown, path: string, problems: Problem[]): SuiteDefinition | undefined {
  if (!isObject(value)) {
    problems.push({ path, message: `must be a suite object {"name", "tests": [...]} (got ${describe(value)})` });
    return undefined;
  }
  const before = problems.length;
  const name = readName(value.name, at(path, 'name'), problems);
  const description = value.description ?? '';
  if (typeof description !== 'string') problems.push({ path: at(path, 'description'), message: `must be a string (got ${describe(description)})` });
  const tests = readTests(value.tests, at(path, 'tests'), problems);
  if (problems.length > before) return undefined;
  return { name, description: description as string, tests };
}

export function readSuites(value: unknown, path: string, problems: Problem[]): SuiteDefinition[] {
  if (!Array.isArray(value)) {
    problems.push({ path, message: `must be an array of suites (got ${describe(value)})` });
    return [];
  }
  const suites: SuiteDefinition[] = [];
  const names = new Set<string>();
  value.forEach((item, index) => {
    const suite = readSuite(item, at(path, index), problems);
    if (!suite) return;
    if (names.has(suite.name)) problems.push({ path: at(at(path, index), 'name'), message: `"${suite.name}" names two suites; suite names of a rule are unique` });
    names.add(suite.name);
    suites.push(suite);
  });
  return suites;
}

/**
 * A tests file: `{"tests": [...]}` (one suite named after the file), `{"suites": [...]}`, or both. Throws nothing;
 * problems are added.
 */
export function readTestsFile(value: unknown, defaultSuiteName: string, problems: Problem[]): SuiteDefinition[] {
  if (!isObject(value)) {
    problems.push({ path: '', message: `must be {"tests": [...]} or {"suites": [{"name", "tests": [...]}]} (got ${describe(value)})` });
    return [];
  }
  if (value.tests === undefined && value.suites === undefined) {
    problems.push({ path: '', message: 'must have "tests": [...] or "suites": [{"name", "tests": [...]}]' });
    return [];
  }
  const suites: SuiteDefinition[] = [];
  if (value.tests !== undefined) suites.push({ name: defaultSuiteName, description: '', tests: readTests(value.tests, 'tests', problems) });
  if (value.suites !== undefined) suites.push(...readSuites(value.suites, 'suites', problems));
  return suites;
}

/** The JSON form of a test definition (exports, TESTS.json), with only the options that are set. */
export function testJson(test: TestDefinition): Record<string, Json> {
  return {
    name: test.name,
    input: test.input,
    expected: test.expected,
    ...(test.ignore.length > 0 ? { ignore: test.ignore } : {}),
    ...(test.strategy !== null ? { strategy: test.strategy } : {}),
    ...(test.includedConditionCols !== null ? { includedConditionCols: test.includedConditionCols } : {}),
    ...(test.excludedConditionCols !== null ? { excludedConditionCols: test.excludedConditionCols } : {}),
  };
}
