// Black-box tests of folders, export/import and tools of the Management API (SPEC 5.1, rule-format §9) over real
// HTTP, including the round trip: export a folder, import it into an empty space, solve every rule there with the
// same results.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bankLookup, deliveryTree, messageTable, plantFlow, plantTable, script } from '../http/fixtures.ts';
import { apiFor, asNew, assertError, skipReason, startSuiteServer } from './helpers.ts';
import type { Api, Doc, SuiteServer } from './helpers.ts';

/** Folder tree without ids: names, and rules as alias@version. */
function shape(node: Doc): unknown {
  if (node.type === 'RULE') return `${node.ruleAlias}@${node.version}`;
  return { [node.name]: (node.children as Doc[]).map(shape) };
}

/** Each rule of the round trip, with inputs that exercise it. */
const SOLVES: Array<{ alias: string; inputs: unknown[] }> = [
  { alias: 'plant-items', inputs: [{ group: 'plant', inStock: false }, { group: 'book' }, { group: 'none' }] },
  { alias: 'plant-flow', inputs: [{ group: 'plant' }, { group: 'book' }] },
  { alias: 'delivery-tree', inputs: [{ weight: 3 }, { weight: 30 }] },
  { alias: 'bank-lookup', inputs: [{ primaryKey: 'AAA1', outputColumn: 'bank' }, { primaryKey: 'BBB2', outputColumn: 'country' }] },
  { alias: 'multiply', inputs: [{ value1: 6, value2: 7 }] },
];

