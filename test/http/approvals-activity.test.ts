// Four eyes and who did what (issue 32, items 4 and 6), over HTTP with real sessions: with the space setting
// approvals on, an editor's version is published only after another user approved its content; an approval of
// older content counts for nothing; every step is in the space's activity log with its actor.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { backendOf, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { CallOptions, Reply, TestServer } from './harness.ts';

interface Session {
  cookie: string;
  csrf: string;
}

const example = JSON.parse(readFileSync(new URL('../../examples/rules/shipping-fee.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/** A rule of our own: the example table under a fresh alias, its description naming `fee` (content that differs). */
function tableWithFee(fee: number): Record<string, unknown> {
  const { ruleId: _id, status: _status, ...rule } = structuredClone(example);
  return { ...rule, ruleAlias: 'reviewed-fee', name: 'Reviewed fee', description: `fee ${fee}` };
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`approvals and activity on ${kind}`, { skip: kind === 'postgres' ? await postgresSkip() : false }, () => {
    let backend: Backend;
    let server: TestServer;
    const as: Record<string, Session> = {};

    async function signIn(username: string): Promise<Session> {
      const reply = await server.call('POST', '/api/auth/login', { body: { username, password: `${username}-password-1` } });
      assert.equal(reply.status, 200, reply.text);
      return { cookie: /verdict_session=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')![1]!, csrf: reply.json.csrfToken as string };
    }

    function by(who: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
      const session = as[who]!;
      return server.call(method, path, { ...options, headers: { cookie: `verdict_session=${session.cookie}`, 'x-csrf-token': session.csrf, ...options.headers } });
    }

    before(async () => {
      backend = await backendOf(kind);
      server = await startTestServer({ backend });
      const { users } = server.running.services;
      const space = server.space.space;
      await users.create('erin', space, 'editor', 'erin-password-1');
      await users.create('paul', space, 'publisher', 'paul-password-1');
      await users.create('vera', space, 'viewer', 'vera-password-1');
      await users.create('ada', space, 'admin', 'ada-password-1');
      for (const name of ['erin', 'paul', 'vera', 'ada']) as[name] = await signIn(name);
    });

    after(async () => {
      await server?.close();
      await backend?.cleanup();
    });

    test('without the setting an editor saves pending and a publisher publishes, as before', async () => {
      const created = await by('erin', 'POST', '/api/rule', { body: { ...tableWithFee(5), ruleAlias: 'no-review-fee' } });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.json.status, 'pending', "an editor's new rule starts pending: they cannot publish");
      const refused = await by('erin', 'PUT', `/api/rule/status/no-review-fee/published/1`);
      assert.equal(refused.status, 403);
      assert.match(refused.json.error.message, /Your role editor in space .* does not allow publishing.*\(needs rules:publish\)/);
      const published = await by('paul', 'PUT', `/api/rule/status/no-review-fee/published/1`);
      assert.equal(published.status, 200, published.text);
      const explicit = await by('erin', 'POST', '/api/rule', { body: { ...tableWithFee(5), ruleAlias: 'no-review-2', status: 'published' } });
      assert.equal(explicit.status, 403, 'a body that says published needs the right to publish');
    });

    test('four eyes: an editor cannot approve their own change; another user approves; the solve answers it', async () => {
      const settings = await by('ada', 'PUT', '/api/space/settings', { body: { approvals: true } });
      assert.equal(settings.status, 200, settings.text);
      assert.equal(settings.json.approvals, true);
      assert.equal((await by('erin', 'PUT', '/api/space/settings', { body: { approvals: false } })).status, 403, 'only an admin changes settings');

      const created = await by('erin', 'POST', '/api/rule', { body: tableWithFee(5) });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.json.status, 'pending');
      const direct = await by('paul', 'PUT', '/api/rule/status/reviewed-fee/published/1');
      assert.equal(direct.status, 409, 'no approval yet');
      assert.match(direct.json.error.message, /needs an approval by a user other than its last editor/);

      assert.equal((await by('vera', 'POST', '/api/rule/review/reviewed-fee/1/request', { body: {} })).status, 403, 'a viewer cannot ask for a review');
      const requested = await by('erin', 'POST', '/api/rule/review/reviewed-fee/1/request', { body: { comment: 'new fee' } });
      assert.equal(requested.status, 200, requested.text);
      assert.equal(requested.json.state, 'requested');
      assert.equal(requested.json.requestedBy.name, 'erin');
      assert.equal(requested.json.lastEditor.name, 'erin');

      assert.equal((await by('erin', 'POST', '/api/rule/review/reviewed-fee/1/approve', { body: {} })).status, 403, 'an editor has no approving role');
      // A publisher who last edited the version cannot approve it either: paul edits, then tries.
      const edited = await by('paul', 'PUT', '/api/rule/reviewed-fee/1', { body: { ...created.json, description: 'edited by paul' } });
      assert.equal(edited.status, 200, edited.text);
      const own = await by('paul', 'POST', '/api/rule/review/reviewed-fee/1/approve', { body: {} });
      assert.equal(own.status, 409);
      assert.match(own.json.error.message, /You \(paul\) were the last to edit version 1/);
      const key = await server.call('POST', '/api/rule/review/reviewed-fee/1/approve', { key: server.space.managementKey, body: {} });
      assert.equal(key.status, 403, 'a management key is no second pair of eyes');

      // erin edits again; now paul may approve.
      const again = await by('erin', 'PUT', '/api/rule/reviewed-fee/1', { body: { ...edited.json, description: 'final' } });
      assert.equal(again.status, 200, again.text);
      const approved = await by('paul', 'POST', '/api/rule/review/reviewed-fee/1/approve', { body: { comment: 'looks right' } });
      assert.equal(approved.status, 200, approved.text);
      assert.equal(approved.json.state, 'approved');
      assert.equal(approved.json.decidedBy.name, 'paul');
      assert.equal(approved.json.current, true);

      const published = await by('paul', 'PUT', '/api/rule/status/reviewed-fee/published/1');
      assert.equal(published.status, 200, published.text);
      const solved = await server.solve('/rule/solve/reviewed-fee', { data: { order: { country: 'CZ', total: 10 } } });
      assert.equal(solved.status, 200, solved.text);
    });

    test('an approval holds only for the content it saw; a rejection needs a comment', async () => {
      const v2 = await by('erin', 'POST', '/api/rule/reviewed-fee/new-version', { body: tableWithFee(7) });
      assert.equal(v2.status, 200, v2.text);
      const version = v2.json.version as number;
      assert.equal((await by('paul', 'POST', `/api/rule/review/reviewed-fee/${version}/approve`, { body: {} })).status, 200);
      const changed = await by('erin', 'PUT', `/api/rule/reviewed-fee/${version}`, { body: { ...v2.json, description: 'changed after approval' } });
      assert.equal(changed.status, 200, changed.text);
      const review = await by('vera', 'GET', `/api/rule/review/reviewed-fee/${version}`);
      assert.equal(review.json.state, 'approved');
      assert.equal(review.json.current, false, 'the content changed since');
      const refused = await by('paul', 'PUT', `/api/rule/status/reviewed-fee/published/${version}`);
      assert.equal(refused.status, 409);
      assert.match(refused.json.error.message, /content changed after it was approved/);
      const noComment = await by('paul', 'POST', `/api/rule/review/reviewed-fee/${version}/reject`, { body: {} });
      assert.equal(noComment.status, 400);
      const rejected = await by('paul', 'POST', `/api/rule/review/reviewed-fee/${version}/reject`, { body: { comment: 'fee too high' } });
      assert.equal(rejected.status, 200, rejected.text);
      assert.equal(rejected.json.state, 'rejected');
      assert.equal(rejected.json.comment, 'fee too high');
    });

    test('the activity log lists who did what, filters by actor, rule and action, and pages with a cursor', async () => {
      const all = await by('vera', 'GET', '/api/space/activity?rule=reviewed-fee&limit=500');
      assert.equal(all.status, 200, all.text);
      const steps = (all.json.items as Array<{ action: string; actor: { kind: string; name: string }; rule: { version: number } }>)
        .map((e) => `${e.actor.name} ${e.action} v${e.rule.version}`)
        .reverse();
      assert.deepEqual(steps.slice(0, 8), [
        'erin rule.create v1',
        'erin review.request v1',
        'paul rule.update v1',
        'erin rule.update v1',
        'paul review.approve v1',
        'paul rule.publish v1',
        'erin rule.new-version v2',
        'paul review.approve v2',
      ]);
      const erin = await by('vera', 'GET', '/api/space/activity?actor=erin&limit=500');
      assert.ok(erin.json.items.length >= 5 && erin.json.items.every((e: { actor: { name: string } }) => e.actor.name === 'erin'));
      const publishes = await by('vera', 'GET', '/api/space/activity?action=rule.publish&limit=500');
      assert.deepEqual(publishes.json.items.map((e: { actor: { name: string } }) => e.actor.name), ['paul', 'paul']);
      const settings = await by('ada', 'GET', '/api/space/activity?action=settings.update');
      assert.equal(settings.json.items[0].actor.name, 'ada');
      assert.deepEqual(settings.json.items[0].detail, { approvals: true });

      const seen = new Set<string>();
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Reply = await by('vera', 'GET', `/api/space/activity?rule=reviewed-fee&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(page.status, 200, page.text);
        for (const item of page.json.items as Array<{ id: string }>) {
          assert.ok(!seen.has(item.id), 'pages do not overlap');
          seen.add(item.id);
        }
        cursor = page.json.nextCursor;
        pages++;
      } while (cursor !== null && pages < 50);
      assert.equal(seen.size, all.json.items.length, 'paging visits every entry once');
      assert.equal((await by('vera', 'GET', '/api/space/activity?cursor=not-a-cursor')).status, 400);

      const history = await by('vera', 'GET', '/api/rule/history/reviewed-fee/1');
      assert.ok(history.json.items.some((h: { action: string; by: string }) => h.action === 'publish' && h.by === 'paul'), 'the rule history names the user');
    });
  });
}
