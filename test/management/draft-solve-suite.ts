// POST /api/tools/solve, the Studio's test bench: a rule document that is not stored is checked exactly as a save
// checks it and solved exactly as POST /rule/solve solves a stored rule, with the trace an X-Debug audit record
// holds; nothing is stored. Over real HTTP on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { messageTable, PLANT_INPUT, plantFlow, plantTable } from '../http/fixtures.ts';
import { eventually } from '../http/harness.ts';
import { apiFor, asNew, assertError, skipReason, startSuiteServer } from './helpers.ts';
import type { Api, Doc, SuiteServer } from './helpers.ts';

export function draftSolveSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`draft solve (POST /api/tools/solve) on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;
    let api: Api;

    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind);
      api = s.api;
      // The stored table the flow drafts below call, and a stored twin of a draft to compare answers with.
      assert.equal((await api('POST', '/api/rule', asNew(plantTable(), ['ruleId', 'ruleAlias']))).status, 200);
      assert.equal((await api('POST', '/api/rule', asNew(plantTable({ ruleId: 'stored-twin', ruleAlias: 'stored-twin' }), ['ruleId', 'ruleAlias']))).status, 200);
    });
    after(async () => {
      if (!skip) await s.close();
    });

    async function storedState(): Promise<string> {
      const items = (await api('GET', '/api/space/items')).json;
      const audits = (await api('GET', '/api/audit')).json.items;
      return JSON.stringify({ items, audits: audits.length });
    }

    async function auditedTrace(path: string, data: unknown, headers: Record<string, string> = {}): Promise<{ body: unknown; trace: unknown }> {
      const correlation = `draft-cmp-${Math.random().toString(36).slice(2)}`;
      const reply = await s.server.call('POST', path, { key: s.space.solverKey, body: { data }, headers: { 'x-debug': 'true', 'x-correlation-id': correlation, ...headers } });
      assert.equal(reply.status, 200, reply.text);
      const record = await eventually(async () => (await api('GET', `/api/audit?correlationId=${correlation}`)).json.items[0]);
      return { body: reply.json, trace: record.debug };
    }

    test('a valid draft answers what POST /rule/solve answers for the stored rule, with the X-Debug trace, and stores nothing', { skip }, async () => {
      const expected = await auditedTrace('/rule/solve/stored-twin', PLANT_INPUT);
      const before = await storedState();
      const reply = await api('POST', '/api/tools/solve', { rule: asNew(plantTable()), data: PLANT_INPUT });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json.result, expected.body);
      assert.deepEqual(reply.json.trace, expected.trace);
      assert.ok(Array.isArray(reply.json.trace) && reply.json.trace.length > 0, 'a table trace lists the evaluated rows');
      assert.deepEqual(reply.json.warnings, []);
      // An audit record the draft solve queued would be written by this flush: no waiting for the timer.
      await s.server.running.services.audit.flush();
      assert.equal(await storedState(), before, 'no rule and no audit record was written');
    });

    test('bulk data, strategy and condition-column options behave as on a real solve', { skip }, async () => {
      const inputs = [PLANT_INPUT, { group: 'book', inStock: true }, { group: 'none' }];
      const expected = await auditedTrace('/rule/solve/stored-twin', inputs, { 'x-strategy': 'FIRST_MATCH' });
      const reply = await api('POST', '/api/tools/solve', { rule: asNew(plantTable()), data: inputs, strategy: 'FIRST_MATCH' });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json.result, expected.body);
      assert.equal(reply.json.result.length, 3);
      assert.deepEqual(reply.json.trace, expected.trace);
      assert.equal(reply.json.trace.length, 3, 'one trace per input');
      const excluded = await api('POST', '/api/tools/solve', { rule: asNew(plantTable()), data: { group: 'book' }, options: { excludedConditionCols: ['col-group'] } });
      const real = await s.solve('/rule/solve/stored-twin', { group: 'book' });
      const realExcluded = await s.server.call('POST', '/rule/solve/stored-twin', { key: s.space.solverKey, body: { data: { group: 'book' }, options: { excludedConditionCols: ['col-group'] } } });
      assert.deepEqual(excluded.json.result, realExcluded.json);
      assert.notDeepEqual(excluded.json.result, real.json, 'the option changed the answer');
    });

    test('a draft flow resolves the rules it calls against the stored rules of the space', { skip }, async () => {
      const flow = asNew(plantFlow());
      const reply = await api('POST', '/api/tools/solve', { rule: flow, data: { group: 'plant' } });
      assert.equal(reply.status, 200, reply.text);
      assert.equal((await api('POST', '/api/rule', { ...flow, ruleAlias: 'stored-flow' })).status, 200);
      assert.deepEqual(reply.json.result, (await s.solve('/rule/solve/stored-flow', { group: 'plant' })).json);
      assert.deepEqual(reply.json.result, [{ first: 'Monstera' }]);
    });

    test('an invalid draft is refused with every problem at its path, exactly as a save reports it', { skip }, async () => {
      const bad = asNew(plantTable());
      bad.decisionTable.rows[1].cells[0].scalarCondition.operator = 'betwen';
      delete bad.outputSchema;
      const broken = asNew(plantTable());
      broken.decisionTable.rows[2].cells[2].outputScalarValue = { type: 'function', value: 'SUM(1,', stringValue: 'SUM(1,' };
      const expectedPaths = [
        ['decisionTable.rows[1].cells[0].scalarCondition.operator', 'outputSchema'],
        ['decisionTable.rows[2].cells[2].outputScalarValue.stringValue'],
      ];
      for (const [i, draft] of [bad, broken].entries()) {
        const save = await api('POST', '/api/rule', draft);
        assert.equal(save.status, 400);
        const reply = await api('POST', '/api/tools/solve', { rule: draft, data: PLANT_INPUT });
        assertError(reply, 400, save.json.error.message);
        assert.deepEqual(reply.json.error.problems, save.json.error.problems);
        assert.deepEqual(reply.json.error.problems.map((p: { path: string }) => p.path).sort(), expectedPaths[i]);
      }
    });

    test('a rule error while solving answers what the solver answers; bad bodies name the field', { skip }, async () => {
      const failing = asNew(messageTable('x', 'x', 1, 'x'));
      failing.decisionTable.rows[0].cells[1].outputScalarValue = { type: 'function', value: 'SOLVE("no-such-rule", {})', stringValue: 'SOLVE("no-such-rule", {})' };
      const reply = await api('POST', '/api/tools/solve', { rule: failing, data: {} });
      assert.equal((await api('POST', '/api/rule', { ...failing, ruleAlias: 'failing-stored' })).status, 200);
      const real = await s.solve('/rule/solve/failing-stored', {});
      assert.equal(reply.status, real.status, reply.text);
      assert.deepEqual(reply.status === 200 ? reply.json.result : reply.json, real.json);
      assertError(await api('POST', '/api/tools/solve', { data: {} }), 400, 'Request body must contain "rule"');
      assertError(await api('POST', '/api/tools/solve', { rule: asNew(plantTable()) }), 400, 'Request body must contain "data"');
      assertError(await api('POST', '/api/tools/solve', { rule: [1], data: {} }), 400, /rule/);
      assertError(await api('POST', '/api/tools/solve', { rule: asNew(plantTable()), data: {}, strategy: 'FASTEST' }), 400, /strategy/);
      assertError(await api('POST', '/api/tools/solve', { rule: asNew(plantTable()), data: 5 }), 400, /data/);
    });

    test('needs a management key; another space never sees this space\'s rules', { skip }, async () => {
      assertError(await s.server.call('POST', '/api/tools/solve', { key: s.space.solverKey, body: { rule: asNew(plantTable()), data: {} } }), 401, 'This is a solver key; the management API needs a management key');
      assertError(await s.server.call('POST', '/api/tools/solve', { body: { rule: asNew(plantTable()), data: {} } }), 401, 'Authentication token missing');
      const other = await s.server.running.services.spaces.create(`draft-other-${kind}`);
      const b = apiFor(s.server, other.managementKey);
      const reply = await b('POST', '/api/tools/solve', { rule: asNew(plantFlow()), data: { group: 'plant' } });
      const mine = await api('POST', '/api/tools/solve', { rule: asNew(plantFlow()), data: { group: 'plant' } });
      assert.deepEqual(mine.json.result, [{ first: 'Monstera' }]);
      assert.notDeepEqual(reply.status === 200 ? reply.json.result : reply.json, mine.json.result, 'the flow cannot reach rule-plants of another space');
    });

    test('the OpenAPI example, sent as documented, answers the documented result', { skip }, async () => {
      const doc = await s.server.call('GET', '/api/docs/json');
      const operation = doc.json.paths['/api/tools/solve'].post;
      assert.deepEqual(operation.security, [{ managementKey: [] }]);
      const example = operation.requestBody.content['application/json'].example as Doc;
      const documented = operation.responses['200'].content['application/json'].example as Doc;
      const reply = await api('POST', '/api/tools/solve', example);
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, documented);
    });
  });
}
