// COMPAT=decisionrules-cloud end to end through the solve service: the same stored rule answers as DecisionRules'
// cloud does under the preset (right-grouped arithmetic, Europe/Prague dates) and with standard defaults without it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { Services } from '../../src/service/index.ts';
import { openStore } from '../../src/store/open.ts';
import { tableDoc, fn, cond } from '../engine/table-helpers.ts';

const rule = {
  ...tableDoc({
    columns: [
      { id: 'c', kind: 'input', target: 'any' },
      { id: 'diff', kind: 'output', target: 'diff' },
      { id: 'when', kind: 'output', target: 'when' },
    ],
    rows: [{ cells: { c: cond('anything'), diff: fn('10 - 5 - 2'), when: fn('DATE("2021-06-01 10:00")') } }],
  }),
  ruleId: 'compat',
  ruleAlias: 'compat',
  version: 1,
};

async function solveWith(env: Record<string, string>): Promise<unknown> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env });
  const store = await openStore(config.databaseUrl);
  const services = new Services({ config, store, log: { error() {}, warn() {}, info() {} }, sandbox: null, defaultMetrics: false });
  try {
    const created = await services.spaces.create('s');
    await store.rules.put('s', [rule]);
    const principal = { keyId: created.solverKeyId, space: 's', type: 'solver' as const, role: 'solver' as const, actor: { kind: 'key' as const, id: 'k', name: 'k' } };
    return (await services.solver.solve(principal, { idOrAlias: 'compat', version: undefined, data: {}, correlationId: 'c' })).body;
  } finally {
    await services.stop();
    await store.close();
  }
}

test('without COMPAT: standard arithmetic (10 - 5 - 2 = 3) and UTC dates', async () => {
  assert.deepEqual(await solveWith({}), [{ diff: 3, when: '2021-06-01T10:00' }]);
});

test('COMPAT=decisionrules-cloud: 10 - 5 - 2 = 7 and a zone-less date is a Prague wall clock', async () => {
  assert.deepEqual(await solveWith({ COMPAT: 'decisionrules-cloud' }), [{ diff: 7, when: '2021-06-01T08:00' }]);
});