export function foldersSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`management API folders, import/export and tools on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;
    let api: Api;

    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind);
      api = s.api;
      for (const doc of [plantTable(), plantFlow(), deliveryTree(), bankLookup(), script('rule-multiply', 'multiply', 'output.result = input.value1 * input.value2;\nreturn output;')]) {
        const reply = await api('POST', '/api/rule', asNew(doc, ['ruleId', 'ruleAlias']));
        assert.equal(reply.status, 200, reply.text);
      }
    });
    after(async () => {
      if (!skip) await s.close();
    });

    async function folderId(path: string): Promise<string> {
      const found = (await api('POST', '/api/folder/find', { type: 'FOLDER' })).json as Doc[];
      const folder = found.find((f) => f.path === path);
      assert.ok(folder, `folder ${path} in ${JSON.stringify(found)}`);
      return folder.id as string;
    }

    test('create folders with rules moved into them; the tree shows them and the rest stays in the root', { skip }, async () => {
      const reply = await api('POST', '/api/folder/root', {
        type: 'FOLDER',
        name: 'Shop',
        children: [
          { type: 'RULE', baseId: 'rule-plants' },
          { type: 'FOLDER', name: 'Flows', children: [{ type: 'RULE', ruleAlias: 'plant-flow', version: 1 }] },
        ],
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(shape(reply.json), { Shop: [{ Flows: ['plant-flow@1'] }, 'plant-items@1'] });
      const tree = await api('GET', '/api/folder');
      assert.equal(tree.json.type, 'ROOT');
      assert.equal(tree.json.id, 'root');
      assert.deepEqual(shape(tree.json), { Home: [{ Shop: [{ Flows: ['plant-flow@1'] }, 'plant-items@1'] }, 'bank-lookup@1', 'delivery-tree@1', 'multiply@1'] });
      const leaf = (tree.json.children[0].children as Doc[]).find((c) => c.type === 'RULE')!;
      assert.deepEqual(leaf, { type: 'RULE', baseId: 'rule-plants', version: 1, name: 'Plant Items', ruleAlias: 'plant-items', ruleType: 'decision-table', ruleStatus: 'published' });
      const items = (await api('GET', '/api/space/items')).json as Doc[];
      assert.equal(items.find((i) => i.ruleId === 'rule-flow')!.folder, '/Shop/Flows');
    });

    test('folders are addressed by id or path; unknown ones are 404; sibling names are unique', { skip }, async () => {
      const shop = await folderId('/Shop');
      assert.deepEqual(shape((await api('GET', `/api/folder/${shop}`)).json), { Shop: [{ Flows: ['plant-flow@1'] }, 'plant-items@1'] });
      assert.deepEqual(shape((await api('GET', '/api/folder?path=/Shop/Flows')).json), { Flows: ['plant-flow@1'] });
      assertError(await api('GET', '/api/folder/no-such-folder'), 404, 'Folder "no-such-folder" not found');
      assertError(await api('GET', '/api/folder?path=/Nope'), 404, 'Folder "/Nope" not found');
      assertError(await api('POST', `/api/folder/${shop}`, { type: 'FOLDER', name: 'Flows' }), 409, 'A folder named "Flows" already exists in "/Shop"');
      assertError(await api('POST', '/api/folder', { type: 'FOLDER', name: 'a/b' }), 400, /folder name of 1-100 characters without "\/"/);
      assertError(await api('POST', '/api/folder', { type: 'FOLDER', name: 'X', children: [{ type: 'RULE', baseId: 'ghost' }] }), 404, 'Rule "ghost" not found');
      assert.equal((await api('POST', '/api/folder/find', { name: 'X' })).json.length, 0, 'the failed create left nothing behind');
    });

    test('rename, move (folders and rules), and the checks that keep the tree a tree', { skip }, async () => {
      const created = await api('POST', '/api/folder', { type: 'FOLDER', name: 'Archive' });
      const archive = created.json.id as string;
      const flows = await folderId('/Shop/Flows');
      assert.equal((await api('PATCH', `/api/folder/rename/${archive}`, { name: 'Old' })).json.name, 'Old');
      assertError(await api('PATCH', '/api/folder/rename/root', { name: 'X' }), 400, 'The root folder cannot be renamed');
      const moved = await api('PUT', '/api/folder/move', { targetId: archive, nodes: [{ type: 'FOLDER', id: flows }, { type: 'RULE', id: 'delivery-tree' }] });
      assert.equal(moved.status, 200, moved.text);
      assert.deepEqual(shape(moved.json), { Old: [{ Flows: ['plant-flow@1'] }, 'delivery-tree@1'] });
      assertError(await api('PUT', '/api/folder/move', { targetId: flows, nodes: [{ type: 'FOLDER', id: archive }] }), 400, /cannot be moved into itself or one of its sub-folders/);
      const back = await api('PUT', '/api/folder/move', { targetPath: '/Shop', nodes: [{ type: 'FOLDER', id: flows }] });
      assert.deepEqual(shape(back.json), { Shop: [{ Flows: ['plant-flow@1'] }, 'plant-items@1'] });
      await api('PUT', '/api/folder/move', { targetPath: 'root', nodes: [{ type: 'RULE', id: 'rule-tree' }] });
      assert.deepEqual(shape((await api('GET', `/api/folder/${archive}`)).json), { Old: [] });
    });

    test('find matches every criterion given and answers paths', { skip }, async () => {
      await api('PATCH', '/api/tags/plant-items', ['shop']);
      const rules = (await api('POST', '/api/folder/find', { type: 'RULE', tags: ['shop'] })).json as Doc[];
      assert.deepEqual(rules.map((r) => ({ baseId: r.baseId, path: r.path, version: r.version, ruleType: r.ruleType, ruleStatus: r.ruleStatus })), [
        { baseId: 'rule-plants', path: '/Shop/Plant Items', version: 1, ruleType: 'decision-table', ruleStatus: 'published' },
      ]);
      const byAlias = (await api('POST', '/api/folder/find', { ruleAlias: 'plant-flow' })).json as Doc[];
      assert.deepEqual(byAlias.map((r) => r.path), ['/Shop/Flows/Plant Flow']);
      const folders = (await api('POST', '/api/folder/find', { name: 'Flows' })).json as Doc[];
      assert.deepEqual(folders.map((f) => [f.type, f.path]), [['FOLDER', '/Shop/Flows']]);
      assert.deepEqual((await api('POST', '/api/folder/find', { ruleType: 'lookup-table', ruleState: 'pending' })).json, []);
      assertError(await api('POST', '/api/folder/find', { type: 'SHELF' }), 400, /body\.type must be equal to one of the allowed values/);
    });

    test('PUT on a folder replaces its content; rules it no longer places go to the root', { skip }, async () => {
      const old = await folderId('/Old');
      const reply = await api('PUT', `/api/folder/${old}`, { name: 'Misc', children: [{ type: 'FOLDER', name: 'Lookups', children: [{ type: 'RULE', baseId: 'rule-lookup' }] }] });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(shape(reply.json), { Misc: [{ Lookups: ['bank-lookup@1'] }] });
      const replaced = await api('PUT', `/api/folder/${old}`, { children: [] });
      assert.deepEqual(shape(replaced.json), { Misc: [] });
      assert.equal(((await api('GET', '/api/space/items')).json as Doc[]).find((i) => i.ruleId === 'rule-lookup')!.folder, '/');
    });

    test('delete: a folder holding rules needs deleteAll (which deletes them); the root cannot go', { skip }, async () => {
      await api('POST', '/api/rule?path=/Misc', asNew(messageTable('doomed', 'doomed', 1, 'x'), ['ruleId', 'ruleAlias']));
      const misc = await folderId('/Misc');
      assertError(await api('DELETE', `/api/folder/${misc}`), 409, 'Folder "/Misc" holds 1 rule version(s); move them out first, or delete them with it: ?deleteAll=true');
      assert.deepEqual((await api('DELETE', `/api/folder/${misc}?deleteAll=true`)).json, { deletedFolders: 1, deletedRules: [{ ruleId: 'doomed', version: 1 }] });
      assertError(await api('GET', '/api/rule/doomed'), 404, 'Rule "doomed" not found');
      assertError(await api('DELETE', '/api/folder/root'), 400, 'The root folder cannot be deleted');
      const empty = await api('POST', '/api/folder', { type: 'FOLDER', name: 'Empty' });
      assert.deepEqual((await api('DELETE', '/api/folder?path=/Empty')).json, { deletedFolders: 1, deletedRules: [] });
      assertError(await api('GET', `/api/folder/${empty.json.id}`), 404, `Folder "${empty.json.id}" not found`);
    });

    test('round trip: export a folder, import it into an empty space, every rule solves the same', { skip }, async () => {
      await api('PUT', '/api/folder/move', { targetPath: '/Shop', nodes: [{ type: 'RULE', id: 'rule-tree' }, { type: 'RULE', id: 'bank-lookup' }, { type: 'RULE', id: 'multiply' }] });
      const exported = await api('GET', `/api/folder/export/${await folderId('/Shop')}`);
      assert.equal(exported.status, 200, exported.text);
      assert.equal(exported.json.export.exportType, 'FOLDER');
      assert.equal(exported.json.export.data.rules.length, 5);

      const target = await s.server.running.services.spaces.create(`roundtrip-${kind}`);
      const targetApi = apiFor(s.server, target.managementKey);
      const imported = await targetApi('POST', '/api/folder/import', exported.json);
      assert.equal(imported.status, 200, imported.text);
      assert.equal(imported.json.imported.length, 5);
      const tree = (await targetApi('GET', '/api/folder')).json;
      assert.deepEqual(shape(tree), { Home: [{ Shop: [{ Flows: ['plant-flow@1'] }, 'bank-lookup@1', 'delivery-tree@1', 'plant-items@1', 'multiply@1'] }] });
      assert.equal(imported.json.folderNode, tree.children[0].id);

      for (const { alias, inputs } of SOLVES) {
        for (const input of inputs) {
          const original = await s.solve(`/rule/solve/${alias}`, input);
          const copy = await s.solve(`/rule/solve/${alias}`, input, target.solverKey);
          assert.equal(original.status, 200, `${alias}: ${original.text}`);
          assert.deepEqual(copy.json, original.json, `${alias} with ${JSON.stringify(input)}`);
        }
      }

      // Importing the same export again updates what is there instead of copying it.
      const again = await targetApi('POST', '/api/folder/import', exported.json);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.folderNode, imported.json.folderNode);
      assert.deepEqual(shape((await targetApi('GET', '/api/folder')).json), shape(tree));
      assert.equal((await targetApi('GET', '/api/space/items')).json.length, 5);
    });

    test('an import with one invalid rule changes nothing and names the rule by its place', { skip }, async () => {
      const target = await s.server.running.services.spaces.create(`atomic-${kind}`);
      const targetApi = apiFor(s.server, target.managementKey);
      const broken: Doc = messageTable('broken', 'broken', 1, 'x');
      broken.decisionTable.rows[0].cells[0].scalarCondition.operator = 'betwen';
      const body: Doc = {
        export: {
          exportType: 'FOLDER',
          version: 1,
          data: {
            structure: { type: 'FOLDER', name: 'F', children: [{ type: 'RULE', baseId: 'good', version: 1 }, { type: 'RULE', baseId: 'broken', version: 1 }] },
            rules: [messageTable('good', 'good', 1, 'ok'), broken],
          },
        },
      };
      const reply = await targetApi('POST', '/api/folder/import', body);
      assertError(reply, 400, /export\.data\.rules\[1\]\.decisionTable\.rows\[0\]\.cells\[0\]\.scalarCondition\.operator: unknown operator "betwen"/);
      assert.deepEqual(reply.json.error.problems.map((p: Doc) => p.path), ['export.data.rules[1].decisionTable.rows[0].cells[0].scalarCondition.operator']);
      assert.deepEqual((await targetApi('GET', '/api/space/items')).json, []);
      assert.deepEqual((await targetApi('GET', '/api/folder')).json.children, []);

      await targetApi('POST', '/api/rule', asNew(messageTable('mine', 'good', 1, 'mine'), ['ruleId', 'ruleAlias']));
      body.export.data.rules = [messageTable('good', 'good', 1, 'theirs')];
      assertError(await targetApi('POST', '/api/folder/import', body), 409, /Rule alias "good" is already used by rule mine/);
      assert.deepEqual((await targetApi('GET', '/api/folder')).json.children.map((c: Doc) => c.type), ['RULE'], 'no folder was created');
      assertError(await targetApi('POST', '/api/folder/import', { export: { data: {} } }), 400, /export\.data\.rules: is required/);

      // A failure after the rules were written (a folder name that cannot be used) rolls them back too.
      body.export.data.rules = [messageTable('late', 'late', 1, 'x')];
      body.export.data.structure = { type: 'FOLDER', name: 'F', children: [{ type: 'FOLDER', name: 'a/b', children: [] }, { type: 'RULE', baseId: 'late', version: 1 }] };
      assertError(await targetApi('POST', '/api/folder/import', body), 400, /export\.data\.structure\.children\[0\]\.name must be a folder name/);
      assertError(await targetApi('GET', '/api/rule/late'), 404, 'Rule "late" not found');
      assert.deepEqual((await targetApi('POST', '/api/folder/find', { type: 'FOLDER' })).json, []);
    });

    test('rule-flow export lists the flow then the rules it uses; import recreates and solves it', { skip }, async () => {
      const exported = await api('GET', '/api/rule-flow/export/plant-flow');
      assert.equal(exported.status, 200, exported.text);
      assert.deepEqual((exported.json as Doc[]).map((r) => `${r.ruleId}@${r.version}`), ['rule-flow@1', 'rule-plants@1']);
      assert.deepEqual((await api('GET', '/api/rule-flow/export/rule-flow/1')).json, exported.json);

      const target = await s.server.running.services.spaces.create(`flows-${kind}`);
      const targetApi = apiFor(s.server, target.managementKey);
      const imported = await targetApi('POST', '/api/rule-flow/import', exported.json);
      assert.equal(imported.status, 200, imported.text);
      assert.deepEqual(imported.json.imported.map((r: Doc) => `${r.ruleAlias}@${r.version}`), ['plant-flow@1', 'plant-items@1']);
      const solved = await s.solve('/rule/solve/plant-flow', { group: 'plant' }, target.solverKey);
      assert.deepEqual(solved.json, (await s.solve('/rule/solve/plant-flow', { group: 'plant' })).json);

      const asNext = await targetApi('POST', '/api/rule-flow/import?new-version=plant-flow', exported.json);
      assert.deepEqual(asNext.json.imported.map((r: Doc) => `${r.ruleAlias}@${r.version}`), ['plant-flow@2', 'plant-items@1']);
      assertError(await targetApi('POST', '/api/rule-flow/import?overwrite=plant-flow', exported.json), 400, /overwrite needs the version/);
      assertError(await targetApi('POST', '/api/rule-flow/import?newVersion=plant-flow&version=1', exported.json), 409, /Version 1 of rule rule-flow was already used; the next free version is 3/);
      const over = await targetApi('POST', '/api/rule-flow/import?overwrite=plant-flow&version=1', exported.json);
      assert.equal(over.status, 200, over.text);
      assert.deepEqual((await targetApi('GET', '/api/space/items')).json.map((i: Doc) => `${i.ruleAlias}@${i.version}`).sort(), ['plant-flow@1', 'plant-flow@2', 'plant-items@1']);
      assertError(await api('GET', '/api/rule-flow/export/nothing-here'), 404, 'Rule "nothing-here" not found');
      assertError(await targetApi('POST', '/api/rule-flow/import', { export: { data: { rules: [] } } }), 400, 'This is a folder export; import it with POST /api/folder/import');
      assertError(await targetApi('POST', '/api/rule-flow/import', [{ name: 'half a rule', inputSchema: {} }]), 400, /^The rule is invalid \(\d+ problems\): \[0\]\.type: is required/);
      // Something that is no rule export at all (a package.json) is said to be that, once, with what Verdict reads.
      const notRules = await targetApi('POST', '/api/folder/import', { name: 'my-shop', version: '1.0.0', dependencies: {} });
      assertError(notRules, 400, /^This is not a DecisionRules export: Verdict reads a rule object .* this is an object with none of a rule's fields \(it has name, version, dependencies\)$/);
      assert.equal(notRules.json.error.problems.length, 1);
      assertError(await targetApi('POST', '/api/folder/import', [1, 'two']), 400, /^This is not a DecisionRules export: .* this is an array of 2 items, none of them a rule$/);
    });

    test('duplicates: groups of active rows with the same conditions, telling repetitions from contradictions', { skip }, async () => {
      const table = asNew(plantTable(), []);
      const rows = table.decisionTable.rows as Doc[];
      // Rows 0 and 1 of the plant table already test the same conditions with different results.
      rows.push(structuredClone(rows[2]), structuredClone(rows[3]), { ...structuredClone(rows[2]), active: false });
      rows[5].cells[2].outputScalarValue.value = 'Different';
      const created = (await api('POST', '/api/rule', table)).json;
      const reply = await api('GET', `/api/tools/duplicates/${created.ruleAlias}`);
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.json.rule.ruleId, created.ruleId);
      assert.deepEqual(reply.json.duplicates, [
        { rows: [0, 1], sameResults: false },
        { rows: [2, 4], sameResults: true },
        { rows: [3, 5], sameResults: false },
      ]);
      assert.deepEqual((await api('GET', '/api/tools/duplicates/plant-items/1')).json.duplicates, [{ rows: [0, 1], sameResults: false }]);
      assertError(await api('GET', '/api/tools/duplicates/plant-flow'), 400, 'Rule "plant-flow" is a composition; duplicate rows are found in decision tables only');
    });

    test('analysis: the lint report of a decision table version; other rule types are a 400, unknown rules a 404', { skip }, async () => {
      const reply = await api('GET', '/api/tools/analysis/plant-items');
      assert.equal(reply.status, 200, reply.text);
      const { findings, undecided, omitted } = reply.json;
      assert.deepEqual(Object.keys(reply.json).sort(), ['findings', 'omitted', 'undecided']);
      const of = (kind: string) => findings.filter((f: Doc) => f.kind === kind).map((f: Doc) => f.rows);
      // Rows 0 and 1 test the same conditions; row 3 (plant, in stock) is inside row 0 (plant, anything).
      assert.deepEqual(of('duplicate'), [[0, 1]]);
      assert.deepEqual(of('unreachable'), [[1, 0], [3, 0]]);
      assert.deepEqual(of('overlap'), [[0, 3], [1, 3]]);
      assert.ok(of('gap').length > 0, 'a group that is neither plant nor book matches no row');
      for (const gap of findings.filter((f: Doc) => f.kind === 'gap')) {
        const solved = await s.solve('/rule/solve/plant-items', gap.example);
        assert.equal(solved.status, 200, solved.text);
        assert.deepEqual(solved.json, [], `gap example ${JSON.stringify(gap.example)} matches no row`);
      }
      assert.deepEqual(undecided, { rows: [], columns: [], reasons: [] });
      assert.deepEqual(omitted, { overlaps: 0, gaps: false });
      assert.deepEqual((await api('GET', '/api/tools/analysis/rule-plants/1')).json, reply.json);
      assertError(await api('GET', '/api/tools/analysis/plant-flow'), 400, 'Rule "plant-flow" version 1 is a composition; the analysis reads decision tables only');
      assertError(await api('GET', '/api/tools/analysis/no-such-rule'), 404, 'Rule "no-such-rule" not found');
      assertError(await api('GET', '/api/tools/analysis/plant-items/99'), 404, /has no version 99/);
    });

    test('dependencies: what a flow uses, transitively, and references that resolve to nothing', { skip }, async () => {
      const reply = await api('GET', '/api/tools/dependencies/plant-flow');
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.json.rule.ruleId, 'rule-flow');
      assert.deepEqual(reply.json.dependencies, [
        { ruleId: 'rule-plants', baseId: 'rule-plants', version: 1, ruleAlias: 'plant-items', name: 'Plant Items', type: 'decision-table' },
      ]);
      assert.deepEqual(reply.json.edges, [{ from: { ruleId: 'rule-flow', version: 1 }, to: { ruleId: 'rule-plants', version: 1 }, kind: 'flow' }]);
      assert.deepEqual(reply.json.missing, []);
      const orphan = asNew(plantFlow());
      orphan.dataTree.children[0].baseId = 'gone-rule';
      const created = (await api('POST', '/api/rule', orphan)).json;
      const missing = await api('GET', `/api/tools/dependencies/${created.ruleId}/1`);
      assert.deepEqual(missing.json.dependencies, []);
      assert.deepEqual(missing.json.missing, [{ idOrAlias: 'gone-rule', from: created.ruleId }]);
      assert.deepEqual(missing.json.edges, []);
      assert.deepEqual((await api('GET', '/api/tools/dependencies/plant-items')).json.dependencies, []);
    });
  });
}
