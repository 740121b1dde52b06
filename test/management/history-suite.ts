// Rule history over real HTTP: every write to a rule version appends {version, at, action, by}, where `by` is the
// name of the management key used (null for a key without one, "cli" for the command line); refused writes append
// nothing; the history outlives deleted versions and is per space. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CLI_ACTOR } from '../../src/service/management/history.ts';
import { messageTable } from '../http/fixtures.ts';
import { apiFor, asNew, assertError, skipReason, startSuiteServer } from './helpers.ts';
import type { Api, SuiteServer } from './helpers.ts';

interface Item {
  version: number;
  at: string;
  action: string;
  by: string | null;
}

export function historySuite(kind: 'sqlite' | 'postgres'): void {
  describe(`rule history on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;
    let alice: Api;

    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind);
      const key = await s.server.running.services.keys.create(s.space.space, 'management', 'Alice');
      alice = apiFor(s.server, key.key);
    });
    after(async () => {
      if (!skip) await s.close();
    });

    async function history(path: string, api: Api = alice): Promise<Item[]> {
      const reply = await api('GET', `/api/rule/history/${path}`);
      assert.equal(reply.status, 200, reply.text);
      for (const item of reply.json.items as Item[]) assert.match(item.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      return reply.json.items;
    }
    const brief = (items: Item[]): string[] => items.map((i) => `v${i.version} ${i.action} ${i.by}`);

    test('every kind of write is recorded, newest first, with the name of the key that wrote', { skip }, async () => {
      const ok = async (method: string, path: string, body?: unknown): Promise<void> => {
        const reply = await alice(method, path, body);
        assert.equal(reply.status, 200, `${method} ${path}: ${reply.text}`);
      };
      await ok('POST', '/api/rule', asNew(messageTable('h1', 'hist', 1, 'one'), ['ruleId', 'ruleAlias']));
      await ok('PUT', '/api/rule/hist/1', asNew(messageTable('h1', 'hist', 1, 'one, edited')));
      await ok('POST', '/api/rule/hist/new-version', asNew(messageTable('h1', 'hist', 1, 'two')));
      await ok('PUT', '/api/rule/status/hist/published/2');
      await ok('PUT', '/api/rule/status/hist/pending/2');
      await ok('PATCH', '/api/rule/lock/hist/2', { locked: true });
      await ok('PATCH', '/api/rule/lock/hist/2', { locked: false });
      await ok('PATCH', '/api/tags/hist/1', ['eu']);
      await ok('DELETE', '/api/tags/hist?tags=eu');
      await ok('DELETE', '/api/rule/hist/1');
      const all = await history('hist');
      // The tag removal without a version is one write to both versions: its two entries share a time.
      assert.deepEqual(brief(all), [
        'v1 delete Alice',
        'v2 tags Alice',
        'v1 tags Alice',
        'v1 tags Alice',
        'v2 unlock Alice',
        'v2 lock Alice',
        'v2 pending Alice',
        'v2 publish Alice',
        'v2 new-version Alice',
        'v1 update Alice',
        'v1 create Alice',
      ]);
      assert.equal(all[1]!.at, all[2]!.at);
      for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.at >= all[i]!.at, 'newest first');
      assert.deepEqual(brief(await history('h1/2')), ['v2 tags Alice', 'v2 unlock Alice', 'v2 lock Alice', 'v2 pending Alice', 'v2 publish Alice', 'v2 new-version Alice']);
      assert.deepEqual(brief(await history('hist/1')), ['v1 delete Alice', 'v1 tags Alice', 'v1 tags Alice', 'v1 update Alice', 'v1 create Alice'], 'a deleted version keeps its history');
    });

    test('a key without a name writes by null; the command line and imports are recorded too', { skip }, async () => {
      await s.api('POST', '/api/rule', asNew(messageTable('h2', 'hist-two', 1, 'x'), ['ruleId', 'ruleAlias']));
      assert.deepEqual(brief(await history('hist-two', s.api)), ['v1 create null']);
      await s.server.running.services.rulesIO.importContainer(s.space.space, messageTable('h2', 'hist-two', 2, 'from the cli'));
      await s.server.running.services.management.rules.setStatus(s.space.space, 'h2', 'pending', 2, { by: CLI_ACTOR });
      const imported = await alice('POST', '/api/folder/import', [messageTable('h2', 'hist-two', 3, 'from an export')]);
      assert.equal(imported.status, 200, imported.text);
      assert.deepEqual(brief(await history('h2')), ['v3 import Alice', 'v2 pending cli', 'v2 import cli', 'v1 create null']);
    });

    test('refused writes (stale If-Match, locked version, invalid document) add nothing', { skip }, async () => {
      await alice('POST', '/api/rule', asNew(messageTable('h3', 'hist-three', 1, 'x'), ['ruleId', 'ruleAlias']));
      const before = await history('h3');
      const invalid = asNew(messageTable('h3', 'hist-three', 1, 'x'));
      delete invalid.outputSchema;
      assertError(await alice('PUT', '/api/rule/h3/1', invalid), 400, /The rule is invalid/);
      assert.equal((await s.server.call('PUT', '/api/rule/h3/1', { key: s.space.managementKey, body: asNew(messageTable('h3', 'h3', 1, 'y')), headers: { 'if-match': '"stale"' } })).status, 412);
      await alice('PATCH', '/api/rule/lock/h3/1', { locked: true });
      assertError(await alice('DELETE', '/api/rule/h3/1'), 409, /locked/);
      assert.deepEqual(brief(await history('h3')), ['v1 lock Alice', ...brief(before)]);
    });

    test('a rule whose versions are all deleted keeps its history under its id; unknown rules and versions are 404', { skip }, async () => {
      await alice('POST', '/api/rule', asNew(messageTable('h4', 'hist-four', 1, 'x'), ['ruleId', 'ruleAlias']));
      assert.equal((await alice('DELETE', '/api/rule/h4')).status, 200);
      assert.deepEqual(brief(await history('h4')), ['v1 delete Alice', 'v1 create Alice']);
      assertError(await alice('GET', '/api/rule/history/hist-four'), 404, 'Rule "hist-four" not found');
      assertError(await alice('GET', '/api/rule/history/no-such-rule'), 404, 'Rule "no-such-rule" not found');
      assertError(await alice('GET', '/api/rule/history/hist-two/9'), 404, 'Rule "h2" has no version 9');
      assertError(await alice('GET', '/api/rule/history/hist-two/x'), 400, /version in the path/);
    });

    test('a rule stored before history was kept (no entries) answers an empty history, not a 404', { skip }, async () => {
      await s.server.running.store.management.transaction(s.space.space, (tx) => tx.putRules([messageTable('h5', 'hist-five', 1, 'old')]));
      assert.deepEqual(await history('hist-five'), []);
      assert.deepEqual(await history('h5/1'), []);
      assertError(await alice('GET', '/api/rule/history/h5/2'), 404, 'Rule "h5" has no version 2');
    });

    test("another space's key sees no history of this space, also for deleted rules", { skip }, async () => {
      const other = await s.server.running.services.spaces.create(`hist-other-${kind}`, { keyName: 'Mallory' });
      const b = apiFor(s.server, other.managementKey);
      for (const path of ['hist', 'h1', 'h1/2', 'h4']) assertError(await b('GET', `/api/rule/history/${path}`), 404, /^Rule "[^"]+" (not found|has no version 2)$/);
      await b('POST', '/api/rule', asNew(messageTable('h1', 'hist', 1, 'theirs'), ['ruleId', 'ruleAlias']));
      assert.deepEqual(brief(await history('h1', b)), ['v1 create Mallory'], 'the same id in another space has its own history');
      assert.equal((await history('h1')).length, 11, 'this space is unchanged');
    });
  });
}
