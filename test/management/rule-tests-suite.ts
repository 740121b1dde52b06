// Rule tests over the Management API (issue 13), on SQLite and PostgreSQL over real HTTP: suites and tests, runs
// with structured differences and ignored paths, pending versions, the run history, space isolation, the publishing
// gate (status changes and updates, forced publishes recorded), and tests leaving with their rule.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { plantTable, script } from '../http/fixtures.ts';
import { apiFor, asNew, assertError, skipReason, startSuiteServer } from './helpers.ts';
import type { Api, Doc, SuiteServer } from './helpers.ts';

/** plant-items for {group: "plant"}: Monstera 460, Begonia 590. */
const PLANTS = [{ name: 'Monstera', price: 460 }, { name: 'Begonia', price: 590 }];

const passing = (name: string): Doc => ({ name, input: { group: 'plant' }, expected: PLANTS });

/** The plant table with one price changed: what a careless edit looks like. */
function repriced(price: string): Doc {
  const doc = asNew(plantTable());
  doc.decisionTable.rows[0].cells[3].outputScalarValue.value = price;
  return doc;
}

export function ruleTestsApiSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`management API rule tests on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;
    let api: Api;
    let other: Api;

    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind);
      api = s.api;
      assert.equal((await api('POST', '/api/rule', asNew(plantTable(), ['ruleId', 'ruleAlias']))).status, 200);
      const space = await s.server.running.services.spaces.create(`other-${kind}`);
      other = apiFor(s.server, space.managementKey);
    });
    after(async () => {
      if (!skip) await s.close();
    });

    async function ok(method: string, path: string, body?: unknown): Promise<any> {
      const reply = await api(method, path, body);
      assert.equal(reply.status, 200, `${method} ${path}: ${reply.text}`);
      return reply.json;
    }

    test('a suite is created with its tests, listed per rule and per space, and read back', { skip }, async () => {
      const suite = await ok('POST', '/api/tests/rule/plant-items/suites', {
        name: 'Catalogue',
        description: 'what the shop lists',
        tests: [{ name: 'plants', input: { group: 'plant' }, expected: PLANTS }],
      });
      assert.equal(suite.ruleId, 'rule-plants');
      assert.equal(suite.tests.length, 1);
      assert.deepEqual(suite.tests[0].expected, PLANTS);
      assert.deepEqual((await ok('GET', `/api/tests/suites/${suite.id}`)).tests.map((t: Doc) => t.name), ['plants']);
      const forRule = await ok('GET', '/api/tests/rule/rule-plants');
      assert.equal(forRule.ruleAlias, 'plant-items');
      assert.deepEqual(forRule.suites.map((x: Doc) => x.name), ['Catalogue']);
      const all = await ok('GET', '/api/tests');
      assert.deepEqual(all.map((r: Doc) => r.ruleId), ['rule-plants']);
      assertError(await api('POST', '/api/tests/rule/plant-items/suites', { name: 'Catalogue' }), 409, /already has a test suite named "Catalogue"/);
      const scratch = await ok('POST', '/api/tests/rule/plant-items/suites', { name: 'Scratch', tests: [passing('a'), passing('b')] });
      const renamed = await ok('PUT', `/api/tests/suites/${scratch.id}`, { name: 'Scratch 2' });
      assert.deepEqual([renamed.name, renamed.tests.map((t: Doc) => t.name)], ['Scratch 2', ['a', 'b']], 'fields left out stay');
      const replaced = await ok('PUT', `/api/tests/suites/${scratch.id}`, { tests: [passing('c')] });
      assert.deepEqual([replaced.name, replaced.tests.map((t: Doc) => [t.name, t.position])], ['Scratch 2', [['c', 0]]]);
      assertError(await api('PUT', `/api/tests/suites/${scratch.id}`, { name: 'Catalogue' }), 409, /already has a test suite named "Catalogue"/);
      assertError(await api('PUT', `/api/tests/suites/${scratch.id}`, { tests: [{ name: 'x' }] }), 400, /tests\[0\]\.expected: must be an array/);
      assert.deepEqual((await ok('GET', `/api/tests/suites/${scratch.id}`)).tests.map((t: Doc) => t.name), ['c'], 'a refused update changes nothing');
      await ok('DELETE', `/api/tests/suites/${scratch.id}`);
    });

    test('a bad test is refused with every problem and its path, and nothing is stored', { skip }, async () => {
      const reply = await api('POST', '/api/tests/rule/plant-items/suites', {
        name: 'Broken',
        tests: [{ name: 'x', input: [], expected: {}, ignore: ['a..b'], strategy: 'FASTEST' }],
      });
      assertError(reply, 400, /The test suite is invalid \(4 problems\)/);
      assert.deepEqual(reply.json.error.problems.map((p: Doc) => p.path), ['tests[0].input', 'tests[0].expected', 'tests[0].ignore[0]', 'tests[0].strategy']);
      assert.deepEqual((await ok('GET', '/api/tests/rule/plant-items')).suites.map((x: Doc) => x.name), ['Catalogue']);
      assertError(await api('POST', '/api/tests/rule/no-such-rule/suites', { name: 'x' }), 404, 'Rule "no-such-rule" not found');
    });

    test('a run reports passed, failed (each differing path with expected and received) and error tests', { skip }, async () => {
      const suite = await ok('POST', '/api/tests/rule/plant-items/suites', {
        name: 'Mixed',
        tests: [
          { name: 'right', input: { group: 'plant' }, expected: PLANTS },
          { name: 'wrong price', input: { group: 'plant' }, expected: [{ name: 'Monstera', price: 999 }, { name: 'Begonia', price: 590 }] },
          { name: 'price ignored', input: { group: 'plant' }, expected: [{ name: 'Monstera', price: 1 }, { name: 'Begonia', price: 2 }], ignore: ['price'] },
          { name: 'one row short', input: { group: 'plant' }, expected: [{ name: 'Monstera', price: 460 }] },
        ],
      });
      const run = await ok('POST', '/api/tests/run/plant-items', { suiteIds: [suite.id] });
      assert.equal(run.version, 1);
      assert.deepEqual([run.passed, run.failed, run.errors], [2, 2, 0]);
      const byName = Object.fromEntries(run.results.map((r: Doc) => [r.testName, r]));
      assert.equal(byName.right.status, 'passed');
      assert.deepEqual(byName.right.received, PLANTS);
      assert.equal(byName['wrong price'].status, 'failed');
      assert.deepEqual(byName['wrong price'].differences, [{ path: '[0].price', kind: 'changed', expected: 999, received: 460 }]);
      assert.equal(byName['price ignored'].status, 'passed');
      assert.deepEqual(byName['one row short'].differences, [{ path: '[1]', kind: 'unexpected', received: { name: 'Begonia', price: 590 } }]);
      const stored = await ok('GET', `/api/tests/runs/${run.id}`);
      assert.deepEqual(stored, run);
    });

    test('a solve that fails (a script that throws) makes the test an error with its message; others still run', { skip }, async () => {
      await ok('POST', '/api/rule', asNew(script('rule-thrower', 'thrower', 'if (input.fail) throw new Error("value1 is required");\nreturn { ok: true };'), ['ruleId', 'ruleAlias']));
      await ok('POST', '/api/tests/rule/thrower/suites', {
        name: 'Script',
        tests: [{ name: 'throws', input: { fail: true }, expected: [] }, { name: 'answers', input: {}, expected: [{ ok: true }] }],
      });
      const run = await ok('POST', '/api/tests/run/thrower');
      assert.deepEqual(run.results.map((r: Doc) => [r.testName, r.status]), [['throws', 'error'], ['answers', 'passed']]);
      assert.match(run.results[0].error, /value1 is required/);
      assert.equal(run.results[0].received, null);
      assert.deepEqual([run.passed, run.failed, run.errors], [1, 0, 1]);
      await ok('DELETE', '/api/rule/thrower');
    });

    test('selected tests run alone; a suite runs against the version asked for; unknown ids are 404', { skip }, async () => {
      const suites = (await ok('GET', '/api/tests/rule/plant-items')).suites;
      const mixed = suites.find((x: Doc) => x.name === 'Mixed');
      const wrong = mixed.tests.find((t: Doc) => t.name === 'wrong price');
      const run = await ok('POST', '/api/tests/run/plant-items/1', { testIds: [wrong.id] });
      assert.deepEqual(run.results.map((r: Doc) => r.testName), ['wrong price']);
      const suiteRun = await ok('POST', `/api/tests/suites/${mixed.id}/run?version=1`);
      assert.equal(suiteRun.results.length, 4);
      assertError(await api('POST', '/api/tests/run/plant-items', { testIds: ['nope'] }), 404, /Test "nope" not found/);
      assertError(await api('POST', '/api/tests/run/plant-items', { testIds: 'all' }), 400, /Request body must be \{"suiteIds"/);
      assertError(await api('POST', '/api/tests/run/plant-items/7'), 404, 'Rule "rule-plants" has no version 7');
    });

    test('tests are edited, added and deleted; a pending version is tested before it is published', { skip }, async () => {
      const mixed = (await ok('GET', '/api/tests/rule/plant-items')).suites.find((x: Doc) => x.name === 'Mixed');
      for (const t of mixed.tests.filter((x: Doc) => x.name !== 'right')) await ok('DELETE', `/api/tests/suites/${mixed.id}/tests/${t.id}`);
      const added = await ok('POST', `/api/tests/suites/${mixed.id}/tests`, { name: 'books', input: { group: 'book' }, expected: [{ name: 'Plant Lovers', price: 470 }] });
      assert.equal(added.position, 1);
      const edited = await ok('PUT', `/api/tests/suites/${mixed.id}/tests/${added.id}`, { name: 'books', input: { group: 'book' }, expected: [{ name: 'Plant Lovers', price: 470 }], strategy: 'first_match' });
      assert.equal(edited.strategy, 'FIRST_MATCH');
      assert.equal(edited.createdAt, added.createdAt);
      assertError(await api('GET', `/api/tests/suites/${mixed.id}/tests/nope`), 404, /Test "nope" not found/);

      const v2 = await ok('POST', '/api/rule/plant-items/new-version', repriced('470'));
      assert.equal(v2.status, 'pending');
      const run = await ok('POST', '/api/tests/run/plant-items/2', { suiteIds: [mixed.id] });
      assert.equal(run.version, 2);
      assert.deepEqual(run.results.map((r: Doc) => [r.testName, r.status]), [['right', 'failed'], ['books', 'passed']]);
      assert.deepEqual(run.results[0].differences, [{ path: '[0].price', kind: 'changed', expected: 460, received: 470 }]);
    });

    test('trying an input on a pending version answers the output without storing a run', { skip }, async () => {
      const before = (await ok('GET', '/api/tests/runs?limit=200')).items.length;
      const tried = await ok('POST', '/api/tests/try/plant-items/2', { input: { group: 'book' } });
      assert.deepEqual([tried.status, tried.received, tried.differences], ['failed', [{ name: 'Plant Lovers', price: 470 }], [{ path: '[0]', kind: 'unexpected', received: { name: 'Plant Lovers', price: 470 } }]]);
      const compared = await ok('POST', '/api/tests/try/plant-items/2', { input: { group: 'plant' }, expected: PLANTS });
      assert.deepEqual(compared.differences, [{ path: '[0].price', kind: 'changed', expected: 460, received: 470 }]);
      assertError(await api('POST', '/api/tests/try/plant-items/2', { input: 'x' }), 400, /input: must be a JSON object/);
      assertError(await other('POST', '/api/tests/try/plant-items/2', { input: {} }), 404, 'Rule "plant-items" not found');
      assert.equal((await ok('GET', '/api/tests/runs?limit=200')).items.length, before, 'nothing stored');
    });

    test('the run history lists runs newest first, by rule and version, a page at a time', { skip }, async () => {
      const all = await ok('GET', '/api/tests/runs?rule=plant-items');
      assert.ok(all.items.length >= 4);
      assert.equal(all.items[0].version, 2);
      assert.equal(all.items[0].results, undefined, 'listings leave per-test results out');
      const v1 = await ok('GET', '/api/tests/runs?rule=plant-items&version=1');
      assert.ok(v1.items.every((r: Doc) => r.version === 1));
      const page = await ok('GET', '/api/tests/runs?limit=1');
      assert.equal(page.items.length, 1);
      const next = await ok('GET', `/api/tests/runs?limit=1&cursor=${page.nextCursor}`);
      assert.notEqual(next.items[0].id, page.items[0].id);
      assertError(await api('GET', '/api/tests/runs?cursor=garbage'), 400, /cursor/);
    });

    test("another space's key sees none of it: suites, tests, runs, gate and runs of the rule are 404", { skip }, async () => {
      const suite = (await ok('GET', '/api/tests/rule/plant-items')).suites[0];
      const run = (await ok('GET', '/api/tests/runs?limit=1')).items[0];
      assertError(await other('GET', `/api/tests/suites/${suite.id}`), 404, `Test suite "${suite.id}" not found`);
      assertError(await other('PUT', `/api/tests/suites/${suite.id}`, { name: 'stolen' }), 404, /not found/);
      assertError(await other('DELETE', `/api/tests/suites/${suite.id}`), 404, /not found/);
      assertError(await other('GET', `/api/tests/suites/${suite.id}/tests/${suite.tests[0].id}`), 404, /not found/);
      assertError(await other('POST', `/api/tests/suites/${suite.id}/tests`, { name: 'x', expected: [] }), 404, /not found/);
      assertError(await other('POST', `/api/tests/suites/${suite.id}/run`), 404, /not found/);
      assertError(await other('GET', `/api/tests/runs/${run.id}`), 404, `Test run "${run.id}" not found`);
      assertError(await other('GET', '/api/tests/rule/plant-items'), 404, 'Rule "plant-items" not found');
      assertError(await other('POST', '/api/tests/run/rule-plants'), 404, /not found/);
      assert.deepEqual((await other('GET', '/api/tests')).json, []);
      assert.deepEqual((await other('GET', '/api/tests/runs')).json.items, []);
      assert.deepEqual((await other('POST', '/api/tests/run')).json, { passed: 0, failed: 0, errors: 0, runs: [] });
      assert.equal((await ok('GET', `/api/tests/suites/${suite.id}`)).name, suite.name, 'unchanged in its own space');
      assertError(await s.server.call('GET', '/api/tests', { key: s.space.solverKey }), 401, 'This is a solver key; the management API needs a management key');
    });

    test('the publishing gate: off by default; on, a failing pending version is refused with its failing tests', { skip }, async () => {
      assert.deepEqual(await ok('GET', '/api/tests/gate'), { space: false, rules: [] });
      assert.deepEqual(await ok('PUT', '/api/tests/gate', { enabled: true }), { space: true, rules: [] });
      const refused = await api('PUT', '/api/rule/status/plant-items/published/2');
      assertError(refused, 409, /^Rule "plant-items" version 2 fails 2 of 3 tests \(run [0-9a-f-]+\); the publishing gate refuses to publish it\. .*\?force=true$/);
      assert.deepEqual(refused.json.error.problems, [
        { path: 'suites["Catalogue"].tests["plants"]', message: 'failed: [0].price: expected 460, received 470' },
        { path: 'suites["Mixed"].tests["right"]', message: 'failed: [0].price: expected 460, received 470' },
      ]);
      assert.equal((await ok('GET', '/api/rule/plant-items/2')).status, 'pending');
      const gateRun = (await ok('GET', '/api/tests/runs?rule=plant-items&version=2&limit=1')).items[0];
      assert.deepEqual([gateRun.trigger, gateRun.forced], ['publish', false]);
    });

    test('?force=true publishes anyway and the run history records the forced publish', { skip }, async () => {
      const published = await ok('PUT', '/api/rule/status/plant-items/published/2?force=true');
      assert.equal(published.status, 'published');
      const gateRun = (await ok('GET', '/api/tests/runs?rule=plant-items&version=2&limit=1')).items[0];
      assert.deepEqual([gateRun.trigger, gateRun.forced], ['publish', true]);
      assert.ok(gateRun.failed > 0);
    });

    test('an update that changes a published version passes the gate too; a rule override turns it off', { skip }, async () => {
      const before = await ok('GET', '/api/rule/plant-items/1');
      const refused = await api('PUT', '/api/rule/plant-items/1', { ...asNew(plantTable()), decisionTable: repriced('999').decisionTable });
      assertError(refused, 409, /version 1 fails/);
      assert.deepEqual(await ok('GET', '/api/rule/plant-items/1'), before, 'nothing stored');
      const passing = await api('PUT', '/api/rule/plant-items/1', { ...asNew(plantTable()), description: 'same table' });
      assert.equal(passing.status, 200, passing.text);
      assert.deepEqual(await ok('PUT', '/api/tests/gate/plant-items', { enabled: false }), { ruleId: 'rule-plants', enabled: false, override: false, space: true });
      const runsBefore = (await ok('GET', '/api/tests/runs?rule=plant-items&limit=200')).items.length;
      assert.equal((await api('PUT', '/api/rule/plant-items/1', { ...asNew(plantTable()), decisionTable: repriced('999').decisionTable })).status, 200);
      assert.equal((await ok('GET', '/api/tests/runs?rule=plant-items&limit=200')).items.length, runsBefore, 'no gate, no run');
      assert.deepEqual(await ok('PUT', '/api/tests/gate/plant-items', { enabled: null }), { ruleId: 'rule-plants', enabled: true, override: null, space: true });
      assertError(await api('PUT', '/api/tests/gate', { enabled: 'yes' }), 400, /enabled/);
      await ok('PUT', '/api/tests/gate', { enabled: false });
    });

    test('running every rule of the space runs each rule with tests at its latest version', { skip }, async () => {
      const result = await ok('POST', '/api/tests/run');
      assert.deepEqual(result.runs.map((r: Doc) => [r.ruleId, r.version]), [['rule-plants', 2]]);
      assert.equal(result.passed + result.failed + result.errors, result.runs[0].results.length);
    });

    test('tests travel in folder and rule-flow exports (testSuites) and import back into another space', { skip }, async () => {
      const exported = await ok('GET', '/api/folder/export');
      const docs = exported.export.data.rules.filter((r: Doc) => r.ruleId === 'rule-plants');
      assert.deepEqual(docs.map((d: Doc) => [d.version, d.testSuites?.map((x: Doc) => x.name)]), [[1, undefined], [2, ['Catalogue', 'Mixed']]]);
      const flow = (await ok('GET', '/api/rule-flow/export/plant-items/1'));
      assert.deepEqual(flow[0].testSuites.map((x: Doc) => x.name), ['Catalogue', 'Mixed'], 'a single version exported carries its rule\'s tests');
      const broken = structuredClone(exported);
      broken.export.data.rules.find((r: Doc) => r.testSuites).testSuites[0].tests[0].expected = 'nope';
      const refused = await other('POST', '/api/folder/import', broken);
      assertError(refused, 400, /expected: must be an array/);
      assert.match(refused.json.error.problems[0].path, /^export\.data\.rules\[\d+\]\.testSuites\[0\]\.tests\[0\]\.expected$/);
      assert.deepEqual((await other('GET', '/api/space/items')).json, [], 'nothing imported');
      const imported = await other('POST', '/api/folder/import', exported);
      assert.equal(imported.status, 200, imported.text);
      const copied = (await other('GET', '/api/tests/rule/plant-items')).json;
      assert.deepEqual(copied.suites.map((x: Doc) => [x.name, x.tests.map((t: Doc) => t.name)]), (await ok('GET', '/api/tests/rule/plant-items')).suites.map((x: Doc) => [x.name, x.tests.map((t: Doc) => t.name)]));
      assert.equal((await other('GET', '/api/rule/plant-items/2')).json.testSuites, undefined, 'stored documents do not carry the tests');
      const again = await other('POST', '/api/folder/import', exported);
      assert.equal(again.status, 200);
      assert.equal((await other('GET', '/api/tests/rule/plant-items')).json.suites.length, 2, 'importing again replaces suites by name');
    });

    test('deleting a suite deletes its tests; deleting the rule deletes its suites and runs', { skip }, async () => {
      const suites = (await ok('GET', '/api/tests/rule/plant-items')).suites;
      await ok('DELETE', `/api/tests/suites/${suites[0].id}`);
      assertError(await api('GET', `/api/tests/suites/${suites[0].id}`), 404, /not found/);
      await ok('PATCH', '/api/rule/lock/plant-items/1', { locked: false });
      await ok('DELETE', '/api/rule/plant-items');
      assert.deepEqual(await ok('GET', '/api/tests'), []);
      assert.deepEqual((await ok('GET', '/api/tests/runs')).items, []);
      assert.equal((await ok('POST', '/api/rule', asNew(plantTable(), ['ruleId', 'ruleAlias']))).ruleId, 'rule-plants');
      assert.deepEqual((await ok('GET', '/api/tests/rule/plant-items')).suites, [], 'a new rule with the same id starts without tests');
    });
  });
}
