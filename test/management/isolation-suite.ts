// Space isolation of the Management API: a management key of space B can neither read nor change anything of
// space A on any route (every answer is exactly the one for a rule or folder that does not exist), B's solver key
// cannot solve A's rules, and A is byte-for-byte unchanged afterwards. Also: the OpenAPI document of the routes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import { messageTable, plantFlow, plantTable } from '../http/fixtures.ts';
import { apiFor, asNew, assertError, skipReason, startSuiteServer } from './helpers.ts';
import type { Api, Doc, SuiteServer } from './helpers.ts';

const MANAGEMENT_PATHS = [
  '/api/rule', '/api/rule/{idOrAlias}', '/api/rule/{idOrAlias}/{version}', '/api/rule/{idOrAlias}/new-version', '/api/rule/{idOrAlias}/alias',
  '/api/rule/status/{idOrAlias}/{status}', '/api/rule/status/{idOrAlias}/{status}/{version}', '/api/rule/lock/{idOrAlias}',
  '/api/rule/lock/{idOrAlias}/{version}', '/api/space/items', '/api/tags/items', '/api/tags/{idOrAlias}', '/api/tags/{idOrAlias}/{version}',
  '/api/folder', '/api/folder/{nodeId}', '/api/folder/export', '/api/folder/export/{nodeId}', '/api/folder/import',
  '/api/folder/import/{nodeId}', '/api/folder/rename/{nodeId}', '/api/folder/move', '/api/folder/find',
  '/api/rule-flow/export/{idOrAlias}', '/api/rule-flow/export/{idOrAlias}/{version}', '/api/rule-flow/import',
  '/api/tools/duplicates/{idOrAlias}', '/api/tools/duplicates/{idOrAlias}/{version}', '/api/tools/dependencies/{idOrAlias}',
  '/api/tools/dependencies/{idOrAlias}/{version}', '/api/tools/analysis/{idOrAlias}', '/api/tools/analysis/{idOrAlias}/{version}',
  '/api/tools/solve', '/api/rule/history/{idOrAlias}', '/api/rule/history/{idOrAlias}/{version}', '/api/audit',
  '/api/tests', '/api/tests/rule/{idOrAlias}', '/api/tests/rule/{idOrAlias}/suites', '/api/tests/suites/{suiteId}',
  '/api/tests/suites/{suiteId}/tests', '/api/tests/suites/{suiteId}/tests/{testId}', '/api/tests/suites/{suiteId}/run',
  '/api/tests/run', '/api/tests/run/{idOrAlias}', '/api/tests/run/{idOrAlias}/{version}', '/api/tests/runs',
  '/api/tests/runs/{runId}', '/api/tests/gate', '/api/tests/gate/{idOrAlias}', '/api/tests/try/{idOrAlias}', '/api/tests/try/{idOrAlias}/{version}',
  '/api/space/keys', '/api/space/keys/{keyId}', '/api/space/kafka', '/api/space/overview', '/api/space/settings',
];

