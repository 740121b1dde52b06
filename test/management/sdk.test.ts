// The official DecisionRules SDK (@decisionrules/decisionrules, unchanged) against a Verdict server: its management
// calls work with Verdict's answers. SDK 1.0.0 has no new-version or find calls; those are sent as the current
// SDKs send them (POST /api/rule/{id}/new-version, POST /api/folder/find).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sdkModule from '@decisionrules/decisionrules';
import { messageTable, plantFlow, plantTable } from '../http/fixtures.ts';
import { apiFor, asNew, startSuiteServer } from './helpers.ts';
import type { Doc, SuiteServer } from './helpers.ts';

// The package is CommonJS with `exports.default`; imported from ESM, the class sits on `.default`.
const DecisionRules = sdkModule.default;

describe('the official SDK management calls against Verdict', () => {
  let s: SuiteServer;
  let dr: InstanceType<typeof DecisionRules>;

  before(async () => {
    s = await startSuiteServer('sqlite');
    dr = new DecisionRules({ host: s.server.url, managementKey: s.space.managementKey, solverKey: s.space.solverKey });
  });
  after(async () => {
    await s.close();
  });

  test('createRule, getRule, solve, updateRule, updateRuleStatus, lockRule, deleteRule', async () => {
    const created = (await dr.management.createRule(asNew(plantTable(), ['ruleId', 'ruleAlias']))) as Doc;
    assert.equal(created.ruleId, 'rule-plants');
    assert.equal(created.version, 1);
    assert.equal(created.ruleAlias, 'plant-items');
    assert.deepEqual(await dr.management.getRule('rule-plants'), created);
    assert.deepEqual(await dr.management.getRule('plant-items', '1'), created);
    assert.deepEqual(await dr.solve('plant-items', { group: 'book' }), [{ name: 'Plant Lovers', price: 470 }]);

    const updated = (await dr.management.updateRule('rule-plants', { ...created, description: 'via SDK' }, '1')) as Doc;
    assert.equal(updated.description, 'via SDK');
    const pending = (await dr.management.updateRuleStatus('rule-plants', 'pending', '1')) as Doc;
    assert.equal(pending.status, 'pending');
    await assert.rejects(dr.solve('plant-items', { group: 'book' }), /status:400/);
    assert.equal(((await dr.management.updateRuleStatus('rule-plants', 'published')) as Doc).status, 'published');

    const locked = (await dr.management.lockRule('rule-plants', { locked: true }, '1')) as Doc;
    assert.equal(locked.locked, true);
    await assert.rejects(dr.management.deleteRule('rule-plants', '1'), /Call ended with status:409/);
    await dr.management.lockRule('rule-plants', { locked: false });

    await dr.management.createRule(asNew(messageTable('sdk-temp', 'sdk-temp', 1, 'x'), ['ruleId', 'ruleAlias']));
    assert.deepEqual(await dr.management.deleteRule('sdk-temp'), { ruleId: 'sdk-temp', deletedVersions: [1] });
    await assert.rejects(dr.management.getRule('sdk-temp'), /Call ended with status:404/);
  });

  test('a new version (as current SDKs send it) starts pending; getRulesForSpace lists both versions', async () => {
    const next = await apiFor(s.server, s.space.managementKey)('POST', '/api/rule/rule-plants/new-version', asNew(plantTable()));
    assert.equal(next.json.version, 2);
    assert.equal(next.json.status, 'pending');
    const items = (await dr.management.getRulesForSpace()) as Doc[];
    assert.deepEqual(items.filter((i) => i.ruleId === 'rule-plants').map((i) => [i.version, i.status]), [[1, 'published'], [2, 'pending']]);
  });

  test('updateTags, getTags, deleteTags', async () => {
    assert.deepEqual(await dr.management.updateTags('plant-items', ['shop', 'eu']), ['shop', 'eu']);
    assert.deepEqual(await dr.management.updateTags('plant-items', [{ tagName: 'v1only' }], '1'), ['shop', 'eu', 'v1only']);
    const tagged = (await dr.management.getTags(['shop', 'v1only'])) as Doc[];
    assert.deepEqual(tagged.map((r) => `${r.ruleId}@${r.version}`), ['rule-plants@1']);
    assert.deepEqual(await dr.management.deleteTags('plant-items', ['shop'], '2'), ['eu']);
    assert.deepEqual(((await dr.management.getTags(['shop'])) as Doc[]).map((r) => r.version), [1]);
  });

  test('exportFolder and importFolder (also without a node id, as the SDK sends it), and find', async () => {
    await dr.management.createRule(asNew(plantFlow(), ['ruleId', 'ruleAlias']));
    const api = apiFor(s.server, s.space.managementKey);
    const folder = await api('POST', '/api/folder', { type: 'FOLDER', name: 'Shop', children: [{ type: 'RULE', baseId: 'rule-plants' }, { type: 'RULE', baseId: 'rule-flow' }] });
    const exported = (await dr.management.exportFolder(folder.json.id)) as Doc;
    assert.equal(exported.export.exportType, 'FOLDER');
    assert.deepEqual((exported.export.data.rules as Doc[]).map((r) => `${r.ruleId}@${r.version}`).sort(), ['rule-flow@1', 'rule-plants@1', 'rule-plants@2']);
    const whole = (await dr.management.exportFolder(undefined as unknown as string)) as Doc;
    assert.equal(whole.export.data.structure.type, 'ROOT');

    const target = await s.server.running.services.spaces.create('sdk-target');
    const other = new DecisionRules({ host: s.server.url, managementKey: target.managementKey, solverKey: target.solverKey });
    const result = (await other.management.importFolder(undefined as unknown as string, exported)) as Doc;
    assert.equal(typeof result.folderNode, 'string');
    assert.deepEqual(await other.solve('plant-flow', { group: 'plant' }), await dr.solve('plant-flow', { group: 'plant' }));

    const found = await apiFor(s.server, target.managementKey)('POST', '/api/folder/find', { ruleAlias: 'plant-flow' });
    assert.deepEqual((found.json as Doc[]).map((r) => r.path), ['/Shop/Plant Flow']);
  });

  test('findDuplicates and findDependencies answer {rule, ...}', async () => {
    const duplicates = (await dr.management.findDuplicates('plant-items', '1')) as Doc;
    assert.equal(duplicates.rule.ruleId, 'rule-plants');
    assert.deepEqual(duplicates.duplicates, [{ rows: [0, 1], sameResults: false }]);
    const dependencies = (await dr.management.findDependencies('plant-flow')) as Doc;
    assert.equal(dependencies.rule.ruleId, 'rule-flow');
    assert.deepEqual((dependencies.dependencies as Doc[]).map((d) => `${d.ruleId}@${d.version}`), ['rule-plants@1']);
  });
});
