// DMN models as the `dmn` rule type through the service over real HTTP (issue 31): a .dmn file imported by the
// management API (format detected from the XML), its typed model read on the write, tested, published, solved by
// /rule/solve with input data by name (answer `[{decision: value}]`), in bulk, a selection of decisions or a decision
// service; errors are 400s naming the element and the expression; exported back as the same XML; a model importing
// another finds it among the space's DMN rules by namespace; another space's rule is a 404.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { blankDmn } from '../../studio/src/dmn/model.ts';
import { eventually, startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';

const LOAN = readFileSync(new URL('../fixtures/dmn/loan.dmn', import.meta.url), 'utf8');
const TCK_IMPORT = new URL('../conformance/dmn-tck/compliance-level-3/0086-import/', import.meta.url);
const IMPORTED_MODEL = readFileSync(new URL('Imported_Model.dmn', TCK_IMPORT), 'utf8');
const IMPORTING_MODEL = readFileSync(new URL('0086-import.dmn', TCK_IMPORT), 'utf8');

let backend: Backend;
let server: TestServer;
let other: CreatedSpace;

function manage(method: string, path: string, body?: unknown): Promise<Reply> {
  return server.call(method, path, { key: server.space.managementKey, ...(body === undefined ? {} : { body }) });
}

/** Sends a .dmn file as it is, with an XML content type. */
function importXml(path: string, xml: string): Promise<Reply> {
  return server.call('POST', path, { key: server.space.managementKey, raw: xml, headers: { 'content-type': 'application/xml' } });
}

let ruleId: string;
let alias: string;

before(async () => {
  backend = sqliteBackend();
  server = await startTestServer({ backend });
  other = await server.running.services.spaces.create('dmn-other');
  const imported = await importXml('/api/rule-flow/import', LOAN);
  assert.equal(imported.status, 200, imported.text);
  assert.equal(imported.json.imported.length, 1);
  assert.equal(imported.json.imported[0].type, 'dmn');
  ({ ruleId, ruleAlias: alias } = imported.json.imported[0]);
});

after(async () => {
  await server?.close();
  await backend?.cleanup();
});

test('the import keeps the XML, reads the model and names the rule after it; rule tests pass on it', async () => {
  assert.equal(alias, 'loan-approval');
  const rule = await manage('GET', `/api/rule/${ruleId}`);
  assert.equal(rule.status, 200, rule.text);
  assert.equal(rule.json.type, 'dmn');
  assert.equal(rule.json.name, 'Loan approval');
  assert.equal(rule.json.status, 'pending');
  assert.equal(rule.json.dmn, LOAN);
  assert.deepEqual(rule.json.dmnModel.decisions.map((d: { name: string }) => d.name), ['Risk', 'Approval']);
  assert.deepEqual(Object.keys(rule.json.inputSchema), ['Age', 'Income']);
  assert.deepEqual(Object.keys(rule.json.outputSchema), ['Risk', 'Approval']);
  const suite = await manage('POST', `/api/tests/rule/${ruleId}/suites`, {
    name: 'Approvals',
    tests: [
      { name: 'minor', input: { Age: 16, Income: 90000 }, expected: [{ Risk: 'Low', Approval: 'Declined' }] },
      { name: 'low risk', input: { Age: 40, Income: 90000 }, expected: [{ Risk: 'Low', Approval: 'Approved' }] },
      { name: 'high risk', input: { Age: 40, Income: 1000 }, expected: [{ Risk: 'High', Approval: 'Review' }] },
    ],
  });
  assert.equal(suite.status, 200, suite.text);
  const run = await manage('POST', `/api/tests/run/${ruleId}`);
  assert.equal(run.status, 200, run.text);
  assert.deepEqual([run.json.passed, run.json.failed, run.json.errors], [3, 0, 0]);
});

test('published, it solves with input data by name: one answer object, a bulk, selected decisions, a decision service', async () => {
  const published = await manage('PUT', `/api/rule/status/${ruleId}/published`);
  assert.equal(published.status, 200, published.text);
  const one = await server.solve(`/rule/solve/${alias}/1`, { data: { Age: 40, Income: 90000 } });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.json, [{ Risk: 'Low', Approval: 'Approved' }]);
  const bulk = await server.solve(`/rule/solve/${alias}`, { data: [{ Age: 16, Income: 1 }, { Age: 40, Income: 1 }] });
  assert.equal(bulk.status, 200, bulk.text);
  assert.deepEqual(bulk.json, [[{ Risk: 'High', Approval: 'Declined' }], [{ Risk: 'High', Approval: 'Review' }]]);
  const risk = await server.solve(`/rule/solve/${alias}`, { data: { Income: 90000 }, options: { decisions: ['Risk'] } });
  assert.equal(risk.status, 200, risk.text);
  assert.deepEqual(risk.json, [{ Risk: 'Low' }]);
  const service = await server.solve(`/rule/solve/${alias}`, { data: { Age: 40, Income: 90000 }, options: { decisionService: 'Approval Service' } });
  assert.equal(service.status, 200, service.text);
  assert.deepEqual(service.json, [{ Approval: 'Approved' }]);
});

