// Regression tests for out-of-range numbers a client chooses (docs/decisions/input-bounds.md): rule versions
// outside 1..2^31-1 and audit TTLs outside 1..3650 days are refused by every way in, naming the path; a version at
// the maximum stays reachable, and adding a version after it is a clear 409, never an overflow.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ValidationError } from '../../src/engine/errors.ts';
import { prepareForStorage } from '../../src/service/rules-io.ts';
import { messageTable } from '../http/fixtures.ts';
import { asNew, assertError, startSuiteServer } from './helpers.ts';
import type { Api, Doc, SuiteServer } from './helpers.ts';

const MAX = 2_147_483_647;

function folderExport(rules: Doc[], leaves: Doc[] = []): Doc {
  return { export: { exportType: 'FOLDER', version: 1, data: { structure: { id: 'root', type: 'ROOT', name: 'Home', children: leaves }, rules } } };
}

describe('input bounds over the management API (SQLite)', () => {
  let s: SuiteServer;
  let api: Api;

  before(async () => {
    s = await startSuiteServer('sqlite');
    api = s.api;
  });
  after(async () => {
    await s.close();
  });

  async function count(): Promise<number> {
    return (await api('GET', '/api/space/items')).json.length;
  }

  test('folder import refuses versions 1e300 and 99999999999, in rules and in RULE leaves, naming the path; nothing is stored', async () => {
    const before = await count();
    let reply = await api('POST', '/api/folder/import', folderExport([messageTable('big-1', 'big-one', 1e300, 'x')]));
    assertError(reply, 400, /version: must be an integer from 1 to 2147483647 \(got 1e\+300\)/);
    assert.deepEqual(reply.json.error.problems, [{ path: 'export.data.rules[0].version', message: 'must be an integer from 1 to 2147483647 (got 1e+300)' }]);
    reply = await api('POST', '/api/folder/import', folderExport([messageTable('big-2', 'big-two', 99999999999, 'x')]));
    assert.deepEqual(reply.json.error.problems, [{ path: 'export.data.rules[0].version', message: 'must be an integer from 1 to 2147483647 (got 99999999999)' }]);
    reply = await api('POST', '/api/folder/import', folderExport([messageTable('big-3', 'big-three', 1, 'x')], [{ type: 'RULE', baseId: 'big-3', version: 99999999999 }]));
    assertError(reply, 400, /export\.data\.structure\.children\[0\]\.version: must be an integer from 1 to 2147483647 \(got 99999999999\)/);
    assert.equal(await count(), before);
  });

  test('9007199254740993 (read as ...992 by JSON.parse) is refused, not stored as another number', async () => {
    const text = JSON.stringify(folderExport([messageTable('big-4', 'big-four', 1, 'x')])).replace('"version":1,"ruleAlias"', '"version":9007199254740993,"ruleAlias"');
    assert.match(text, /9007199254740993/);
    const reply = await s.server.call('POST', '/api/folder/import', { key: s.space.managementKey, raw: text, headers: { 'content-type': 'application/json' } });
    assertError(reply, 400, /export\.data\.rules\[0\]\.version: must be an integer from 1 to 2147483647 \(got 9007199254740992\)/);
    assertError(await api('GET', '/api/rule/big-4'), 404, 'Rule "big-4" not found');
  });

  test('rule-flow import and rule create refuse out-of-range versions, including in flow references', async () => {
    let reply = await api('POST', '/api/rule-flow/import', [messageTable('big-5', 'big-five', 99999999999, 'x')]);
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(reply.json.error.problems, [{ path: '[0].version', message: 'must be an integer from 1 to 2147483647 (got 99999999999)' }]);
    reply = await api('POST', '/api/rule-flow/import?new-version=big-5&version=2147483648', [messageTable('big-5', 'big-five', 1, 'x')]);
    assertError(reply, 400, 'Query parameter version must be an integer from 1 to 2147483647');
    const flow = {
      name: 'Flow', type: 'composition', status: 'published', inputSchema: { any: {} }, outputSchema: { message: {} },
      dataTree: { children: [{ type: 'rule', baseId: 'x', version: 1e300, children: [] }] },
    };
    reply = await api('POST', '/api/rule', flow);
    assert.equal(reply.status, 400, reply.text);
    const problem = reply.json.error.problems.find((p: { path: string }) => p.path === 'dataTree.children[0].version');
    assert.match(problem?.message ?? reply.text, /an integer from 1 to 2147483647\), -1 or "latest" \(got 1e\+300\)/);
  });

  test('CLI import (RulesIO) refuses the same versions with the file and path named', async () => {
    await assert.rejects(
      s.server.running.services.rulesIO.importContainers(s.space.space, [{ source: 'rules.json', value: [messageTable('big-6', 'big-six', 1e300, 'x')] }]),
      (err: unknown) => err instanceof ValidationError && err.problems[0]!.path === 'rules.json: [0].version' && /got 1e\+300/.test(err.problems[0]!.message),
    );
  });

  test('version 2147483647 is reachable by every route; 2147483648 is a 400; new-version after it is a 409 that changes nothing', async () => {
    let reply = await api('POST', '/api/folder/import', folderExport([messageTable('top', 'top-version', MAX, 'top')]));
    assert.equal(reply.status, 200, reply.text);
    assert.equal((await api('GET', `/api/rule/top/${MAX}`)).json.version, MAX);
    assert.deepEqual((await s.solve(`/rule/solve/top-version/${MAX}`, {})).json, [{ message: 'top' }]);
    assertError(await api('GET', `/api/rule/top/${MAX + 1}`), 400, `Version "${MAX + 1}" must be an integer from 1 to 2147483647 or "latest"`);
    assertError(await api('GET', '/api/rule/top/99999999999'), 400, 'The version in the path must be an integer from 1 to 2147483647 or "latest"');
    assertError(await s.solve(`/rule/solve/top-version/${MAX + 1}`, {}), 400, 'The version in the path must be an integer from 1 to 2147483647');
    reply = await api('POST', '/api/rule/top/new-version', asNew(messageTable('top', 'top-version', 1, 'overwritten')));
    assertError(reply, 409, `Rule "top" has used version ${MAX}, the highest version number there is (${MAX}); create a new rule instead`);
    reply = await api('POST', '/api/rule-flow/import?new-version=top', [asNew(messageTable('top', 'top-version', 1, 'overwritten'))]);
    assertError(reply, 409, /highest version number there is/);
    reply = await api('POST', '/api/folder/import', folderExport([asNew(messageTable('top', 'top-version', 1, 'overwritten'), ['ruleId'])]));
    assertError(reply, 409, /highest version number there is/);
    assert.deepEqual((await s.solve(`/rule/solve/top-version/${MAX}`, {})).json, [{ message: 'top' }], 'the top version is unchanged');
    assert.deepEqual((await api('GET', '/api/rule/top')).json.version, MAX);
  });

  test('auditLog.ttl of 1e9 days (or a fraction, or 3651) is refused at save and import, naming the path', async () => {
    for (const ttl of [1e9, 1.5, 3651, 0]) {
      const reply = await api('POST', '/api/rule', { ...asNew(messageTable('t', 'ttl-rule', 1, 'x')), auditLog: { active: true, ttl } });
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(reply.json.error.problems, [{ path: 'auditLog.ttl', message: `must be a whole number of days from 1 to 3650 (got ${ttl})` }]);
    }
    const reply = await api('POST', '/api/folder/import', folderExport([{ ...messageTable('ttl-2', 'ttl-two', 1, 'x'), auditLog: { active: true, ttl: 1e9 } }]));
    assert.deepEqual(reply.json.error.problems, [{ path: 'export.data.rules[0].auditLog.ttl', message: 'must be a whole number of days from 1 to 3650 (got 1000000000)' }]);
    const ok = await api('POST', '/api/rule', { ...asNew(messageTable('t', 'ttl-ok', 1, 'x')), auditLog: { active: true, ttl: 3650 } });
    assert.equal(ok.status, 200, ok.text);
  });

  test('a rule stored before TTLs were bounded (ttl 1e9) answers 400 naming the problem, not 500', async () => {
    const doc = { ...messageTable('legacy-ttl', 'legacy-ttl', 1, 'legacy'), auditLog: { active: true, ttl: 1e9 } };
    await s.server.running.store.rules.put(s.space.space, [prepareForStorage(doc, new Date().toISOString())]);
    const reply = await s.server.call('POST', '/rule/solve/legacy-ttl', { key: s.space.solverKey, body: { data: {} }, headers: { 'x-correlation-id': 'legacy-ttl' } });
    assertError(reply, 400, 'auditLog.ttl: must be a whole number of days from 1 to 3650 (got 1000000000)');
  });
});
