// Rule tests over Kysely (SQLite and PostgreSQL): suites, tests, the run history and the publishing gate
// (migration 2026_11_002_rule_tests). The same queries serve the standalone port (one statement or one transaction
// per call) and the management transaction (deleting a rule, importing tests with rules), which passes its own
// transaction as the executor.
import type { Kysely } from 'kysely';
import type {
  PublishGateSettings, RuleTestDefinition, RuleTestRecord, RuleTestResult, RuleTestRunSummary, RuleTestStore,
  RuleTestSuiteRecord, RuleTestSuiteWithTests, RuleTestTrigger,
} from './ports.ts';
import { decodeCursor, encodeCursor } from './page-cursor.ts';

interface RuleTestSuitesTable {
  space: string;
  id: string;
  rule_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface RuleTestsTable {
  space: string;
  id: string;
  suite_id: string;
  rule_id: string;
  name: string;
  position: number;
  /** JSON: {input, expected, ignore, strategy, includedConditionCols, excludedConditionCols}. */
  definition: string;
  created_at: string;
  updated_at: string;
}

interface RuleTestRunsTable {
  space: string;
  id: string;
  rule_id: string;
  version: number;
  created_at: string;
  trigger: string;
  forced: number;
  passed: number;
  failed: number;
  errors: number;
  /** JSON array of RuleTestResult. */
  results: string;
}

interface PublishGatesTable {
  space: string;
  /** '' for the space setting. */
  rule_id: string;
  enabled: number;
}

export interface RuleTestTables {
  rule_test_suites: RuleTestSuitesTable;
  rule_tests: RuleTestsTable;
  rule_test_runs: RuleTestRunsTable;
  publish_gates: PublishGatesTable;
}

export type RuleTestDb = Kysely<RuleTestTables>;
type Db = RuleTestDb;

const SPACE_GATE = '';

function toSuite(row: RuleTestSuitesTable): RuleTestSuiteRecord {
  return { id: row.id, ruleId: row.rule_id, name: row.name, description: row.description, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** What the definition column holds. */
type Definition = Omit<RuleTestDefinition, 'name'>;

function toTest(row: RuleTestsTable): RuleTestRecord {
  const d = JSON.parse(row.definition) as Definition;
  return {
    id: row.id,
    suiteId: row.suite_id,
    name: row.name,
    input: d.input,
    expected: d.expected,
    ignore: d.ignore,
    strategy: d.strategy,
    includedConditionCols: d.includedConditionCols,
    excludedConditionCols: d.excludedConditionCols,
    position: Number(row.position),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function definitionOf(test: RuleTestRecord): string {
  const definition: Definition = {
    input: test.input,
    expected: test.expected,
    ignore: test.ignore,
    strategy: test.strategy,
    includedConditionCols: test.includedConditionCols,
    excludedConditionCols: test.excludedConditionCols,
  };
  return JSON.stringify(definition);
}

function testRow(space: string, ruleId: string, test: RuleTestRecord): RuleTestsTable {
  return {
    space,
    id: test.id,
    suite_id: test.suiteId,
    rule_id: ruleId,
    name: test.name,
    position: test.position,
    definition: definitionOf(test),
    created_at: test.createdAt,
    updated_at: test.updatedAt,
  };
}

function toSummary(row: Omit<RuleTestRunsTable, 'results'>): RuleTestRunSummary {
  return {
    id: row.id,
    ruleId: row.rule_id,
    version: Number(row.version),
    createdAt: row.created_at,
    trigger: row.trigger as RuleTestTrigger,
    forced: Number(row.forced) === 1,
    passed: Number(row.passed),
    failed: Number(row.failed),
    errors: Number(row.errors),
  };
}

/** Deletes everything of a rule's tests: suites, tests, runs and its gate override (its last version was deleted). */
export async function deleteRuleTests(db: Db, space: string, ruleId: string): Promise<void> {
  await db.deleteFrom('rule_tests').where('space', '=', space).where('rule_id', '=', ruleId).execute();
  await db.deleteFrom('rule_test_suites').where('space', '=', space).where('rule_id', '=', ruleId).execute();
  await db.deleteFrom('rule_test_runs').where('space', '=', space).where('rule_id', '=', ruleId).execute();
  await db.deleteFrom('publish_gates').where('space', '=', space).where('rule_id', '=', ruleId).execute();
}

export async function readRuleTests(db: Db, space: string, ruleId: string): Promise<RuleTestSuiteWithTests[]> {
  const suites = await db.selectFrom('rule_test_suites').selectAll().where('space', '=', space).where('rule_id', '=', ruleId).orderBy('name').orderBy('id').execute();
  const tests = await db.selectFrom('rule_tests').selectAll().where('space', '=', space).where('rule_id', '=', ruleId).orderBy('position').orderBy('id').execute();
  return suites.map((s) => ({ suite: toSuite(s), tests: tests.filter((t) => t.suite_id === s.id).map(toTest) }));
}

/** Writes suites with their tests; a suite of the same rule and name is replaced, tests and all. */
export async function writeRuleTests(db: Db, space: string, ruleId: string, suites: RuleTestSuiteWithTests[]): Promise<void> {
  for (const { suite, tests } of suites) {
    const existing = await db
      .selectFrom('rule_test_suites')
      .select('id')
      .where('space', '=', space)
      .where('rule_id', '=', ruleId)
      .where('name', '=', suite.name)
      .execute();
    for (const { id } of existing) {
      await db.deleteFrom('rule_tests').where('space', '=', space).where('suite_id', '=', id).execute();
      await db.deleteFrom('rule_test_suites').where('space', '=', space).where('id', '=', id).execute();
    }
    await db
      .insertInto('rule_test_suites')
      .values({ space, id: suite.id, rule_id: ruleId, name: suite.name, description: suite.description, created_at: suite.createdAt, updated_at: suite.updatedAt })
      .execute();
    for (const test of tests) await db.insertInto('rule_tests').values(testRow(space, ruleId, { ...test, suiteId: suite.id })).execute();
  }
}

export function ruleTestStore(database: Kysely<unknown>): RuleTestStore {
  // The rule test tables are this module's own, not part of the shared Database type.
  const db = database as unknown as Db;
  return {
    suites: async (space, ruleId) => {
      let query = db.selectFrom('rule_test_suites').selectAll().where('space', '=', space);
      if (ruleId !== undefined) query = query.where('rule_id', '=', ruleId);
      return (await query.orderBy('rule_id').orderBy('name').orderBy('id').execute()).map(toSuite);
    },
    suite: async (space, id) => {
      const row = await db.selectFrom('rule_test_suites').selectAll().where('space', '=', space).where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toSuite(row);
    },
    insertSuite: async (space, suite, tests = []) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('rule_test_suites')
          .values({ space, id: suite.id, rule_id: suite.ruleId, name: suite.name, description: suite.description, created_at: suite.createdAt, updated_at: suite.updatedAt })
          .execute();
        for (const test of tests) await trx.insertInto('rule_tests').values(testRow(space, suite.ruleId, { ...test, suiteId: suite.id })).execute();
      }),
    updateSuite: async (space, id, changes, tests) =>
      db.transaction().execute(async (trx) => {
        const set: Partial<RuleTestSuitesTable> = { updated_at: changes.updatedAt };
        if (changes.name !== undefined) set.name = changes.name;
        if (changes.description !== undefined) set.description = changes.description;
        await trx.updateTable('rule_test_suites').set(set).where('space', '=', space).where('id', '=', id).execute();
        if (tests === undefined) return;
        const suite = await trx.selectFrom('rule_test_suites').select('rule_id').where('space', '=', space).where('id', '=', id).executeTakeFirst();
        if (suite === undefined) return;
        await trx.deleteFrom('rule_tests').where('space', '=', space).where('suite_id', '=', id).execute();
        for (const test of tests) await trx.insertInto('rule_tests').values(testRow(space, suite.rule_id, { ...test, suiteId: id })).execute();
      }),
    deleteSuite: async (space, id) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('rule_tests').where('space', '=', space).where('suite_id', '=', id).execute();
        const result = await trx.deleteFrom('rule_test_suites').where('space', '=', space).where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      }),
    tests: async (space, filter = {}) => {
      let query = db.selectFrom('rule_tests').selectAll().where('space', '=', space);
      if (filter.ruleId !== undefined) query = query.where('rule_id', '=', filter.ruleId);
      if (filter.suiteId !== undefined) query = query.where('suite_id', '=', filter.suiteId);
      return (await query.orderBy('suite_id').orderBy('position').orderBy('id').execute()).map(toTest);
    },
    test: async (space, id) => {
      const row = await db.selectFrom('rule_tests').selectAll().where('space', '=', space).where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toTest(row);
    },
    insertTest: async (space, test) => {
      const suite = await db.selectFrom('rule_test_suites').select('rule_id').where('space', '=', space).where('id', '=', test.suiteId).executeTakeFirst();
      if (suite === undefined) throw new Error(`suite ${test.suiteId} does not exist in space ${space}`);
      await db.insertInto('rule_tests').values(testRow(space, suite.rule_id, test)).execute();
    },
    updateTest: async (space, test) => {
      await db
        .updateTable('rule_tests')
        .set({ name: test.name, definition: definitionOf(test), updated_at: test.updatedAt })
        .where('space', '=', space)
        .where('id', '=', test.id)
        .execute();
    },
    deleteTest: async (space, id) => {
      const result = await db.deleteFrom('rule_tests').where('space', '=', space).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    insertRun: async (space, run) => {
      await db
        .insertInto('rule_test_runs')
        .values({
          space,
          id: run.id,
          rule_id: run.ruleId,
          version: run.version,
          created_at: run.createdAt,
          trigger: run.trigger,
          forced: run.forced ? 1 : 0,
          passed: run.passed,
          failed: run.failed,
          errors: run.errors,
          results: JSON.stringify(run.results),
        })
        .execute();
    },
    runs: async (space, filter) => {
      let query = db
        .selectFrom('rule_test_runs')
        .select(['space', 'id', 'rule_id', 'version', 'created_at', 'trigger', 'forced', 'passed', 'failed', 'errors'])
        .where('space', '=', space);
      if (filter.ruleId !== undefined) query = query.where('rule_id', '=', filter.ruleId);
      if (filter.version !== undefined) query = query.where('version', '=', filter.version);
      if (filter.cursor !== undefined) {
        const [createdAt, id] = decodeCursor(filter.cursor);
        query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit + 1).execute();
      const items = rows.slice(0, filter.limit).map(toSummary);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > filter.limit && last ? encodeCursor(last.createdAt, last.id) : null };
    },
    run: async (space, id) => {
      const row = await db.selectFrom('rule_test_runs').selectAll().where('space', '=', space).where('id', '=', id).executeTakeFirst();
      if (row === undefined) return undefined;
      return { ...toSummary(row), results: JSON.parse(row.results) as RuleTestResult[] };
    },
    gates: async (space): Promise<PublishGateSettings> => {
      const rows = await db.selectFrom('publish_gates').selectAll().where('space', '=', space).orderBy('rule_id').execute();
      return {
        space: rows.some((r) => r.rule_id === SPACE_GATE && Number(r.enabled) === 1),
        rules: rows.filter((r) => r.rule_id !== SPACE_GATE).map((r) => ({ ruleId: r.rule_id, enabled: Number(r.enabled) === 1 })),
      };
    },
    setGate: async (space, ruleId, enabled) => {
      const key = ruleId ?? SPACE_GATE;
      if (enabled === null) {
        await db.deleteFrom('publish_gates').where('space', '=', space).where('rule_id', '=', key).execute();
        return;
      }
      await db
        .insertInto('publish_gates')
        .values({ space, rule_id: key, enabled: enabled ? 1 : 0 })
        .onConflict((oc) => oc.columns(['space', 'rule_id']).doUpdateSet({ enabled: enabled ? 1 : 0 }))
        .execute();
    },
  };
}
