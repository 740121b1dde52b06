// The rule tests port (RuleTestStore) and the rule-test parts of the management transaction on SQLite and
// PostgreSQL: suites and tests per space, runs newest first with a cursor, the publishing gate, a rule's tests going
// with its last version, and suites an import writes replacing those of the same name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import type { RuleTestRecord, RuleTestRunRecord, RuleTestSuiteRecord } from '../../src/store/ports.ts';
import { messageTable } from '../http/fixtures.ts';
import { backendOf, postgresSkip } from './backends.ts';
import type { Backend } from './backends.ts';

const AT = '2026-11-01T10:00:00.000Z';

function suite(id: string, ruleId: string, name: string): RuleTestSuiteRecord {
  return { id, ruleId, name, description: '', createdAt: AT, updatedAt: AT };
}

function testRecord(id: string, suiteId: string, position: number, overrides: Partial<RuleTestRecord> = {}): RuleTestRecord {
  return {
    id,
    suiteId,
    name: `test ${id}`,
    input: { a: 1, nested: { list: [1, 'two', null] } },
    expected: [{ message: 'x' }],
    ignore: ['[0].at'],
    strategy: null,
    includedConditionCols: null,
    excludedConditionCols: ['c'],
    position,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

function run(id: string, ruleId: string, version: number, createdAt: string): RuleTestRunRecord {
  return {
    id,
    ruleId,
    version,
    createdAt,
    trigger: 'run',
    forced: false,
    passed: 1,
    failed: 1,
    errors: 0,
    results: [
      { testId: 't1', suiteId: 's1', suiteName: 'S', testName: 'a', status: 'passed', received: [{ message: 'x' }], differences: [], error: null, durationMs: 1.5 },
      {
        testId: 't2', suiteId: 's1', suiteName: 'S', testName: 'b', status: 'failed', received: [{ message: 'y' }],
        differences: [{ path: '[0].message', kind: 'changed', expected: 'x', received: 'y' }], error: null, durationMs: 0.5,
      },
    ],
  };
}

export function ruleTestStoreSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`rule tests store on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    let backend: Backend;
    let store: KyselyStore;

    before(async () => {
      if (skip) return;
      backend = await backendOf(kind);
      store = await openStore(backend.url);
      await store.spaces.create('s1', []);
      await store.spaces.create('s2', []);
      await store.rules.put('s1', [messageTable('r1', 'r1', 1, 'x'), messageTable('r1', 'r1', 2, 'y'), messageTable('r2', 'r2', 1, 'z')]);
    });
    after(async () => {
      if (skip) return;
      await store.close();
      await backend.cleanup();
    });

    test('suites and tests round-trip per space, tests in position order', { skip }, async () => {
      const t = store.ruleTests;
      await t.insertSuite('s1', suite('su1', 'r1', 'Main'));
      await t.insertSuite('s1', suite('su2', 'r2', 'Other'));
      await t.insertTest('s1', testRecord('t2', 'su1', 1));
      await t.insertTest('s1', testRecord('t1', 'su1', 0, { strategy: 'FIRST_MATCH' }));
      await t.insertTest('s1', testRecord('t3', 'su2', 0));
      assert.deepEqual((await t.suites('s1', 'r1')).map((s) => s.id), ['su1']);
      assert.deepEqual((await t.suites('s1')).map((s) => s.id), ['su1', 'su2']);
      assert.deepEqual((await t.tests('s1', { suiteId: 'su1' })).map((x) => x.id), ['t1', 't2']);
      assert.deepEqual((await t.tests('s1', { ruleId: 'r2' })).map((x) => x.id), ['t3']);
      assert.deepEqual(await t.test('s1', 't1'), testRecord('t1', 'su1', 0, { strategy: 'FIRST_MATCH' }));
      assert.equal(await t.suite('s2', 'su1'), undefined, 'another space sees nothing');
      assert.equal(await t.test('s2', 't1'), undefined);
      assert.deepEqual(await t.tests('s2'), []);
      assert.equal(await t.deleteTest('s2', 't1'), false);
      assert.equal(await t.deleteSuite('s2', 'su1'), false);
    });

    test('updates keep identity and creation; deleting a suite deletes its tests', { skip }, async () => {
      const t = store.ruleTests;
      await t.updateSuite('s1', 'su2', { name: 'Renamed', updatedAt: '2026-11-02T00:00:00.000Z' });
      assert.equal((await t.suite('s1', 'su2'))?.name, 'Renamed');
      await t.updateTest('s1', testRecord('t3', 'su2', 0, { name: 'changed', expected: [], updatedAt: '2026-11-02T00:00:00.000Z' }));
      const changed = await t.test('s1', 't3');
      assert.deepEqual([changed?.name, changed?.expected, changed?.createdAt], ['changed', [], AT]);
      assert.equal(await t.deleteSuite('s1', 'su2'), true);
      assert.equal(await t.test('s1', 't3'), undefined);
    });

    test('runs list newest first with a cursor, filter by rule and version, and read back whole', { skip }, async () => {
      const t = store.ruleTests;
      await t.insertRun('s1', run('run-a', 'r1', 1, '2026-11-01T10:00:01.000Z'));
      await t.insertRun('s1', run('run-b', 'r1', 2, '2026-11-01T10:00:02.000Z'));
      await t.insertRun('s1', { ...run('run-c', 'r2', 1, '2026-11-01T10:00:03.000Z'), forced: true, trigger: 'publish' });
      const first = await t.runs('s1', { limit: 2 });
      assert.deepEqual(first.items.map((r) => r.id), ['run-c', 'run-b']);
      assert.deepEqual([first.items[0]!.forced, first.items[0]!.trigger], [true, 'publish']);
      const second = await t.runs('s1', { limit: 2, cursor: first.nextCursor! });
      assert.deepEqual(second.items.map((r) => r.id), ['run-a']);
      assert.equal(second.nextCursor, null);
      assert.deepEqual((await t.runs('s1', { limit: 10, ruleId: 'r1', version: 2 })).items.map((r) => r.id), ['run-b']);
      assert.deepEqual(await t.run('s1', 'run-a'), run('run-a', 'r1', 1, '2026-11-01T10:00:01.000Z'));
      assert.equal(await t.run('s2', 'run-a'), undefined);
      assert.deepEqual((await t.runs('s2', { limit: 10 })).items, []);
    });

    test('the publishing gate: a space setting and rule overrides that can be removed', { skip }, async () => {
      const t = store.ruleTests;
      assert.deepEqual(await t.gates('s1'), { space: false, rules: [] });
      await t.setGate('s1', undefined, true);
      await t.setGate('s1', 'r1', false);
      await t.setGate('s1', 'r2', true);
      await t.setGate('s1', 'r2', false);
      assert.deepEqual(await t.gates('s1'), { space: true, rules: [{ ruleId: 'r1', enabled: false }, { ruleId: 'r2', enabled: false }] });
      await t.setGate('s1', 'r2', null);
      assert.deepEqual(await t.gates('s1'), { space: true, rules: [{ ruleId: 'r1', enabled: false }] });
      assert.deepEqual(await t.gates('s2'), { space: false, rules: [] });
    });

    test("a rule's tests, runs and gate override go with its last version, not before", { skip }, async () => {
      await store.management.transaction('s1', (tx) => tx.deleteRule('r1', 1));
      assert.equal((await store.ruleTests.suites('s1', 'r1')).length, 1, 'version 2 is left: tests stay');
      await store.management.transaction('s1', (tx) => tx.deleteRule('r1', 2));
      assert.deepEqual(await store.ruleTests.suites('s1', 'r1'), []);
      assert.deepEqual(await store.ruleTests.tests('s1', { ruleId: 'r1' }), []);
      assert.deepEqual((await store.ruleTests.runs('s1', { limit: 10, ruleId: 'r1' })).items, []);
      assert.deepEqual((await store.ruleTests.gates('s1')).rules, []);
      assert.equal((await store.ruleTests.runs('s1', { limit: 10 })).items.length, 1, "another rule's runs stay");
    });

    test('suites written by an import replace those of the same name, in one transaction with the rule', { skip }, async () => {
      const incoming = (name: string, id: string, testIds: string[]) => ({
        suite: suite(id, 'r2', name),
        tests: testIds.map((tid, i) => testRecord(tid, id, i)),
      });
      await store.management.transaction('s1', (tx) => tx.putRuleTests('r2', [incoming('Keep', 'k1', ['k1a']), incoming('Swap', 'w1', ['w1a', 'w1b'])]));
      await store.management.transaction('s1', (tx) => tx.putRuleTests('r2', [incoming('Swap', 'w2', ['w2a'])]));
      const read = await store.management.read('s1', (tx) => tx.ruleTests('r2'));
      assert.deepEqual(read.map((s) => [s.suite.name, s.suite.id, s.tests.map((x) => x.id)]), [['Keep', 'k1', ['k1a']], ['Swap', 'w2', ['w2a']]]);
      await assert.rejects(
        store.management.transaction('s1', async (tx) => {
          await tx.putRuleTests('r2', [incoming('Lost', 'l1', ['l1a'])]);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal((await store.ruleTests.suites('s1', 'r2')).some((s) => s.name === 'Lost'), false);
    });
  });
}