test('bad input and bad selections are 400s in the solver error shape, naming the element and the expression', async () => {
  const typed = await server.solve(`/rule/solve/${alias}`, { data: { Age: 40, Income: 'lots' } });
  assert.equal(typed.status, 400, typed.text);
  assert.match(typed.json.error.message, /inputData 'Income': the value does not conform to the type 'number'/);
  const lenient = await server.solve(`/rule/solve/${alias}`, { data: { Age: 40, Income: 'lots' }, options: { nullOnError: true } });
  assert.equal(lenient.status, 200, lenient.text);
  assert.deepEqual(lenient.json, [{ Risk: 'High', Approval: 'Review' }]);
  const unknown = await server.solve(`/rule/solve/${alias}`, { data: {}, options: { decisions: ['Interest'] } });
  assert.equal(unknown.status, 400, unknown.text);
  assert.match(unknown.json.error.message, /no decision named 'Interest'/);
  const both = await server.solve(`/rule/solve/${alias}`, { data: {}, options: { decisions: ['Risk'], decisionService: 'Approval Service' } });
  assert.equal(both.status, 400, both.text);
  assert.match(both.json.error.message, /decisions or decisionService, not both/);
  const inBulk = await server.solve(`/rule/solve/${alias}`, { data: [{ Age: 1, Income: 1 }, { Age: 'x', Income: 1 }] });
  assert.equal(inBulk.status, 400, inBulk.text);
  assert.match(inBulk.json.error.message, /data\[1\].*inputData 'Age'/);
});

test('X-Audit and X-Debug record the solve, with the decisions and the warnings in the trace', async () => {
  const headers = { 'X-Audit': 'true', 'X-Debug': 'true', 'X-Correlation-Id': 'dmn-audit' };
  const solved = await server.solve(`/rule/solve/${alias}`, { data: { Age: 40, Income: 'lots' }, options: { nullOnError: true } }, headers);
  assert.equal(solved.status, 200, solved.text);
  const record = await eventually(async () => (await manage('GET', '/api/audit?correlationId=dmn-audit')).json.items[0]);
  assert.equal(record.ruleType, 'dmn');
  assert.deepEqual(record.input, { Age: 40, Income: 'lots' });
  assert.deepEqual(record.output, [{ Risk: 'High', Approval: 'Review' }]);
  assert.deepEqual(record.debug, [{ decisions: { Risk: 'High', Approval: 'Review' }, warnings: ["inputData 'Income': the value does not conform to the type 'number'"] }]);
});

test('another space cannot solve or read the rule', async () => {
  // The Solver API answers an unknown rule as DecisionRules does (SPEC 3.1): 400, "Unknown rule or rule version".
  const solved = await server.solve(`/rule/solve/${alias}`, { data: { Age: 40, Income: 1 } }, {}, other.solverKey);
  assert.equal(solved.status, 400, solved.text);
  assert.match(solved.json.error.message, /Unknown rule/);
  const read = await server.call('GET', `/api/rule/${ruleId}`, { key: other.managementKey });
  assert.equal(read.status, 404, read.text);
  const exported = await server.call('GET', `/api/dmn/export/${ruleId}`, { key: other.managementKey });
  assert.equal(exported.status, 404, exported.text);
});

test('exported back as the .dmn file it was; a rule of another type is refused', async () => {
  const exported = await manage('GET', `/api/dmn/export/${alias}`);
  assert.equal(exported.status, 200, exported.text);
  assert.match(exported.headers.get('content-type') ?? '', /application\/xml/);
  assert.equal(exported.text, LOAN);
  const script = { type: 'complex-rule', name: 'S', ruleId: 'plain-script', ruleAlias: 'plain', status: 'pending', version: 1, inputSchema: {}, outputSchema: {}, script: 'return {};' };
  assert.equal((await manage('POST', '/api/rule-flow/import', script)).status, 200);
  const refused = await manage('GET', '/api/dmn/export/plain');
  assert.equal(refused.status, 400, refused.text);
  assert.match(refused.json.error.message, /not a DMN model/);
});

