// The official DecisionRules Node SDK, unchanged, pointed at a running Verdict: strategies, bulk, correlation id,
// audit flag, include/exclude columns, explicit versions, and an error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sdk from '@decisionrules/decisionrules';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { BEGONIA, MARANTA, MONSTERA, PLANT_INPUT, PLANT_LOVERS, messageTable, plantTable } from '../http/fixtures.ts';
import { eventually, startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';

// The package is CommonJS with `exports.default = DecisionRules`: from ESM the class is `.default`.
const DecisionRules = sdk.default;

describe('@decisionrules/decisionrules SDK against Verdict', () => {
  let backend: Backend;
  let server: TestServer;
  let client: InstanceType<typeof DecisionRules>;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend });
    await server.running.services.rulesIO.importContainer(server.space.space, [
      plantTable(),
      messageTable('rule-msg', 'msg', 1, 'one'),
      messageTable('rule-msg', 'msg', 2, 'two'),
    ]);
    client = new DecisionRules({ host: server.url, solverKey: server.space.solverKey });
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  test('solves with each strategy', async () => {
    assert.deepEqual(await client.solve('plant-items', PLANT_INPUT), [MONSTERA, BEGONIA]);
    assert.deepEqual(await client.solve('plant-items', PLANT_INPUT, undefined, { strategy: 'STANDARD' }), [MONSTERA, BEGONIA]);
    assert.deepEqual(await client.solve('plant-items', PLANT_INPUT, undefined, { strategy: 'FIRST_MATCH' }), [MONSTERA]);
    assert.deepEqual(await client.solve('plant-items', PLANT_INPUT, undefined, { strategy: 'ARRAY' }), [{ name: ['Monstera', 'Begonia'], price: [460, 590] }]);
    const all = (await client.solve('plant-items', PLANT_INPUT, undefined, { strategy: 'EVALUATE_ALL' })) as Array<{ _match: boolean }>;
    assert.deepEqual(all.map((r) => r._match), [true, true, false, false]);
  });

  test('solves a given version by rule id', async () => {
    assert.deepEqual(await client.solve('rule-msg', {}, '1'), [{ message: 'one' }]);
    assert.deepEqual(await client.solve('msg', {}), [{ message: 'two' }]);
  });

  test('bulk input gives one result per input, in order', async () => {
    const result = await client.solve('plant-items', [{ group: 'book' }, PLANT_INPUT], undefined, { strategy: 'FIRST_MATCH' });
    assert.deepEqual(result, [[PLANT_LOVERS], [MONSTERA]]);
  });

  test('include/exclude condition columns', async () => {
    assert.deepEqual(await client.solve('plant-items', PLANT_INPUT, undefined, { cols: { excludedConditionCols: ['inStock'] } }), [MONSTERA, BEGONIA, MARANTA]);
    assert.deepEqual(await client.solve('plant-items', PLANT_INPUT, undefined, { cols: { includedConditionCols: ['col-stock'] } }), [MONSTERA, BEGONIA, PLANT_LOVERS]);
  });

  test('the correlation id and audit flag reach Verdict', async () => {
    await client.solve('plant-items', PLANT_INPUT, undefined, { corrId: 'sdk-corr-1', audit: true, auditTtl: '2' });
    const record = await eventually(async () => {
      const reply = await server.call('GET', '/api/audit?correlationId=sdk-corr-1', { key: server.space.managementKey });
      return reply.json.items[0] as { correlationId: string; output: unknown } | undefined;
    });
    assert.equal(record.correlationId, 'sdk-corr-1');
    assert.deepEqual(record.output, [MONSTERA, BEGONIA]);
  });

  test('an unknown rule surfaces as the SDK error for status 400', async () => {
    await assert.rejects(client.solve('no-such-rule', {}), (err: Error) => {
      assert.match(err.message, /Call ended with status:400/);
      return true;
    });
  });

  test('a wrong key surfaces as the SDK error for status 401', async () => {
    const wrong = new DecisionRules({ host: server.url, solverKey: 'vsk_wrong' });
    await assert.rejects(wrong.solve('plant-items', PLANT_INPUT), /status:401/);
  });
});
