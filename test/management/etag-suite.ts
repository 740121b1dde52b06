// No lost updates: GET of a rule version answers a strong ETag that every write to the version changes; writes
// with If-Match are refused with 412 (and the current ETag) when the version changed since it was read, also
// when two writes race; without If-Match, writes behave as before. Over real HTTP on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { messageTable } from '../http/fixtures.ts';
import { apiFor, asNew, assertError, skipReason, startSuiteServer } from './helpers.ts';
import type { Doc, SuiteServer } from './helpers.ts';
import type { Reply } from '../http/harness.ts';

const STRONG_ETAG = /^"[A-Za-z0-9_-]{27}"$/;

export function etagSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`ETag and If-Match on rule versions on ${kind}`, async () => {
    const skip = await skipReason(kind);
    let s: SuiteServer;

    before(async () => {
      if (skip) return;
      s = await startSuiteServer(kind);
    });
    after(async () => {
      if (!skip) await s.close();
    });

    function call(method: string, path: string, body?: unknown, ifMatch?: string): Promise<Reply> {
      const headers: Record<string, string> = ifMatch === undefined ? {} : { 'if-match': ifMatch };
      return s.server.call(method, path, body === undefined ? { key: s.space.managementKey, headers } : { key: s.space.managementKey, body, headers });
    }

    async function etag(path: string): Promise<string> {
      const reply = await call('GET', path);
      assert.equal(reply.status, 200, reply.text);
      const tag = reply.headers.get('etag');
      assert.ok(tag !== null, 'GET answers an ETag');
      return tag;
    }

    async function createRule(id: string, message = 'v1'): Promise<Reply> {
      const reply = await call('POST', '/api/rule', asNew(messageTable(id, id, 1, message), ['ruleId', 'ruleAlias']));
      assert.equal(reply.status, 200, reply.text);
      return reply;
    }

    const edit = (id: string, message: string): Doc => asNew(messageTable(id, id, 1, message));

    test('GET answers a strong ETag, the same until the version changes, for the version and for latest', { skip }, async () => {
      const created = await createRule('etag-get');
      const tag = await etag('/api/rule/etag-get/1');
      assert.match(tag, STRONG_ETAG);
      assert.equal(created.headers.get('etag'), tag, 'create answers the ETag of the version it made');
      assert.equal(await etag('/api/rule/etag-get/1'), tag);
      assert.equal(await etag('/api/rule/etag-get'), tag);
      const v2 = await call('POST', '/api/rule/etag-get/new-version', edit('etag-get', 'v2'));
      assert.equal(await etag('/api/rule/etag-get'), v2.headers.get('etag'), 'latest is now version 2');
      assert.equal(await etag('/api/rule/etag-get/1'), tag, 'a new version leaves version 1 alone');
    });

    test('PUT with the current ETag writes and answers the new ETag; with an old one it is refused with 412', { skip }, async () => {
      await createRule('etag-put');
      const first = await etag('/api/rule/etag-put/1');
      const written = await call('PUT', '/api/rule/etag-put/1', edit('etag-put', 'second'), first);
      assert.equal(written.status, 200, written.text);
      const second = written.headers.get('etag')!;
      assert.match(second, STRONG_ETAG);
      assert.notEqual(second, first);
      assert.equal(await etag('/api/rule/etag-put/1'), second, 'the answered ETag is the one a GET gives');
      const stale = await call('PUT', '/api/rule/etag-put/1', edit('etag-put', 'lost'), first);
      assertError(stale, 412, `Rule etag-put version 1 was changed since you read it (If-Match ${first}, current ${second})`);
      assert.equal(stale.headers.get('etag'), second, '412 carries the current ETag');
      assert.deepEqual((await s.solve('/rule/solve/etag-put', {})).json, [{ message: 'second' }], 'the refused write changed nothing');
      const latest = await call('PUT', '/api/rule/etag-put', edit('etag-put', 'third'), second);
      assert.equal(latest.status, 200, 'the no-version route honours If-Match against the latest version');
    });

    test('If-Match: * matches any existing version; no If-Match writes as before; a list matches any of its tags', { skip }, async () => {
      await createRule('etag-star');
      assert.equal((await call('PUT', '/api/rule/etag-star/1', edit('etag-star', 'a'), '*')).status, 200);
      assertError(await call('PUT', '/api/rule/etag-star/7', edit('etag-star', 'b'), '*'), 404, 'Rule "etag-star" has no version 7');
      assert.equal((await call('PUT', '/api/rule/etag-star/1', edit('etag-star', 'c'))).status, 200);
      const current = await etag('/api/rule/etag-star/1');
      assert.equal((await call('PUT', '/api/rule/etag-star/1', edit('etag-star', 'd'), `"old", ${current}`)).status, 200);
    });

    test('a weak tag never matches (strong comparison); a malformed If-Match is a 400 naming the header', { skip }, async () => {
      await createRule('etag-weak');
      const current = await etag('/api/rule/etag-weak/1');
      assertError(await call('PUT', '/api/rule/etag-weak/1', edit('etag-weak', 'w'), `W/${current}`), 412, /was changed since you read it/);
      assertError(await call('PUT', '/api/rule/etag-weak/1', edit('etag-weak', 'w'), current.slice(1, -1)), 400, /^Header If-Match must be \*/);
      assert.equal(await etag('/api/rule/etag-weak/1'), current);
    });

    test('status, lock and tag changes each change the ETag and honour If-Match', { skip }, async () => {
      await createRule('etag-meta');
      const path = '/api/rule/etag-meta/1';
      const writes: Array<[string, string, unknown?]> = [
        ['PUT', '/api/rule/status/etag-meta/pending/1'],
        ['PATCH', '/api/rule/lock/etag-meta/1', { locked: true }],
        ['PATCH', '/api/rule/lock/etag-meta/1', { locked: false }],
        ['PATCH', '/api/tags/etag-meta/1', ['eu']],
        ['DELETE', '/api/tags/etag-meta/1?tags=eu'],
        ['PUT', '/api/rule/status/etag-meta/published'],
      ];
      for (const [method, url, body] of writes) {
        const before = await etag(path);
        const stale = await call(method, url, body, '"not-the-current-tag"');
        assertError(stale, 412, new RegExp(`^Rule etag-meta version 1 was changed since you read it \\(If-Match "not-the-current-tag", current ${before}\\)$`));
        assert.equal(await etag(path), before, `${method} ${url} refused changes nothing`);
        const reply = await call(method, url, body, before);
        assert.equal(reply.status, 200, `${method} ${url}: ${reply.text}`);
        const after = await etag(path);
        assert.notEqual(after, before, `${method} ${url} changes the ETag`);
        assert.equal(reply.headers.get('etag'), after, `${method} ${url} answers the new ETag`);
      }
      assertError(await call('PATCH', '/api/tags/etag-meta', ['x'], await etag(path)), 400, /If-Match needs one version/);
    });

    test('two writes racing with the same ETag: exactly one wins, the other gets 412', { skip }, async () => {
      await createRule('etag-race');
      for (let round = 0; round < 5; round++) {
        const tag = await etag('/api/rule/etag-race/1');
        const replies = await Promise.all([0, 1, 2].map((i) => call('PUT', '/api/rule/etag-race/1', edit('etag-race', `r${round}-${i}`), tag)));
        const statuses = replies.map((r) => r.status).sort();
        assert.deepEqual(statuses, [200, 412, 412], `round ${round}: ${replies.map((r) => r.text).join(' | ')}`);
        const winner = replies.find((r) => r.status === 200)!;
        assert.equal(await etag('/api/rule/etag-race/1'), winner.headers.get('etag'));
        assert.deepEqual((await s.solve('/rule/solve/etag-race', {})).json, [{ message: winner.json.decisionTable.rows[0].cells[1].outputScalarValue.value }]);
      }
    });

    test("another space's key gets 404 with or without If-Match, never a 412 that would reveal the rule", { skip }, async () => {
      await createRule('etag-iso');
      const tag = await etag('/api/rule/etag-iso/1');
      const other = await s.server.running.services.spaces.create(`etag-other-${kind}`);
      const b = apiFor(s.server, other.managementKey);
      const get = await b('GET', '/api/rule/etag-iso/1');
      assertError(get, 404, 'Rule "etag-iso" not found');
      assert.equal(get.headers.get('etag'), null);
      const put = await s.server.call('PUT', '/api/rule/etag-iso/1', { key: other.managementKey, body: edit('etag-iso', 'x'), headers: { 'if-match': '"stale"' } });
      assertError(put, 404, 'Rule "etag-iso" not found');
      assert.equal(await etag('/api/rule/etag-iso/1'), tag);
    });

    test('the OpenAPI document shows If-Match on writes, the ETag header and the 412 answer', { skip }, async () => {
      const doc = (await s.server.call('GET', '/api/docs/json')).json;
      const put = doc.paths['/api/rule/{idOrAlias}/{version}'].put;
      assert.ok(put.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name.toLowerCase() === 'if-match'));
      assert.ok(put.responses['412'], '412 documented');
      assert.ok(put.responses['200'].headers.ETag, 'ETag response header documented');
      assert.ok(doc.paths['/api/rule/{idOrAlias}/{version}'].get.responses['200'].headers.ETag);
    });
  });
}
