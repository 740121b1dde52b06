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

/** Suites an import found on a rule document, to be written once the rule's final id is known. */
export interface CarriedSuites {
  ruleId: string;
  version: number;
  suites: SuiteDefinition[];
}

/** Suites a transaction can read and write (ManagementTransaction). */
interface SuitesAccess {
  ruleTests(ruleId: string): Promise<RuleTestSuiteWithTests[]>;
  putRuleTests(ruleId: string, suites: RuleTestSuiteWithTests[]): Promise<void>;
}

/**
 * Writes the suites an import carried: per rule, those of its highest version in the import (several versions of
 * one rule carry the same suites when they come from a Verdict export). A suite replaces the rule's suite of the
 * same name; the rule's other suites stay.
 */
export async function writeCarriedSuites(tx: SuitesAccess, carried: readonly CarriedSuites[], now: string): Promise<void> {
  const chosen = new Map<string, CarriedSuites>();
  for (const c of carried) {
    const current = chosen.get(c.ruleId);
    if (!current || c.version >= current.version) chosen.set(c.ruleId, c);
  }
  for (const c of chosen.values()) await tx.putRuleTests(c.ruleId, storedSuites(c.ruleId, c.suites, now));
}

/**
 * Documents for an export, each rule's suites on its highest exported version (the other versions share them).
 * Documents are copied, never changed in place.
 */
export async function attachSuites(tx: Pick<SuitesAccess, 'ruleTests'>, documents: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const top = new Map<string, number>();
  documents.forEach((d, index) => {
    const ruleId = String(d.ruleId);
    const best = top.get(ruleId);
    if (best === undefined || Number(d.version) > Number(documents[best]!.version)) top.set(ruleId, index);
  });
  const out = [...documents];
  for (const [ruleId, index] of top) {
    const suites = await tx.ruleTests(ruleId);
    if (suites.length > 0) out[index] = { ...documents[index], [TEST_SUITES_FIELD]: suitesToJson(suites) };
  }
  return out;
}