export function isolationSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`management API space isolation and OpenAPI on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;
    let a: Api;
    let b: Api;
    let other: CreatedSpace;
    let secretFolder: string;

    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind, { BODY_LIMIT_BYTES: '200000' });
      a = s.api;
      for (const doc of [messageTable('iso-id', 'iso-alias', 1, 'secret'), plantTable(), plantFlow()]) {
        assert.equal((await a('POST', '/api/rule', asNew(doc, ['ruleId', 'ruleAlias']))).status, 200);
      }
      await a('PATCH', '/api/tags/iso-id', ['secret']);
      const folder = await a('POST', '/api/folder', { type: 'FOLDER', name: 'Secret', children: [{ type: 'RULE', baseId: 'iso-id' }] });
      secretFolder = folder.json.id;
      other = await s.server.running.services.spaces.create(`other-${kind}`);
      b = apiFor(s.server, other.managementKey);
    });
    after(async () => {
      if (!skip) await s.close();
    });

    async function snapshot(): Promise<string> {
      const parts = await Promise.all([
        a('GET', '/api/space/items'),
        a('GET', '/api/folder'),
        a('GET', '/api/rule/iso-id'),
        a('GET', '/api/rule/rule-flow'),
      ]);
      return JSON.stringify(parts.map((p) => p.json));
    }

    test('every rule, tag, folder, flow and tool route answers 404 to another space, and changes nothing', { skip }, async () => {
      const before = await snapshot();
      const rule = messageTable('iso-id', 'iso-alias', 1, 'hijacked');
      const folderExport = { export: { data: { structure: { type: 'FOLDER', name: 'X', children: [] }, rules: [] } } };
      const attempts: Array<[string, string, unknown?]> = [
        ['GET', '/api/rule/iso-id'],
        ['GET', '/api/rule/iso-alias/1'],
        ['POST', '/api/rule/iso-id/new-version', rule],
        ['PUT', '/api/rule/iso-alias/alias', { ruleAlias: 'hijacked-alias' }],
        ['PUT', '/api/rule/iso-id/1', rule],
        ['PUT', '/api/rule/iso-alias', rule],
        ['PUT', '/api/rule/status/iso-id/pending'],
        ['PUT', '/api/rule/status/iso-id/pending/1'],
        ['PATCH', '/api/rule/lock/iso-id/1', { locked: true }],
        ['PATCH', '/api/rule/lock/iso-alias', { locked: true }],
        ['DELETE', '/api/rule/iso-id/1'],
        ['DELETE', '/api/rule/iso-id'],
        ['PATCH', '/api/tags/iso-id', ['x']],
        ['PATCH', '/api/tags/iso-id/1', ['x']],
        ['DELETE', '/api/tags/iso-id?tags=secret'],
        ['DELETE', '/api/tags/iso-alias/1?tags=secret'],
        ['GET', `/api/folder/${secretFolder}`],
        ['POST', `/api/folder/${secretFolder}`, { type: 'FOLDER', name: 'Planted' }],
        ['PUT', `/api/folder/${secretFolder}`, { children: [] }],
        ['DELETE', `/api/folder/${secretFolder}?deleteAll=true`],
        ['PATCH', `/api/folder/rename/${secretFolder}`, { name: 'Renamed' }],
        ['GET', `/api/folder/export/${secretFolder}`],
        ['POST', `/api/folder/import/${secretFolder}`, folderExport],
        ['GET', '/api/folder?path=/Secret'],
        ['PUT', '/api/folder/move', { targetId: secretFolder, nodes: [] }],
        ['PUT', '/api/folder/move', { targetId: 'root', nodes: [{ type: 'FOLDER', id: secretFolder }] }],
        ['PUT', '/api/folder/move', { targetId: 'root', nodes: [{ type: 'RULE', id: 'iso-id' }] }],
        ['GET', '/api/rule-flow/export/plant-flow'],
        ['GET', '/api/rule-flow/export/rule-flow/1'],
        ['POST', '/api/rule-flow/import?new-version=rule-flow', [plantFlow()]],
        ['POST', '/api/rule-flow/import?overwrite=rule-flow&version=1', [plantFlow()]],
        ['GET', '/api/tools/duplicates/rule-plants'],
        ['GET', '/api/tools/duplicates/plant-items/1'],
        ['GET', '/api/tools/dependencies/plant-flow'],
        ['GET', '/api/tools/dependencies/rule-flow/1'],
        ['GET', '/api/tools/analysis/rule-plants'],
        ['GET', '/api/tools/analysis/plant-items/1'],
        ['GET', '/api/rule/history/iso-id'],
        ['GET', '/api/rule/history/iso-alias/1'],
      ];
      for (const [method, path, body] of attempts) {
        const reply = await b(method, path, body);
        assert.equal(reply.status, 404, `${method} ${path} with another space's key: ${reply.text}`);
        assert.match(reply.json.error.message, /^(Rule|Folder) "[^"]+"( \(nodes\[\d+\]\))? (not found|has no version 1)$/, `${method} ${path}`);
      }
      assert.equal(await snapshot(), before, "space A is unchanged");
    });

    test("listings of another space show none of this space's rules, tags or folders", { skip }, async () => {
      assert.deepEqual((await b('GET', '/api/space/items')).json, []);
      assert.deepEqual((await b('GET', '/api/tags/items?tags=secret')).json, []);
      assert.deepEqual((await b('POST', '/api/folder/find', {})).json, []);
      assert.deepEqual((await b('GET', '/api/folder')).json.children, []);
      assert.deepEqual((await b('GET', '/api/folder/export')).json.export.data.rules, []);
      assert.deepEqual((await b('GET', '/api/audit')).json.items, []);
    });

    test("another space's solver key cannot solve this space's rules", { skip }, async () => {
      assertError(await s.solve('/rule/solve/iso-alias', {}, other.solverKey), 400, 'Unknown rule or rule version');
      assertError(await s.solve('/rule/solve/iso-id/1', {}, other.solverKey), 400, 'Unknown rule or rule version');
      assert.deepEqual((await s.solve('/rule/solve/iso-alias', {})).json, [{ message: 'secret' }]);
    });

    test('ids and aliases are per space: another space may use the same ones, and each solves its own', { skip }, async () => {
      const mine = await b('POST', '/api/rule', asNew(messageTable('iso-id', 'iso-alias', 1, 'theirs'), ['ruleId', 'ruleAlias']));
      assert.equal(mine.status, 200, mine.text);
      assert.deepEqual((await s.solve('/rule/solve/iso-alias', {}, other.solverKey)).json, [{ message: 'theirs' }]);
      assert.deepEqual((await s.solve('/rule/solve/iso-alias', {})).json, [{ message: 'secret' }]);
      await b('DELETE', '/api/rule/iso-id');
      assert.deepEqual((await s.solve('/rule/solve/iso-alias', {})).json, [{ message: 'secret' }]);
    });

    test('the OpenAPI document at /api/docs/json is valid and lists every management route; /api/docs serves the UI', { skip }, async () => {
      const doc = await s.server.call('GET', '/api/docs/json');
      assert.equal(doc.status, 200);
      await SwaggerParser.validate(structuredClone(doc.json));
      const paths = Object.keys(doc.json.paths);
      for (const path of MANAGEMENT_PATHS) assert.ok(paths.includes(path), `${path} in the management document`);
      assert.ok(!paths.some((p) => p.startsWith('/rule/solve') || p.startsWith('/admin')), 'only management routes');
      const create = doc.json.paths['/api/rule'].post;
      assert.deepEqual(create.security, [{ managementKey: [] }]);
      assert.ok(create.responses['409'], 'documented conflict answer');
      const solverDoc = await s.server.call('GET', '/api/solver/docs/json');
      // The GoRules Agent API (/api/rules/{project}/evaluate/{key}) takes a solver key: it belongs in the solver document.
      const agent = (p: string) => /^\/api\/(rules|projects)\/\{project\}\/evaluate/.test(p);
      assert.ok(!Object.keys(solverDoc.json.paths).some((p: string) => p.startsWith('/api/rule') && !agent(p)), 'the solver document has no management routes');
      const ui = await s.server.call('GET', '/api/docs');
      assert.equal(ui.status, 200);
      assert.match(ui.text, /swagger/i);
    });

    test('without VERDICT_ADMIN_TOKEN there is no admin API', { skip }, async () => {
      assert.equal((await s.server.call('GET', '/admin/spaces', { headers: { authorization: 'Bearer anything' } })).status, 404);
    });

    test('a body over the limit is refused with 413 naming the limit', { skip }, async () => {
      const big = { ...asNew(messageTable('big', 'big', 1, 'x')), description: 'x'.repeat(300_000) };
      const reply = await a('POST', '/api/rule', big as Doc);
      assertError(reply, 413, /exceeds the limit of 200000 bytes/);
    });
  });
}
