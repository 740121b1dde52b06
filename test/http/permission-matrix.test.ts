// The permission matrix (issue 32): every route of the route table (so a new route cannot be left out) called by
// every role of a space, and by callers who must be refused whatever the route: no session, an expired session, a
// user of another space, a removed user. A role the route's permission allows must get past the guard (any status
// but 401 and 403: the dummy ids give 404s and 400s); one it does not allow gets 403 naming the permission.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MEMBER_ROLES, roleAllows } from '../../src/service/roles.ts';
import type { MemberRole } from '../../src/service/roles.ts';
import type { RouteEntry } from '../../src/http/route-table.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';

interface Session {
  cookie: string;
  csrf: string;
}

let backend: Backend;
let server: TestServer;
let now = Date.parse('2026-11-27T09:00:00Z');
const sessions = new Map<string, Session>();

/** A path of the route with its parameters filled: an id no rule has, version 1, a status the route accepts. */
function pathOf(url: string): string {
  return url
    .replace(':status', 'pending')
    .replace(':version', '1')
    .replace(/:[A-Za-z]+/g, 'no-such-thing');
}

function callAs(route: RouteEntry, session: Session | undefined, space: string): Promise<Reply> {
  const headers: Record<string, string> = { 'x-verdict-space': space };
  if (session !== undefined) {
    headers.cookie = `verdict_session=${session.cookie}`;
    headers['x-csrf-token'] = session.csrf;
  }
  const withBody = route.method !== 'GET' && route.method !== 'DELETE';
  return server.call(route.method, pathOf(route.url), { headers, ...(withBody ? { body: {} } : {}) });
}

async function signIn(username: string): Promise<Session> {
  const reply = await server.call('POST', '/api/auth/login', { body: { username, password: `${username}-password-1` } });
  assert.equal(reply.status, 200, reply.text);
  const cookie = /verdict_session=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')![1]!;
  return { cookie, csrf: reply.json.csrfToken as string };
}

/** The guarded routes: the management API, the audit, MCP; sign-in routes are public by design. */
function guardedRoutes(): RouteEntry[] {
  return server.running.app.routeTable.filter((r) => r.permission !== undefined);
}

before(async () => {
  backend = sqliteBackend();
  server = await startTestServer({ backend, clock: () => now });
  const { users, spaces } = server.running.services;
  const space = server.space.space;
  for (const role of MEMBER_ROLES) await users.create(`m-${role}`, space, role, `m-${role}-password-1`);
  await spaces.create('elsewhere');
  await users.create('outsider', 'elsewhere', 'admin', 'outsider-password-1');
  await users.create('stale', space, 'admin', 'stale-password-1');
  await users.create('gone', space, 'admin', 'gone-password-1');
  // An expired session: signed in, then the clock moves past the idle limit before anyone else signs in.
  sessions.set('expired', await signIn('stale'));
  now += 2 * 60 * 60 * 1000;
  for (const role of MEMBER_ROLES) sessions.set(role, await signIn(`m-${role}`));
  sessions.set('outsider', await signIn('outsider'));
  sessions.set('removed', await signIn('gone'));
  await users.remove('gone');
});

after(async () => {
  await server?.close();
  await backend?.cleanup();
});

test('the route table covers the management API: every guarded route names a permission', () => {
  const routes = guardedRoutes();
  assert.ok(routes.length >= 70, `only ${routes.length} guarded routes found`);
  const urls = new Set(routes.map((r) => `${r.method} ${r.url}`));
  for (const expected of ['GET /api/rule/:idOrAlias', 'PUT /api/rule/status/:idOrAlias/:status', 'GET /api/audit', 'POST /mcp', 'GET /api/space/members', 'POST /api/rule/review/:idOrAlias/:version/approve', 'GET /api/space/activity']) {
    assert.ok(urls.has(expected), `${expected} is in the route table`);
  }
  const unguarded = server.running.app.routeTable.filter((r) => r.url.startsWith('/api/') && r.permission === undefined && !r.public && !/^\/api(\/solver)?\/docs/.test(r.url));
  assert.deepEqual(unguarded, []);
});

for (const role of MEMBER_ROLES) {
  test(`role ${role}: allowed routes pass the guard, the others answer 403 naming the permission`, async () => {
    const session = sessions.get(role)!;
    const wrong: string[] = [];
    for (const route of guardedRoutes()) {
      const reply = await callAs(route, session, server.space.space);
      const allowed = roleAllows(role as MemberRole, route.permission!);
      const name = `${route.method} ${route.url} (${route.permission})`;
      if (allowed && (reply.status === 401 || reply.status === 403)) wrong.push(`${name}: ${reply.status} ${reply.text}`);
      if (!allowed && (reply.status !== 403 || !String(reply.json?.error?.message).includes(`(needs ${route.permission})`))) {
        wrong.push(`${name}: expected 403, got ${reply.status} ${reply.text}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
}

const refused: Array<[string, number]> = [['no session', 401], ['expired', 401], ['outsider', 403], ['removed', 401]];
for (const [who, status] of refused) {
  test(`${who}: every guarded route answers ${status}`, async () => {
    const session = who === 'no session' ? undefined : sessions.get(who)!;
    const wrong: string[] = [];
    for (const route of guardedRoutes()) {
      const reply = await callAs(route, session, server.space.space);
      if (reply.status !== status) wrong.push(`${route.method} ${route.url}: ${reply.status} ${reply.text}`);
    }
    assert.deepEqual(wrong, []);
  });
}

test('a management key is its space admin: no guarded route refuses it', async () => {
  const wrong: string[] = [];
  for (const route of guardedRoutes()) {
    const withBody = route.method !== 'GET' && route.method !== 'DELETE';
    const reply = await server.call(route.method, pathOf(route.url), { key: server.space.managementKey, ...(withBody ? { body: {} } : {}) });
    if (reply.status === 401 || reply.status === 403) wrong.push(`${route.method} ${route.url}: ${reply.status} ${reply.text}`);
  }
  assert.deepEqual(wrong, []);
});
