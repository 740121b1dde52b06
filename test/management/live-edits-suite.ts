// The space setting liveEdits (issue 26, docs/decisions/live-edits.md), on SQLite and PostgreSQL over real HTTP:
// allowed (the default, as DecisionRules) a PUT of a published version changes POST /rule/solve's answers at once;
// forbidden it answers 409 naming the setting, while new versions, status changes, lock and delete still work.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { plantTable } from '../http/fixtures.ts';
import { apiFor, asNew, assertError, skipReason, startSuiteServer } from './helpers.ts';
import type { Api, Doc, SuiteServer } from './helpers.ts';

/** The plant table with Monstera's price changed; without a status, so a PUT keeps the version's own. */
function repriced(price: string): Doc {
  const { status: _status, ...doc } = asNew(plantTable());
  doc.decisionTable.rows[0].cells[3].outputScalarValue.value = price;
  return doc;
}

export function liveEditsApiSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`space setting liveEdits on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;
    let api: Api;

    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind);
      api = s.api;
      assert.equal((await api('POST', '/api/rule', asNew(plantTable(), ['ruleId', 'ruleAlias']))).status, 200);
    });
    after(async () => {
      if (!skip) await s.close();
    });

    async function ok(method: string, path: string, body?: unknown): Promise<any> {
      const reply = await api(method, path, body);
      assert.equal(reply.status, 200, `${method} ${path}: ${reply.text}`);
      return reply.json;
    }

    async function monsteraPrice(version?: number): Promise<unknown> {
      const reply = await s.solve(`/rule/solve/plant-items${version === undefined ? '' : `/${version}`}`, { group: 'plant' });
      assert.equal(reply.status, 200, reply.text);
      return reply.json[0].price;
    }

    test('allowed by default: a PUT of the published version changes the answers at once', { skip }, async () => {
      assert.deepEqual(await ok('GET', '/api/space/settings'), { liveEdits: 'allowed', approvals: false });
      assert.equal(await monsteraPrice(), 460);
      await ok('PUT', '/api/rule/plant-items/1', repriced('470'));
      assert.equal(await monsteraPrice(), 470);
    });

    test('forbidden: a PUT of a published version is refused with 409 naming the setting, and nothing changes', { skip }, async () => {
      assert.deepEqual(await ok('PUT', '/api/space/settings', { liveEdits: 'forbidden' }), { liveEdits: 'forbidden', approvals: false });
      assert.deepEqual(await ok('GET', '/api/space/settings'), { liveEdits: 'forbidden', approvals: false });
      const refused = await api('PUT', '/api/rule/plant-items/1', repriced('999'));
      assertError(refused, 409, /version 1 is published and the space setting liveEdits is "forbidden".*new-version/);
      assert.equal(refused.json.error.code ?? 'live-edits-forbidden', 'live-edits-forbidden');
      assertError(await api('PUT', '/api/rule/plant-items', repriced('999')), 409, /liveEdits is "forbidden"/);
      assert.equal(await monsteraPrice(), 470, 'the live answer stays');
    });

    test('forbidden: a new version, its edits and publishing it, status changes, lock and delete still work', { skip }, async () => {
      const created = await ok('POST', '/api/rule/plant-items/new-version', repriced('480'));
      assert.deepEqual([created.version, created.status], [2, 'pending']);
      await ok('PUT', '/api/rule/plant-items/2', repriced('490'));
      assert.equal(await monsteraPrice(), 470, 'the pending version does not answer');
      await ok('PUT', '/api/rule/status/plant-items/published/2');
      assert.equal(await monsteraPrice(2), 490);
      assertError(await api('PUT', '/api/rule/plant-items/2', repriced('1')), 409, /version 2 is published/);
      await ok('PUT', '/api/rule/status/plant-items/pending/2');
      await ok('PUT', '/api/rule/plant-items/2', repriced('500'));
      await ok('PATCH', '/api/rule/lock/plant-items/1', { locked: true });
      await ok('PATCH', '/api/rule/lock/plant-items/1', { locked: false });
      await ok('DELETE', '/api/rule/plant-items/2');
    });

    test('the setting belongs to its space and is checked as sent', { skip }, async () => {
      const space = await s.server.running.services.spaces.create(`other-${kind}`);
      const other = apiFor(s.server, space.managementKey);
      const otherSettings = await other('GET', '/api/space/settings');
      assert.deepEqual(otherSettings.json, { liveEdits: 'allowed', approvals: false }, 'another space keeps its own setting');
      assertError(await api('PUT', '/api/space/settings', { liveEdits: 'never' }), 400, /"liveEdits": "allowed"/);
      assert.deepEqual(await ok('PUT', '/api/space/settings', { liveEdits: 'allowed' }), { liveEdits: 'allowed', approvals: false });
      await ok('PUT', '/api/rule/plant-items/1', repriced('475'));
      assert.equal(await monsteraPrice(), 475, 'allowed again: in place as before');
    });
  });
}
