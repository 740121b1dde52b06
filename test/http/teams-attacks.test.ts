// Attacks on the Teams work (issue 32), made as each role would make them, over real HTTP against a real server:
// every way an editor could change what is live without the right to publish, space crossing, members, CSRF,
// look-alike usernames and leaks. Each test is an attack that must be refused (or an outcome that must hold).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { CallOptions, Reply, TestServer } from './harness.ts';

interface Session {
  cookie: string;
  csrf: string;
}

const example = JSON.parse(readFileSync(new URL('../../examples/rules/shipping-fee.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/** The example table under an alias of our own, its description naming `fee` (content that differs). */
function table(alias: string, fee: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { ruleId: _id, status: _status, version: _version, ...rule } = structuredClone(example);
  return { ...rule, ruleAlias: alias, name: `Rule ${alias}`, description: `fee ${fee}`, ...extra };
}

describe('attacks on users, roles, sessions and approvals', () => {
  let backend: Backend;
  let server: TestServer;
  const as: Record<string, Session> = {};
  let otherKey: string;

  async function signIn(username: string): Promise<Session> {
    const reply = await server.call('POST', '/api/auth/login', { body: { username, password: `${username}-password-1` } });
    assert.equal(reply.status, 200, reply.text);
    return { cookie: /verdict_session=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')![1]!, csrf: reply.json.csrfToken as string };
  }

  function by(who: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const session = as[who]!;
    return server.call(method, path, { ...options, headers: { cookie: `verdict_session=${session.cookie}`, 'x-csrf-token': session.csrf, ...options.headers } });
  }

  /** A rule published by the management key (admin): what production answers. */
  async function published(alias: string, fee: number): Promise<Record<string, any>> {
    const created = await server.call('POST', '/api/rule', { key: server.space.managementKey, body: table(alias, fee, { status: 'published' }) });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.json.status, 'published');
    return created.json as Record<string, any>;
  }

  async function stored(alias: string, version = 1): Promise<Record<string, any>> {
    const reply = await server.call('GET', `/api/rule/${alias}/${version}`, { key: server.space.managementKey });
    assert.equal(reply.status, 200, reply.text);
    return reply.json as Record<string, any>;
  }

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend });
    const { users, spaces } = server.running.services;
    const space = server.space.space;
    await users.create('erin', space, 'editor', 'erin-password-1');
    await users.create('paul', space, 'publisher', 'paul-password-1');
    await users.create('vera', space, 'viewer', 'vera-password-1');
    await users.create('ada', space, 'admin', 'ada-password-1');
    otherKey = (await spaces.create('other')).managementKey;
    await users.create('bob', 'other', 'admin', 'bob-password-1');
    for (const name of ['erin', 'paul', 'vera', 'ada', 'bob']) as[name] = await signIn(name);
  });

  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  test('an editor cannot take a published version out of production by saving it as pending', async () => {
    await published('live-put', 1);
    const refused = await by('erin', 'PUT', '/api/rule/live-put/1', { body: table('live-put', 666, { status: 'pending' }) });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.error.message, /Your role editor .* \(needs rules:publish\)/);
    const after = await stored('live-put');
    assert.equal(after.status, 'published', 'the version stays published');
    assert.equal(after.description, 'fee 1', 'and its content unchanged');
    const solved = await server.solve('/rule/solve/live-put', { data: { order: { country: 'CZ', total: 150 } } });
    assert.equal(solved.status, 200, 'production still answers');
  });

  test('an editor cannot overwrite a published version through a folder import, whatever its status says', async () => {
    const live = await published('live-import', 2);
    const exported = await server.call('GET', '/api/folder/export', { key: server.space.managementKey });
    assert.equal(exported.status, 200, exported.text);
    const overwrite = { ...table('live-import', 777, { status: 'pending' }), ruleId: live.ruleId, version: 1 };
    const refused = await by('erin', 'POST', '/api/folder/import', { body: [overwrite] });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.error.message, /\(needs rules:publish\)/);
    const after = await stored('live-import');
    assert.equal(after.status, 'published');
    assert.equal(after.description, 'fee 2');
  });

  test('an editor cannot overwrite a published version through a rule-flow import', async () => {
    await published('live-flow', 3);
    const refused = await by('erin', 'POST', '/api/rule-flow/import?overwrite=live-flow&version=1', { body: [table('live-flow', 888, { status: 'pending' })] });
    assert.equal(refused.status, 403, refused.text);
    const after = await stored('live-flow');
    assert.equal(after.status, 'published');
    assert.equal(after.description, 'fee 3');
    // An editor may still add versions by import: they start pending, production keeps answering version 1.
    const added = await by('erin', 'POST', '/api/rule-flow/import?new-version=live-flow', { body: [table('live-flow', 889, { status: 'pending' })] });
    assert.equal(added.status, 200, added.text);
    assert.equal((await stored('live-flow', added.json.imported[0].version)).status, 'pending');
  });

  test('an editor cannot move a published rule off its alias (production would stop answering)', async () => {
    await published('live-alias', 4);
    const refused = await by('erin', 'PUT', '/api/rule/live-alias/alias', { body: { ruleAlias: 'moved-away' } });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.error.message, /\(needs rules:publish\)/);
    assert.equal((await server.solve('/rule/solve/live-alias', { data: { order: { country: 'CZ', total: 150 } } })).status, 200);
    // A rule with nothing published is the editor's to rename.
    const draft = await by('erin', 'POST', '/api/rule', { body: table('draft-alias', 5) });
    assert.equal(draft.json.status, 'pending');
    const renamed = await by('erin', 'PUT', '/api/rule/draft-alias/alias', { body: { ruleAlias: 'draft-alias-2' } });
    assert.equal(renamed.status, 200, renamed.text);
    // A publisher may rename a published rule.
    assert.equal((await by('paul', 'PUT', '/api/rule/live-alias/alias', { body: { ruleAlias: 'live-alias-2' } })).status, 200);
  });

  test('an editor cannot lock a version by writing "locked": true (locking is a publisher\'s)', async () => {
    const created = await by('erin', 'POST', '/api/rule', { body: table('self-locked', 1, { locked: true }) });
    assert.equal(created.status, 403, created.text);
    assert.match(created.json.error.message, /\(needs rules:publish\)/);
    const imported = await by('erin', 'POST', '/api/folder/import', { body: [table('self-locked-import', 1, { status: 'pending', locked: true })] });
    assert.equal(imported.status, 403, imported.text);
    assert.equal((await server.call('GET', '/api/rule/self-locked-import', { key: server.space.managementKey })).status, 404, 'nothing imported');
    const unlocked = await by('erin', 'POST', '/api/rule', { body: table('self-unlocked', 1, { locked: false }) });
    assert.equal(unlocked.status, 200, unlocked.text);
  });

  test('an approval is of the content the approver saw: If-Match with an older ETag is refused', async () => {
    const created = await by('erin', 'POST', '/api/rule', { body: table('seen-fee', 10) });
    assert.equal(created.status, 200, created.text);
    const seen = created.headers.get('etag')!;
    assert.ok(seen, 'the save answers an ETag');
    assert.equal((await by('erin', 'POST', '/api/rule/review/seen-fee/1/request', { body: {} })).status, 200);
    // The editor changes the content while the publisher reads the old one.
    const changed = await by('erin', 'PUT', '/api/rule/seen-fee/1', { body: table('seen-fee', 9999, { status: 'pending' }) });
    assert.equal(changed.status, 200, changed.text);
    const stale = await by('paul', 'POST', '/api/rule/review/seen-fee/1/approve', { body: {}, headers: { 'if-match': seen } });
    assert.equal(stale.status, 412, stale.text);
    assert.equal((await by('paul', 'GET', '/api/rule/review/seen-fee/1')).json.state, 'requested', 'nothing approved');
    const fresh = changed.headers.get('etag')!;
    const review = await by('paul', 'GET', '/api/rule/review/seen-fee/1');
    assert.equal(review.headers.get('etag'), fresh, "the review answers the version's ETag to send back");
    const approved = await by('paul', 'POST', '/api/rule/review/seen-fee/1/approve', { body: {}, headers: { 'if-match': fresh } });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.json.state, 'approved');
  });

  test('usernames that look the same are one user: full-width and case variants collide', async () => {
    const fullWidth = await by('ada', 'POST', '/api/space/members', { body: { username: 'ＥＲＩＮ', role: 'admin' } });
    assert.equal(fullWidth.status, 409, fullWidth.text);
    const upper = await by('ada', 'POST', '/api/space/members', { body: { username: 'ERIN', role: 'admin' } });
    assert.equal(upper.status, 409, upper.text);
    // Signing in with the full-width form is signing in as erin.
    const login = await server.call('POST', '/api/auth/login', { body: { username: 'ｅｒｉｎ', password: 'erin-password-1' } });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.json.user.username, 'erin');
  });

  test('sign-in throttling counts a user once, however the name is spelled', async () => {
    await server.running.services.users.create('tess', server.space.space, 'viewer', 'tess-password-1');
    for (const spelling of ['tess', 'TESS', 'Tess', 'ｔｅｓｓ', 'ＴＥＳＳ']) {
      const wrong = await server.call('POST', '/api/auth/login', { body: { username: spelling, password: 'not-her-password' } });
      assert.equal(wrong.status, 401, `${spelling}: ${wrong.text}`);
    }
    const locked = await server.call('POST', '/api/auth/login', { body: { username: 'tEsS', password: 'tess-password-1' } });
    assert.equal(locked.status, 429, 'five failures of one user lock it, whatever the spelling');
    assert.ok(locked.headers.get('retry-after'));
  });

  test('MCP with a session: the CSRF header is needed, and an editor neither publishes nor changes a live version', async () => {
    await published('live-mcp', 6);
    const session = as.erin!;
    const client = new Client({ name: 'attacker', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { cookie: `verdict_session=${session.cookie}`, 'x-csrf-token': session.csrf } },
    }));
    try {
      const tool = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        return { error: result.isError === true, text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('') };
      };
      const publish = await tool('publish_rule', { rule: 'live-mcp' });
      assert.ok(publish.error && /needs rules:publish/.test(publish.text), publish.text);
      const live = await tool('update_rule', { rule: 'live-mcp', document: table('live-mcp', 999), allowLiveEdit: true });
      assert.ok(live.error && /needs rules:publish/.test(live.text), live.text);
      const draft = await tool('update_rule', { rule: 'live-mcp', document: table('live-mcp', 998), asNewVersion: true });
      assert.equal(draft.error, false, draft.text);
    } finally {
      await client.close();
    }
    assert.equal((await stored('live-mcp')).description, 'fee 6');
    assert.equal((await stored('live-mcp', 2)).status, 'pending');
  });

  test('approvals: no path publishes unapproved content (live edit, import over it, a key that approves)', async () => {
    const { users } = server.running.services;
    for (const [name, role] of [['ed2', 'editor'], ['pia', 'publisher'], ['quinn', 'publisher']] as const) {
      await users.create(name, 'other', role, `${name}-password-1`);
      as[name] = await signIn(name);
    }
    assert.equal((await by('bob', 'PUT', '/api/space/settings', { body: { approvals: true } })).status, 200);
    const created = await by('ed2', 'POST', '/api/rule', { body: table('gated', 1) });
    assert.equal(created.status, 200, created.text);
    assert.equal((await by('ed2', 'POST', '/api/rule/review/gated/1/request', { body: {} })).status, 200);
    assert.equal((await by('pia', 'POST', '/api/rule/review/gated/1/approve', { body: {} })).status, 200);
    assert.equal((await by('pia', 'PUT', '/api/rule/status/gated/published/1')).status, 200);

    // Edited in place, the content is no longer the approved one: with or without a status in the body.
    for (const extra of [{ status: 'published' }, {}]) {
      const live = await by('quinn', 'PUT', '/api/rule/gated/1', { body: table('gated', 2, extra) });
      assert.equal(live.status, 409, live.text);
      assert.match(live.json.error.message, /content changed after it was approved/);
    }
    // Imported over the published version, or as a new published version.
    const ruleId = created.json.ruleId as string;
    const overwrite = await by('quinn', 'POST', '/api/folder/import', { body: [{ ...table('gated', 3, { status: 'published' }), ruleId, version: 1 }] });
    assert.equal(overwrite.status, 409, overwrite.text);
    const flow = await by('quinn', 'POST', '/api/rule-flow/import?new-version=gated', { body: [table('gated', 4, { status: 'published' })] });
    assert.equal(flow.status, 409, flow.text);
    // The management key (an admin) cannot approve: a shared secret is no second pair of eyes.
    const added = await by('pia', 'POST', '/api/rule/gated/new-version', { body: table('gated', 5) });
    assert.equal(added.status, 200, added.text);
    const byKey = await server.call('POST', `/api/rule/review/gated/${added.json.version}/approve`, { key: otherKey, body: {} });
    assert.equal(byKey.status, 403, byKey.text);
    assert.equal((await by('pia', 'POST', `/api/rule/review/gated/${added.json.version}/approve`, { body: {} })).status, 409, 'nor its last editor');
    // Delete an approved version and import other content under its number: the old approval does not carry over.
    const approvedV = added.json.version as number;
    const fresh = await by('ed2', 'PUT', `/api/rule/gated/${approvedV}`, { body: table('gated', 6, { status: 'pending' }) });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal((await by('quinn', 'POST', `/api/rule/review/gated/${approvedV}/approve`, { body: {} })).status, 200);
    assert.equal((await by('quinn', 'DELETE', `/api/rule/gated/${approvedV}`)).status, 200);
    const reimported = await by('quinn', 'POST', '/api/folder/import', { body: [{ ...table('gated', 7, { status: 'pending' }), ruleId, version: approvedV }] });
    assert.equal(reimported.status, 200, reimported.text);
    const republish = await by('quinn', 'PUT', `/api/rule/status/gated/published/${approvedV}`);
    assert.equal(republish.status, 409, republish.text);
    const published = await server.call('GET', `/api/rule/${ruleId}/1`, { headers: { cookie: `verdict_session=${as.bob!.cookie}` } });
    assert.equal(published.json.description, 'fee 1', 'production still answers the approved content');
    assert.equal(published.json.status, 'published');
  });

  test('CSRF: text/plain and form posts with the cookie alone are refused on state-changing routes', async () => {
    const cookie = `verdict_session=${as.erin!.cookie}`;
    for (const [method, path] of [['POST', '/api/rule'], ['PUT', '/api/rule/live-put/1'], ['DELETE', '/api/rule/live-put'], ['POST', '/mcp'], ['POST', '/api/rule/review/seen-fee/1/request'], ['PATCH', '/api/rule/lock/live-put/1']] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json']) {
        const reply = await server.call(method, path, { headers: { cookie, 'content-type': type }, raw: JSON.stringify(table('csrf', 1)) });
        assert.ok(reply.status === 403 || reply.status === 415, `${method} ${path} as ${type}: ${reply.status} ${reply.text}`);
      }
    }
    const override = await server.call('POST', '/api/rule/live-put', { headers: { cookie, 'x-http-method-override': 'DELETE' } });
    assert.ok(override.status >= 400, `no method override: a POST to a DELETE route is no DELETE (${override.status})`);
    assert.equal((await stored('live-put')).status, 'published');
    // HEAD and OPTIONS change nothing: HEAD reads as GET does (with the role's rights), OPTIONS has no route (no CORS).
    assert.equal((await server.call('HEAD', '/api/space/items', { headers: { cookie } })).status, 200);
    const options = await server.call('OPTIONS', '/api/rule', { headers: { cookie, origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    assert.equal(options.headers.get('access-control-allow-origin'), null, 'no cross-origin reads or writes are allowed');
    const login = await server.call('POST', '/api/auth/login', { headers: { 'content-type': 'text/plain' }, raw: JSON.stringify({ username: 'erin', password: 'erin-password-1' }) });
    assert.equal(login.status, 415, 'a cross-site form cannot sign anyone in');
  });

  test('space crossing: a member of another space, or a key session, reads nothing of this space', async () => {
    const space = server.space.space;
    for (const path of ['/api/space/activity', '/api/space/members', '/api/rule/live-put', '/api/rule/review/live-put/1', '/api/space/items', '/api/rule/no-such-rule']) {
      const reply = await by('bob', 'GET', path, { headers: { 'x-verdict-space': space } });
      assert.equal(reply.status, 403, `${path}: ${reply.text}`);
      assert.doesNotMatch(reply.text, /live-put|no-such-rule/, 'a refusal does not tell whether the rule exists');
    }
    // bob's own space has no such rule: 404, not A's rule.
    assert.equal((await by('bob', 'GET', '/api/rule/live-put')).status, 404);
    // An admin of the other space cannot add members to, or change roles in, this one.
    const add = await by('bob', 'POST', '/api/space/members', { body: { username: 'bob', role: 'admin' }, headers: { 'x-verdict-space': space } });
    assert.equal(add.status, 403);
    // A key session of this space cannot act in the other.
    const key = await server.call('POST', '/api/auth/key-login', { body: { key: server.space.managementKey } });
    assert.equal(key.status, 200, key.text);
    const keyCookie = /verdict_session=([^;]*)/.exec(key.headers.get('set-cookie') ?? '')![1]!;
    const crossed = await server.call('GET', '/api/space/members', { headers: { cookie: `verdict_session=${keyCookie}`, 'x-verdict-space': 'other' } });
    assert.equal(crossed.status, 403, crossed.text);
  });

  test('members: no self-escalation, no demoting the last admin, a removed member is out mid-session', async () => {
    assert.equal((await by('erin', 'PUT', '/api/space/members/erin', { body: { role: 'admin' } })).status, 403);
    assert.equal((await by('paul', 'PUT', '/api/space/members/paul', { body: { role: 'admin' } })).status, 403);
    // bob is the only admin user of his space (this space also has the first start's `admin`).
    const demote = await by('bob', 'PUT', '/api/space/members/bob', { body: { role: 'viewer' } });
    assert.equal(demote.status, 409, demote.text);
    assert.match(demote.json.error.message, /is the last admin of space/);
    assert.equal((await by('bob', 'DELETE', '/api/space/members/bob')).status, 409, 'nor remove themselves');
    const removed = await by('ada', 'DELETE', '/api/space/members/vera');
    assert.equal(removed.status, 204, removed.text);
    assert.equal((await by('vera', 'GET', '/api/space/items')).status, 403, 'the session no longer reaches the space');
  });

  test('who changed whose role is in the activity log: members added, re-roled and removed', async () => {
    const added = await by('ada', 'POST', '/api/space/members', { body: { username: 'mallory', role: 'viewer' } });
    assert.equal(added.status, 201, added.text);
    assert.equal((await by('ada', 'PUT', '/api/space/members/mallory', { body: { role: 'publisher' } })).status, 200);
    assert.equal((await by('ada', 'DELETE', '/api/space/members/mallory')).status, 204);
    const log = await by('ada', 'GET', '/api/space/activity?actor=ada');
    assert.equal(log.status, 200, log.text);
    const members = (log.json.items as Array<{ action: string; actor: { name: string }; detail: Record<string, unknown> | null }>)
      .filter((i) => i.action.startsWith('member.') && i.detail?.username === 'mallory')
      .map((i) => [i.action, i.actor.name, i.detail?.username, i.detail?.role]);
    assert.deepEqual(members, [
      ['member.remove', 'ada', 'mallory', undefined],
      ['member.role', 'ada', 'mallory', 'publisher'],
      ['member.add', 'ada', 'mallory', 'viewer'],
    ]);
    assert.doesNotMatch(log.text, /oneTimePassword|password/i, 'the one-time password stays out of the log');
  });

  test('no answer and no log line carries a password hash, a session id or a CSRF token', async () => {
    const members = await by('ada', 'GET', '/api/space/members');
    assert.equal(members.status, 200);
    assert.doesNotMatch(members.text, /scrypt\$|password/i);
    const activity = await by('ada', 'GET', '/api/space/activity');
    assert.equal(activity.status, 200);
    for (const secret of Object.values(as)) {
      assert.ok(!activity.text.includes(secret.cookie) && !activity.text.includes(secret.csrf));
    }
    const logged = JSON.stringify(server.logs);
    assert.doesNotMatch(logged, /scrypt\$/);
    for (const [name, secret] of Object.entries(as)) {
      assert.ok(!logged.includes(secret.cookie), `${name}'s session id is in a log line`);
      assert.ok(!logged.includes(secret.csrf), `${name}'s CSRF token is in a log line`);
      assert.ok(!logged.includes(`${name}-password-1`), `${name}'s password is in a log line`);
    }
  });
});
