// Users' sign-in over real HTTP (issue 32, item 1): the session cookie's flags, a new session id at each sign-in
// (fixation), sign-out, idle and absolute expiry on the services' clock, CSRF (cross-site form posts and JSON without
// the header refused), throttling per username and per address, key sign-in, spaces, and no password hash in any
// answer or log line.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asNew } from '../management/helpers.ts';
import { sqliteBackend } from '../store/backends.ts';
import { plantTable } from './fixtures.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { CallOptions, Reply, TestServer } from './harness.ts';

const START = Date.parse('2026-11-27T09:00:00Z');
const MINUTE = 60_000;

interface Cookie {
  value: string;
  attributes: string[];
}

function sessionCookie(reply: Reply): Cookie | undefined {
  const line = reply.headers.getSetCookie().find((c) => c.startsWith('verdict_session='));
  if (line === undefined) return undefined;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  return { value: pair!.slice('verdict_session='.length), attributes };
}

describe('users and sessions over HTTP', () => {
  let backend: Backend;
  let server: TestServer;
  let now = START;
  let space: string;
  let otherSpace: string;

  const login = (username: string, password: string, headers: Record<string, string> = {}) =>
    server.call('POST', '/api/auth/login', { body: { username, password }, headers });
  /** A request with the session cookie (and the CSRF header when given). */
  const withSession = (method: string, path: string, session: { cookie: string; csrf?: string }, options: CallOptions = {}) =>
    server.call(method, path, {
      ...options,
      headers: { cookie: `verdict_session=${session.cookie}`, ...(session.csrf === undefined ? {} : { 'x-csrf-token': session.csrf }), ...options.headers },
    });
  const signIn = async (username: string, password: string) => {
    const reply = await login(username, password);
    assert.equal(reply.status, 200, reply.text);
    return { cookie: sessionCookie(reply)!.value, csrf: reply.json.csrfToken as string, me: reply.json };
  };

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend, clock: () => now });
    space = server.space.space;
    otherSpace = `other-${Date.now().toString(36)}`;
    await server.running.services.spaces.create(otherSpace);
    const users = server.running.services.users;
    await users.create('alice', space, 'admin', 'alice-password-1');
    await users.create('victor', space, 'viewer', 'victor-password-1');
    await users.create('olga', otherSpace, 'editor', 'olga-password-1');
    await users.addMember(space, 'olga', 'viewer');
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  test('login answers Me and sets an HttpOnly, SameSite=Lax, Path=/ cookie, without Secure over plain HTTP', async () => {
    const reply = await login('alice', 'alice-password-1');
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    const cookie = sessionCookie(reply)!;
    assert.match(cookie.value, /^[\w-]{40,}$/);
    assert.ok(cookie.attributes.includes('HttpOnly'), cookie.attributes.join('; '));
    assert.ok(cookie.attributes.includes('SameSite=Lax'));
    assert.ok(cookie.attributes.includes('Path=/'));
    assert.ok(!cookie.attributes.includes('Secure'));
    assert.deepEqual(reply.json.user, { id: reply.json.user.id, username: 'alice', displayName: 'alice', source: 'local' });
    assert.deepEqual(reply.json.actor, { kind: 'user', id: reply.json.user.id, name: 'alice' });
    assert.deepEqual(reply.json.spaces.map((s: { space: string; role: string }) => [s.space, s.role]), [[space, 'admin']]);
    assert.ok(reply.json.spaces[0].permissions.includes('space:admin'));
    assert.match(reply.json.csrfToken, /^[\w-]{40,}$/);
    const me = await withSession('GET', '/api/auth/me', { cookie: cookie.value });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.json.user.username, 'alice');
    assert.equal(me.json.csrfToken, reply.json.csrfToken);
  });

  test('X-Forwarded-Proto: https makes the cookie Secure only when TRUST_PROXY is on', async () => {
    const untrusted = await login('alice', 'alice-password-1', { 'x-forwarded-proto': 'https' });
    assert.ok(!sessionCookie(untrusted)!.attributes.includes('Secure'), 'a client cannot claim TLS without a trusted proxy');
    const proxied = await startTestServer({ backend: sqliteBackend(), env: { TRUST_PROXY: 'true' } });
    try {
      await proxied.running.services.users.create('pat', proxied.space.space, 'viewer', 'pat-password-1');
      const reply = await proxied.call('POST', '/api/auth/login', { body: { username: 'pat', password: 'pat-password-1' }, headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(reply.status, 200, reply.text);
      assert.ok(sessionCookie(reply)!.attributes.includes('Secure'));
      const plain = await proxied.call('POST', '/api/auth/login', { body: { username: 'pat', password: 'pat-password-1' } });
      assert.ok(!sessionCookie(plain)!.attributes.includes('Secure'));
    } finally {
      await proxied.close();
    }
  });

  test('every sign-in makes a new session id; a cookie value planted before sign-in is never adopted', async () => {
    const planted = 'attacker-chosen-session-id-0123456789abcdef';
    const reply = await login('alice', 'alice-password-1', { cookie: `verdict_session=${planted}` });
    assert.equal(reply.status, 200);
    const issued = sessionCookie(reply)!.value;
    assert.notEqual(issued, planted);
    assert.equal((await withSession('GET', '/api/auth/me', { cookie: planted })).status, 401);
    const first = await signIn('alice', 'alice-password-1');
    const second = await login('alice', 'alice-password-1', { cookie: `verdict_session=${first.cookie}` });
    const renewed = sessionCookie(second)!.value;
    assert.notEqual(renewed, first.cookie);
    assert.notEqual(second.json.csrfToken, first.csrf);
    assert.equal((await withSession('GET', '/api/auth/me', { cookie: first.cookie })).status, 401, 'the session a sign-in replaces ends');
    assert.equal((await withSession('GET', '/api/auth/me', { cookie: renewed })).status, 200);
  });

  test('logout needs the CSRF token, ends the session and clears the cookie', async () => {
    const session = await signIn('alice', 'alice-password-1');
    const refused = await withSession('POST', '/api/auth/logout', { cookie: session.cookie });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.message, 'Missing or wrong X-CSRF-Token header');
    const out = await withSession('POST', '/api/auth/logout', session);
    assert.equal(out.status, 204, out.text);
    const cleared = sessionCookie(out)!;
    assert.equal(cleared.value, '');
    assert.ok(cleared.attributes.some((a) => /^Expires=Thu, 01 Jan 1970/.test(a) || a === 'Max-Age=0'), cleared.attributes.join('; '));
    const me = await withSession('GET', '/api/auth/me', { cookie: session.cookie });
    assert.equal(me.status, 401);
    assert.equal(me.json.error.message, 'Your session has ended; sign in again');
    assert.equal((await server.call('GET', '/api/auth/me')).status, 401, 'no cookie at all');
  });

  test('a session ends after SESSION_IDLE_MINUTES without use, and SESSION_MAX_HOURS after sign-in however busy', async () => {
    const idle = await signIn('alice', 'alice-password-1');
    now += 59 * MINUTE;
    assert.equal((await withSession('GET', '/api/auth/me', idle)).status, 200, 'used within the idle time');
    now += 59 * MINUTE;
    assert.equal((await withSession('GET', '/api/auth/me', idle)).status, 200, 'the last use moved the idle end');
    now += 60 * MINUTE;
    assert.equal((await withSession('GET', '/api/auth/me', idle)).status, 401, 'an hour unused');

    const busy = await signIn('alice', 'alice-password-1');
    for (let hour = 0; hour < 11; hour++) {
      now += 59 * MINUTE;
      assert.equal((await withSession('GET', '/api/auth/me', busy)).status, 200, `hour ${hour}`);
    }
    now += 59 * MINUTE; // 11 h 48 min after sign-in
    assert.equal((await withSession('GET', '/api/auth/me', busy)).status, 200);
    now += 12 * MINUTE; // 12 h
    assert.equal((await withSession('GET', '/api/auth/me', busy)).status, 401, 'the absolute end');
  });

  test('a cross-site form post and a JSON post without X-CSRF-Token are refused; with the header the post works', async () => {
    const session = await signIn('alice', 'alice-password-1');
    const cookieOnly = { cookie: session.cookie };
    const form = await withSession('POST', '/api/space/members', cookieOnly, {
      raw: 'username=mallory&role=admin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    assert.equal(form.status, 403, form.text);
    assert.equal(form.json.error.message, 'Missing or wrong X-CSRF-Token header');
    const plain = await withSession('POST', '/api/space/members', cookieOnly, { raw: '{"username":"mallory","role":"admin"}', headers: { 'content-type': 'text/plain' } });
    assert.equal(plain.status, 403);
    const json = await withSession('POST', '/api/space/members', cookieOnly, { body: { username: 'mallory', role: 'admin' } });
    assert.equal(json.status, 403);
    const wrong = await withSession('POST', '/api/space/members', { cookie: session.cookie, csrf: 'x'.repeat(43) }, { body: { username: 'mallory', role: 'admin' } });
    assert.equal(wrong.status, 403);
    assert.equal((await server.running.services.users.list()).some((u) => u.username === 'mallory'), false, 'nothing was created');
    // A cross-site form cannot sign anyone in either: sign-in takes JSON only.
    const formLogin = await server.call('POST', '/api/auth/login', { raw: 'username=alice&password=alice-password-1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(formLogin.status, 415);
    assert.equal(sessionCookie(formLogin), undefined);
    const ok = await withSession('POST', '/api/space/members', session, { body: { username: 'mallory', role: 'viewer' } });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json.role, 'viewer');
    assert.match(ok.json.oneTimePassword, /^[\w-]{20}$/);
    assert.equal((await withSession('GET', '/api/space/members', cookieOnly)).status, 200, 'a read needs no CSRF header');
  });

  test('a session reaches the management API with its role: a viewer reads, an editor writes, both need the CSRF header to write', async () => {
    const users = server.running.services.users;
    await users.create('ed', space, 'editor', 'ed-password-1');
    await users.create('val', space, 'viewer', 'val-password-1');
    const ed = await signIn('ed', 'ed-password-1');
    const val = await signIn('val', 'val-password-1');
    const rule = { ...asNew(plantTable(), ['ruleId', 'ruleAlias']), status: 'pending' };
    const noHeader = await withSession('POST', '/api/rule', { cookie: ed.cookie }, { body: rule });
    assert.equal(noHeader.status, 403);
    assert.equal(noHeader.json.error.message, 'Missing or wrong X-CSRF-Token header');
    const created = await withSession('POST', '/api/rule', ed, { body: rule });
    assert.equal(created.status, 200, created.text);
    const byViewer = await withSession('POST', '/api/rule', val, { body: rule });
    assert.equal(byViewer.status, 403);
    assert.match(byViewer.json.error.message, /^Your role viewer in space .* does not allow .*\(needs rules:edit\)$/);
    const read = await withSession('GET', `/api/rule/${created.json.ruleId}`, val);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.headers.get('cache-control'), 'no-store', 'answers read with a session are never cached');
    const history = await withSession('GET', `/api/rule/history/${created.json.ruleId}`, val);
    assert.equal(history.status, 200, history.text);
    assert.equal(history.text.includes('"ed"'), true, `the rule history names the user: ${history.text}`);
  });

  test('the space comes from X-Verdict-Space; a space the user is no member of is 403', async () => {
    const olga = await signIn('olga', 'olga-password-1');
    assert.deepEqual(olga.me.spaces.map((s: { space: string }) => s.space), [space, otherSpace].sort());
    const members = await withSession('GET', '/api/space/members', olga, { headers: { 'x-verdict-space': space } });
    assert.equal(members.status, 403, 'a viewer of this space may not manage its members');
    assert.match(members.json.error.message, /does not allow .*space:admin/);
    const alice = await signIn('alice', 'alice-password-1');
    const foreign = await withSession('GET', '/api/space/members', alice, { headers: { 'x-verdict-space': otherSpace } });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error.message, `User "alice" is not a member of space "${otherSpace}"`);
  });

  test('after 5 failures of one username the 6th attempt is 429 even with the right password, until the lock ends', async () => {
    await server.running.services.users.create('tina', space, 'viewer', 'tina-password-1');
    for (let i = 0; i < 5; i++) {
      const reply = await login('tina', `wrong-${i}`);
      assert.equal(reply.status, 401);
      assert.equal(reply.json.error.message, 'Wrong username or password');
    }
    const sixth = await login('TINA', 'tina-password-1');
    assert.equal(sixth.status, 429, sixth.text);
    assert.equal(sixth.headers.get('retry-after'), String(15 * 60));
    assert.equal(sessionCookie(sixth), undefined);
    assert.equal((await login('alice', 'alice-password-1')).status, 200, 'other users from the same address still sign in');
    now += 15 * MINUTE;
    assert.equal((await login('tina', 'tina-password-1')).status, 200, 'after the lock');
  });

  test('the lock doubles when failures go on after it', async () => {
    await server.running.services.users.create('dora', space, 'viewer', 'dora-password-1');
    for (let i = 0; i < 5; i++) assert.equal((await login('dora', 'nope-nope')).status, 401);
    now += 15 * MINUTE;
    for (let i = 0; i < 5; i++) assert.equal((await login('dora', 'nope-nope')).status, 401);
    const locked = await login('dora', 'dora-password-1');
    assert.equal(locked.status, 429);
    assert.equal(locked.headers.get('retry-after'), String(30 * 60));
    now += 30 * MINUTE;
  });

  test('20 failures from one address, whatever the usernames, lock the address', async () => {
    const proxied = await startTestServer({ backend: sqliteBackend(), env: { TRUST_PROXY: 'true' }, clock: () => now });
    try {
      await proxied.running.services.users.create('ann', proxied.space.space, 'viewer', 'ann-password-1');
      const from = (address: string, username: string, password: string) =>
        proxied.call('POST', '/api/auth/login', { body: { username, password }, headers: { 'x-forwarded-for': address } });
      for (let i = 0; i < 20; i++) assert.equal((await from('203.0.113.7', `guess${i}`, 'password')).status, 401);
      const locked = await from('203.0.113.7', 'ann', 'ann-password-1');
      assert.equal(locked.status, 429);
      assert.equal((await from('198.51.100.1', 'ann', 'ann-password-1')).status, 200, 'another address is not locked');
    } finally {
      await proxied.close();
    }
  });

  test('a management key signs in as a session (admin of its space); revoking the key ends it; STUDIO_KEY_SIGNIN=false refuses', async () => {
    const services = server.running.services;
    const key = await services.keys.create(space, 'management', 'studio laptop');
    const reply = await server.call('POST', '/api/auth/key-login', { body: { key: key.key } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.user, null);
    assert.deepEqual(reply.json.actor, { kind: 'key', id: key.id, name: 'studio laptop' });
    assert.deepEqual(reply.json.spaces.map((s: { space: string; role: string }) => [s.space, s.role]), [[space, 'admin']]);
    const session = { cookie: sessionCookie(reply)!.value, csrf: reply.json.csrfToken as string };
    assert.equal((await withSession('GET', '/api/space/members', session)).status, 200);
    assert.equal((await server.call('POST', '/api/auth/key-login', { body: { key: server.space.solverKey } })).status, 401);
    await services.keys.revoke(key.id);
    assert.equal((await withSession('GET', '/api/space/members', session)).status, 401, 'a revoked key ends its sessions');

    const closed = await startTestServer({ backend: sqliteBackend(), env: { STUDIO_KEY_SIGNIN: 'false' } });
    try {
      const refused = await closed.call('POST', '/api/auth/key-login', { body: { key: closed.space.managementKey } });
      assert.equal(refused.status, 403);
      assert.match(refused.json.error.message, /STUDIO_KEY_SIGNIN=false/);
      assert.deepEqual((await closed.call('GET', '/api/auth/config')).json, { password: true, keySignIn: false, sso: [] });
    } finally {
      await closed.close();
    }
  });

  test('members: list, change a role, keep the last admin, remove; a removed member loses the space at once', async () => {
    const alice = await signIn('alice', 'alice-password-1');
    const listed = await withSession('GET', '/api/space/members', alice);
    assert.equal(listed.status, 200);
    const names = listed.json.map((m: { user: { username: string } }) => m.user.username);
    assert.deepEqual(names, [...names].sort());
    assert.ok(names.includes('victor'));
    // The first start's user `admin` is an admin too: it may go, and then alice is the last admin.
    assert.equal((await withSession('PUT', '/api/space/members/admin', alice, { body: { role: 'publisher' } })).status, 200);
    const demoteSelf = await withSession('PUT', '/api/space/members/alice', alice, { body: { role: 'viewer' } });
    assert.equal(demoteSelf.status, 409, 'alice is the last admin user');
    assert.equal(demoteSelf.json.error.message, `User "alice" is the last admin of space "${space}"; make another member admin first`);
    assert.equal((await withSession('DELETE', '/api/space/members/alice', alice)).status, 409);
    assert.equal((await withSession('PUT', '/api/space/members/victor', alice, { body: { role: 'boss' } })).status, 400);
    const promoted = await withSession('PUT', '/api/space/members/victor', alice, { body: { role: 'editor' } });
    assert.equal(promoted.status, 200, promoted.text);
    assert.equal(promoted.json.role, 'editor');
    const victor = await signIn('victor', 'victor-password-1');
    assert.equal(victor.me.spaces[0].role, 'editor');
    assert.equal((await withSession('POST', '/api/space/members', alice, { body: { username: 'victor', role: 'viewer' } })).status, 409);
    assert.equal((await withSession('POST', '/api/space/members', alice, { body: { username: 'victor', role: 'viewer', password: 'a-new-password' } })).status, 409);
    assert.equal((await withSession('DELETE', '/api/space/members/victor', alice)).status, 204);
    assert.equal((await withSession('DELETE', '/api/space/members/victor', alice)).status, 404);
    const after = await withSession('GET', '/api/auth/me', victor);
    assert.deepEqual(after.json.spaces, []);
    const refused = await withSession('GET', '/api/space/members', victor);
    assert.equal(refused.status, 403);
  });

  test('a user changes their password with the current one; their other sessions end, this one goes on', async () => {
    await server.running.services.users.create('cora', space, 'viewer', 'cora-password-1');
    const here = await signIn('cora', 'cora-password-1');
    const elsewhere = await signIn('cora', 'cora-password-1');
    const change = (session: { cookie: string; csrf?: string }, currentPassword: string, newPassword: string) =>
      withSession('POST', '/api/auth/password', session, { body: { currentPassword, newPassword } });
    assert.equal((await change({ cookie: here.cookie }, 'cora-password-1', 'cora-password-2')).status, 403, 'CSRF header required');
    const wrong = await change(here, 'not-it-at-all', 'cora-password-2');
    assert.deepEqual([wrong.status, wrong.json.error.message], [401, 'The current password is wrong']);
    const short = await change(here, 'cora-password-1', 'short');
    assert.deepEqual([short.status, short.json.error.message], [400, 'a password must have at least 8 characters']);
    assert.equal((await change(here, 'cora-password-1', 'cora-password-2')).status, 204);
    assert.equal((await withSession('GET', '/api/auth/me', here)).status, 200, 'this session goes on');
    assert.equal((await withSession('GET', '/api/auth/me', elsewhere)).status, 401, 'the other session ended');
    assert.equal((await login('cora', 'cora-password-1')).status, 401);
    assert.equal((await login('cora', 'cora-password-2')).status, 200);
    const key = await server.call('POST', '/api/auth/key-login', { body: { key: server.space.managementKey } });
    const keySession = { cookie: sessionCookie(key)!.value, csrf: key.json.csrfToken as string };
    assert.equal((await change(keySession, 'x'.repeat(8), 'y'.repeat(8))).status, 400, 'a key has no password');
  });

  test('neither answers nor log lines ever carry a password or its hash', async () => {
    const secret = 'hunter2-but-longer';
    const alice = await signIn('alice', 'alice-password-1');
    const added = await withSession('POST', '/api/space/members', alice, { body: { username: 'henry', role: 'viewer', password: secret } });
    assert.equal(added.status, 201, added.text);
    const answers = [
      added,
      await login('henry', secret),
      await login('henry', 'a-wrong-password'),
      await withSession('GET', '/api/auth/me', alice),
      await withSession('GET', '/api/space/members', alice),
    ];
    const stored = (await server.running.store.users.findByUsername('henry'))!.passwordHash!;
    assert.match(stored, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    for (const reply of answers) {
      assert.ok(!reply.text.includes('scrypt$') && !reply.text.includes(stored.split('$')[5]!), reply.text);
      assert.ok(!reply.text.includes(secret));
      assert.ok(!/passwordHash|password_hash/.test(reply.text));
    }
    const log = JSON.stringify(server.logs);
    assert.ok(server.logs.some((line) => line.msg === 'signed in'), 'sign-ins are logged');
    assert.ok(!log.includes(secret) && !log.includes('alice-password-1') && !log.includes('scrypt$'));
  });
});
