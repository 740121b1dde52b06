// A DMN rule solved over the Kafka channel (issue 31): the same SolveService path as HTTP, so the answer is
// `[{decision: value}]` and an evaluation error is a 400 naming the element, with the HTTP API's message; the
// x-dmn-* headers carry the solve options of the HTTP body.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import { bindSpace, channelEnv, kafkaSuite, seedSpace, startInstance, tempDb, TestClient, uniqueId } from './harness.ts';
import type { Instance, ResponseCollector, TempDb } from './harness.ts';

const { skip, kafka, createdTopics } = await kafkaSuite();
const LOAN = readFileSync(new URL('../fixtures/dmn/loan.dmn', import.meta.url), 'utf8');

describe('Kafka channel: a DMN rule', { skip }, () => {
  let db: TempDb;
  let instance: Instance;
  let space: CreatedSpace;
  let client: TestClient;
  let responses: ResponseCollector;

  before(async () => {
    db = tempDb();
    instance = await startInstance(channelEnv(kafka.bootstrap, db, uniqueId('verdict-dmn')));
    space = await seedSpace(instance, 'lender', [{ type: 'dmn', name: 'Loan approval', ruleAlias: 'loan', status: 'published', dmn: LOAN }]);
    const binding = await bindSpace(instance, 'lender', 'lender', 1);
    createdTopics.push(binding.requestTopic, binding.responseTopic);
    client = new TestClient({ bootstrap: kafka.bootstrap });
    responses = await client.collect(binding.responseTopic);
    const headers = (key: string) => ({ 'api-key': space.solverKey, 'rule-id': 'loan', 'x-correlation-id': key });
    await client.produce(binding.requestTopic, [
      { key: 'ok', partition: 0, headers: headers('ok'), value: JSON.stringify({ Age: 40, Income: 90000 }) },
      { key: 'typed', partition: 0, headers: headers('typed'), value: JSON.stringify({ Age: 40, Income: 'lots' }) },
      { key: 'risk', partition: 0, headers: { ...headers('risk'), 'x-dmn-decisions': 'Risk' }, value: JSON.stringify({ Income: 1 }) },
      { key: 'service', partition: 0, headers: { ...headers('service'), 'x-dmn-decision-service': 'Approval Service' }, value: JSON.stringify({ Age: 40, Income: 90000 }) },
      { key: 'lenient', partition: 0, headers: { ...headers('lenient'), 'x-dmn-null-on-error': 'true' }, value: JSON.stringify({ Age: 40, Income: 'lots' }) },
    ]);
    await responses.waitForCount(5, 120_000);
  });

  after(async () => {
    await client?.close();
    await instance?.close();
    db?.cleanup();
  });

  test('answers [{decision: value}] as over HTTP; an evaluation error is a 400 naming the element', async () => {
    assert.deepEqual(JSON.parse(responses.byKey('ok')!.text), { data: [{ Risk: 'Low', Approval: 'Approved' }], correlationId: 'ok' });
    const failed = JSON.parse(responses.byKey('typed')!.text) as { data: unknown[]; errors: { code: number; message: string }[] };
    assert.deepEqual(failed.data, []);
    assert.equal(failed.errors[0]!.code, 400);
    assert.match(failed.errors[0]!.message, /inputData 'Income': the value does not conform to the type 'number'/);
    const http = await fetch(`${instance.running.url}/rule/solve/loan`, {
      method: 'POST',
      headers: { authorization: `Bearer ${space.solverKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { Age: 40, Income: 'lots' } }),
    });
    assert.equal(((await http.json()) as { error: { message: string } }).error.message, failed.errors[0]!.message);
  });

  test('the x-dmn-* headers select decisions or a decision service and ask for null on error', () => {
    assert.deepEqual(JSON.parse(responses.byKey('risk')!.text), { data: [{ Risk: 'High' }], correlationId: 'risk' });
    assert.deepEqual(JSON.parse(responses.byKey('service')!.text), { data: [{ Approval: 'Approved' }], correlationId: 'service' });
    assert.deepEqual(JSON.parse(responses.byKey('lenient')!.text), { data: [{ Risk: 'High', Approval: 'Review' }], correlationId: 'lenient' });
  });
});