test('a new version through the rule API is read from its XML; a model that does not read or compile is refused, naming where', async () => {
  const changed = LOAN.replace('if Income &gt;= 50000', 'if Income &gt;= 10');
  const version = await manage('POST', `/api/rule/${ruleId}/new-version`, { type: 'dmn', dmn: changed, dmnModel: { stale: true } });
  assert.equal(version.status, 200, version.text);
  assert.equal(version.json.version, 2);
  assert.equal(version.json.dmnModel.decisions[0].logic.text, 'if Income >= 10 then "Low" else "High"');
  const broken = LOAN.replace('if Income &gt;= 50000 then "Low" else "High"', 'if Income &gt;= then "Low"');
  const refused = await manage('POST', `/api/rule/${ruleId}/new-version`, { type: 'dmn', dmn: broken });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.json.error.problems[0].path, 'dmn');
  assert.match(refused.json.error.problems[0].message, /decision 'Risk'/);
  const noXml = await manage('POST', `/api/rule/${ruleId}/new-version`, { type: 'dmn', dmnModel: {} });
  assert.equal(noXml.status, 400, noXml.text);
  assert.deepEqual(noXml.json.error.problems.filter((p: { path: string }) => p.path.startsWith('dmn')), [{ path: 'dmn', message: "must be the DMN model's XML as a string (got undefined)" }]);
  const notDmn = await importXml('/api/rule-flow/import', '<?xml version="1.0"?><definitions xmlns="http://example.com/other"/>');
  assert.equal(notDmn.status, 400, notDmn.text);
  // The space's folder tree lists every rule: unchanged by a refused import.
  const before = await manage('GET', '/api/folder');
  assert.equal(before.status, 200, before.text);
  const half = await importXml('/api/rule-flow/import', LOAN.slice(0, LOAN.length / 2));
  assert.equal(half.status, 400, half.text);
  assert.match(half.json.error.message, /DMN/);
  assert.deepEqual((await manage('GET', '/api/folder')).json, before.json);
});

test("a model's imports are found among the space's DMN rules by namespace; a missing one is named", async () => {
  const missing = await importXml('/api/rule-flow/import', IMPORTING_MODEL);
  assert.equal(missing.status, 400, missing.text);
  assert.match(missing.json.error.message, /import 'myimport': no DMN rule of this space has the namespace http:\/\/www\.trisotech\.com\/definitions\/_f27bb64b/);
  const base = await importXml('/api/folder/import', IMPORTED_MODEL);
  assert.equal(base.status, 200, base.text);
  // Checked with the models it imports at the write: a requirement of an element the imported model lacks is refused.
  const dangling = await importXml('/api/rule-flow/import', IMPORTING_MODEL.replace('#_32543811-b499-4608-b784-6c6f294b1c58', '#_no-such-bkm'));
  assert.equal(dangling.status, 400, dangling.text);
  assert.equal(dangling.json.error.problems[0].path, 'dmn');
  assert.match(dangling.json.error.problems[0].message, /_no-such-bkm/);
  const importing = await importXml('/api/rule-flow/import', IMPORTING_MODEL);
  assert.equal(importing.status, 200, importing.text);
  for (const r of [...base.json.imported, ...importing.json.imported]) {
    assert.equal((await manage('PUT', `/api/rule/status/${r.ruleId}/published`)).status, 200);
  }
  const solved = await server.solve(`/rule/solve/${importing.json.imported[0].ruleAlias}`, {
    data: [{ 'A Person': { name: 'John Doe', age: 21 } }, { 'A Person': { name: 'John Doe', age: 47 } }],
  });
  assert.equal(solved.status, 200, solved.text);
  assert.deepEqual(solved.json, [[{ 'A Decision Ctx with DT': 'Hello John Doe!' }], [{ 'A Decision Ctx with DT': 'Respectfully, Hello John Doe!' }]]);
});

test("the Studio's blank DMN rule (XML only) is accepted by a save and solves on the test bench", async () => {
  const blank = blankDmn('Blank model');
  const created = await manage('POST', '/api/rule', blank);
  assert.equal(created.status, 200, created.text);
  assert.equal(created.json.type, 'dmn');
  assert.equal(created.json.dmnModel.name, 'Blank model');
  // Whatever the blank holds: its input data and decisions are the schemas the server derived.
  const inputs = Object.keys(created.json.inputSchema);
  const decisions = Object.keys(created.json.outputSchema);
  assert.ok(inputs.length > 0 && decisions.length > 0, created.text);
  const data = [150, 5].map((n) => Object.fromEntries(inputs.map((name) => [name, n])));
  const bench = await manage('POST', '/api/tools/solve', { rule: blank, data });
  assert.equal(bench.status, 200, bench.text);
  assert.equal(bench.json.result.length, 2);
  for (const answer of bench.json.result) assert.deepEqual(Object.keys(answer[0]), decisions);
});

test('a folder export of the space imports into another space: the XML re-read, the imports linked there', async () => {
  const exported = await manage('GET', '/api/folder/export');
  assert.equal(exported.status, 200, exported.text);
  const imported = await server.call('POST', '/api/folder/import', { key: other.managementKey, body: exported.json });
  assert.equal(imported.status, 200, imported.text);
  const models = imported.json.imported.filter((i: { type: string }) => i.type === 'dmn');
  assert.ok(models.length >= 3, imported.text);
  const links: { name: string; ruleId: string }[] = [];
  for (const r of models) {
    const rule = await server.call('GET', `/api/rule/${r.ruleId}/${r.version}`, { key: other.managementKey });
    assert.equal(rule.status, 200, rule.text);
    assert.equal(typeof rule.json.dmnModel.namespace, 'string');
    links.push(...(rule.json.dmnImports ?? []));
  }
  assert.deepEqual(links.map((l) => l.name), ['myimport']);
  assert.ok(models.some((m: { ruleId: string }) => m.ruleId === links[0]!.ruleId), 'linked to a rule of the space it was imported into');
});
