// One namespace for rule ids and aliases in a space (issue 32 item 7, docs/decisions/id-alias-namespace.md): the
// alias capture from the issue (a management key creating a rule whose id is the example rule's alias) is refused
// and the example keeps answering; every other path that sets an id or alias refuses a clash the same way
// (rename, rule-flow import, folder import, `verdict import`, MCP create_rule); unsafe ids are a 400 naming the
// rule; generated aliases step around ids; a clash stored before the check is logged at start, not rewritten,
// and lookups by it answer the rule whose id it is.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '../../src/store/open.ts';
import { startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';
import { runCli } from '../http/process.ts';
import { messageTable } from '../support/rule-builders.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { apiFor, assertError } from './helpers.ts';
import type { Api } from './helpers.ts';

const EXAMPLE = JSON.parse(readFileSync(new URL('../../examples/rules/shipping-fee.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const EXAMPLE_ID = String(EXAMPLE.ruleId);
const DOMESTIC = { order: { country: 'CZ', total: 50 } };

/** A copy of the example rule (so it solves) with another identity. */
function exampleAs(ruleId: string | undefined, ruleAlias: string | undefined, name = 'Captured fee'): Record<string, unknown> {
  const { ruleId: _id, ruleAlias: _alias, version: _version, ...rest } = EXAMPLE;
  return { ...rest, name, ...(ruleId === undefined ? {} : { ruleId }), ...(ruleAlias === undefined ? {} : { ruleAlias }) };
}

describe('one namespace for rule ids and aliases', () => {
  let backend: Backend;
  let server: TestServer;
  let api: Api;
  let dir: string;

  const solveMessage = async (idOrAlias: string): Promise<unknown> => {
    const reply = await server.solve(`/rule/solve/${idOrAlias}`, { data: DOMESTIC });
    assert.equal(reply.status, 200, reply.text);
    return reply.json[0].message;
  };
  const ruleIds = async (): Promise<string[]> => ((await api('GET', '/api/space/items')).json as Array<{ ruleId: string }>).map((r) => r.ruleId).sort();

  before(async () => {
    backend = sqliteBackend();
    dir = mkdtempSync(join(tmpdir(), 'verdict-namespace-'));
    server = await startTestServer({ backend, env: { VERDICT_SEED_EXAMPLES: 'true' } });
    api = apiFor(server, server.space.managementKey);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    await backend?.cleanup();
  });

  test('the alias capture of the issue: POST /api/rule with ruleId "shipping-fee" is 409, the example still answers', async () => {
    assert.equal(await solveMessage('shipping-fee'), 'Domestic shipping');
    const before = await ruleIds();
    const reply = await api('POST', '/api/rule', exampleAs('shipping-fee', undefined));
    assertError(reply, 409, `ruleId "shipping-fee" is the alias of rule ${EXAMPLE_ID} ("Shipping Fee") in this space; a rule cannot take another rule's alias as its id (it would answer that alias's solves); choose another ruleId, or leave it out to have one generated`);
    assert.deepEqual(await ruleIds(), before, 'nothing was created');
    assert.equal(await solveMessage('shipping-fee'), 'Domestic shipping');
    const got = await api('GET', '/api/rule/shipping-fee');
    assert.equal(got.status, 200);
    assert.equal(got.json.ruleId, EXAMPLE_ID);
  });

  test('an explicit alias equal to another rule\'s id is 409; a rule\'s own id as its alias is fine', async () => {
    assertError(await api('POST', '/api/rule', exampleAs(undefined, EXAMPLE_ID)), 409, new RegExp(`^ruleAlias "${EXAMPLE_ID}" is the id of rule ${EXAMPLE_ID} \\("Shipping Fee"\\)`));
    const own = await api('POST', '/api/rule', exampleAs('own-name', 'own-name', 'Own name'));
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.ruleAlias, 'own-name');
  });

  test('a generated alias steps around other rules\' ids as around aliases (-2), and may equal the rule\'s own id', async () => {
    assert.equal((await api('POST', '/api/rule', exampleAs('discount', 'discount-rule', 'Discount'))).status, 200);
    const second = await api('POST', '/api/rule', exampleAs(undefined, undefined, 'Discount'));
    assert.equal(second.status, 200, second.text);
    assert.equal(second.json.ruleAlias, 'discount-2', '"discount" is a rule id');
    const self = await api('POST', '/api/rule', exampleAs('surcharge', undefined, 'Surcharge'));
    assert.equal(self.json.ruleAlias, 'surcharge');
  });

  test('renaming an alias to another rule\'s id is 409 naming both rules; nothing changes', async () => {
    const reply = await api('PUT', '/api/rule/own-name/alias', { ruleAlias: EXAMPLE_ID });
    assertError(reply, 409, `ruleAlias "${EXAMPLE_ID}" is the id of rule ${EXAMPLE_ID} ("Shipping Fee") in this space, so it would never reach rule own-name ("Own name") (an id wins over an alias); choose another ruleAlias`);
    assert.equal((await api('GET', '/api/rule/own-name')).json.ruleAlias, 'own-name');
  });

  test('a rule id outside the safe character set is 400 naming the rule, on create and on imports', async () => {
    for (const bad of ['has space', '../etc', '.hidden', 'a/b', 'x'.repeat(101), 'ünïcode']) {
      const reply = await api('POST', '/api/rule', exampleAs(bad, undefined, 'Odd id'));
      assertError(reply, 400, /^ruleId .* of rule "Odd id" must be 1-100 letters, digits, "-", "_" and "\.", starting with a letter or digit$/);
    }
    const flow = await api('POST', '/api/rule-flow/import', [exampleAs('fine-id', 'fine-alias', 'Fine'), exampleAs('bad id', 'bad-alias', 'Badly named')]);
    assert.equal(flow.status, 400, flow.text);
    assert.match(flow.text, /\[1\]\.ruleId/);
    assert.match(flow.text, /ruleId \\"bad id\\" of rule \\"Badly named\\" must be/);
    assert.ok(!(await ruleIds()).includes('fine-id'), 'all or nothing');
    const accepted = await api('POST', '/api/rule', exampleAs('Loan_Type.v1-2', undefined, 'Loan type'));
    assert.equal(accepted.status, 200, 'letters, digits, "_", "." and "-" are accepted');
  });

  test('POST /api/rule-flow/import: an id equal to another rule\'s alias is 409, nothing is written', async () => {
    const before = await ruleIds();
    const reply = await api('POST', '/api/rule-flow/import', [exampleAs('new-flow-id', 'new-flow', 'New'), exampleAs('shipping-fee', 'taken-by-import', 'Captured')]);
    assertError(reply, 409, new RegExp(`^ruleId "shipping-fee" is the alias of rule ${EXAMPLE_ID}`));
    assert.deepEqual(await ruleIds(), before);
    assert.equal(await solveMessage('shipping-fee'), 'Domestic shipping');
  });

  test('POST /api/rule-flow/import: two rules of one import cannot clash either; generated aliases avoid imported ids', async () => {
    const clash = await api('POST', '/api/rule-flow/import', [exampleAs('alpha', 'beta', 'Alpha'), exampleAs('beta', 'beta-alias', 'Beta')]);
    assertError(clash, 409, /"beta" is the id of rule beta \("Beta"\)|ruleId "beta" is the alias of rule alpha/);
    const generated = await api('POST', '/api/rule-flow/import', [exampleAs('gamma-id', undefined, 'Delta'), exampleAs('delta', 'delta-own', 'Other')]);
    assert.equal(generated.status, 200, generated.text);
    const gamma = (generated.json.imported as Array<{ ruleId: string; ruleAlias: string }>).find((r) => r.ruleId === 'gamma-id');
    assert.equal(gamma?.ruleAlias, 'delta-2', '"delta" is the id of a rule of the same import');
  });

  test('POST /api/folder/import: an alias equal to another rule\'s id is 409', async () => {
    const folder = { export: { exportType: 'FOLDER', version: 1, data: { structure: { id: 'root', name: 'Home', type: 'ROOT', children: [] }, rules: [exampleAs('folder-rule', EXAMPLE_ID, 'Folder rule')] } } };
    assertError(await api('POST', '/api/folder/import', folder), 409, new RegExp(`^ruleAlias "${EXAMPLE_ID}" is the id of rule ${EXAMPLE_ID}`));
    assert.ok(!(await ruleIds()).includes('folder-rule'));
  });

  test('MCP create_rule: a document whose ruleId is another rule\'s alias is a tool error naming the clash', async () => {
    const client = new Client({ name: 'verdict-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${server.space.managementKey}` } } }));
    try {
      const result = (await client.callTool({ name: 'create_rule', arguments: { document: exampleAs('shipping-fee', undefined) } })) as CallToolResult;
      assert.equal(result.isError, true);
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      assert.match(text, new RegExp(`ruleId "shipping-fee" is the alias of rule ${EXAMPLE_ID}`));
    } finally {
      await client.close();
    }
    assert.equal(await solveMessage('shipping-fee'), 'Domestic shipping');
  });

  test('verdict import: a clash is refused (exit code, message naming both rules) and nothing is imported', async () => {
    const file = join(dir, 'capture.json');
    writeFileSync(file, JSON.stringify([exampleAs('cli-fine', 'cli-fine', 'Fine'), exampleAs('shipping-fee', 'cli-capture', 'Captured')]));
    const result = await runCli(['import', file, '--space', server.space.space], { DATABASE_URL: backend.url });
    assert.notEqual(result.code, 0, result.stdout);
    assert.match(result.stderr, new RegExp(`ruleId "shipping-fee" is the alias of rule ${EXAMPLE_ID} \\("Shipping Fee"\\)`));
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    assert.ok(!(await ruleIds()).includes('cli-fine'), 'all or nothing');
    const badId = join(dir, 'bad-id.json');
    writeFileSync(badId, JSON.stringify(messageTable('no spaces allowed', 'cli-bad', 1, 'x')));
    const refused = await runCli(['import', badId, '--space', server.space.space], { DATABASE_URL: backend.url });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /ruleId "no spaces allowed" of rule "Message cli-bad" must be 1-100 letters/);
  });

  test('a clash stored before the check: a warning at start naming both rules, nothing rewritten, the id wins', async () => {
    const original = server.space;
    await server.close();
    // Written straight through the store, as an older Verdict could have: id "legacy" and another rule aliased "legacy".
    const store = await openStore(backend.url);
    try {
      await store.management.transaction(original.space, async (tx) => {
        await tx.putRules([
          { ...messageTable('legacy', 'legacy-own', 1, 'the rule whose id it is'), name: 'Legacy by id' },
          { ...messageTable('legacy-other', 'legacy', 1, 'the rule whose alias it is'), name: 'Legacy by alias' },
        ]);
      });
    } finally {
      await store.close();
    }
    server = await startTestServer({ backend });
    api = apiFor(server, original.managementKey);
    const warnings = server.logs.filter((l) => l.level === 40 && l.text === 'legacy');
    assert.equal(warnings.length, 1, JSON.stringify(server.logs));
    assert.equal(warnings[0]!.msg, `space "${original.space}": "legacy" is the id of rule legacy ("Legacy by id") and the alias of rule legacy-other ("Legacy by alias"); lookups by "legacy" answer rule legacy (an id wins over an alias); rename one of them (PUT /api/rule/{idOrAlias}/alias)`);
    assert.equal((await api('GET', '/api/rule/legacy-other')).json.ruleAlias, 'legacy', 'not rewritten');
    const solved = await server.solve('/rule/solve/legacy', { data: { any: 1 } }, {}, original.solverKey);
    assert.equal(solved.json[0].message, 'the rule whose id it is');
    assert.equal((await api('GET', '/api/rule/legacy')).json.ruleId, 'legacy');
  });
});
