// The user service over a real store: single sign-on users created on first sign-in and their roles replaced by
// the provider's on each, a username clash resolved with a suffix, roles of unknown spaces left out, and a user
// deleted with their sessions.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SessionService } from '../../src/service/sessions.ts';
import { SpaceService } from '../../src/service/spaces.ts';
import { UserService } from '../../src/service/users.ts';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

let backend: Backend;
let store: KyselyStore;
let users: UserService;
let sessions: SessionService;
const clock = () => Date.parse('2026-11-27T09:00:00Z');

before(async () => {
  backend = sqliteBackend();
  store = await openStore(backend.url);
  const spaces = new SpaceService(store, clock);
  for (const name of ['sales', 'ops']) await spaces.create(name);
  users = new UserService(store, clock);
  sessions = new SessionService(store, clock, users, { idleMinutes: 60, maxHours: 12 });
});
after(async () => {
  await store.close();
  await backend.cleanup();
});

test('upsertExternal creates the user once, keeps them by issuer and subject, and takes the roles from the provider', async () => {
  await users.create('erin', 'sales', 'viewer', 'local-password');
  const first = await users.upsertExternal({
    issuer: 'https://idp.example/realms/verdict', subject: 'abc-123', username: 'erin', displayName: 'Erin E.',
    roles: [{ space: 'sales', role: 'editor' }, { space: 'nowhere', role: 'admin' }],
  });
  assert.deepEqual(first, { id: first.id, username: 'erin-2', displayName: 'Erin E.', source: 'oidc' }, 'a local erin exists: a suffix');
  assert.deepEqual(await users.memberships(first.id), [{ space: 'sales', role: 'editor' }], 'an unknown space is left out');
  const again = await users.upsertExternal({
    issuer: 'https://idp.example/realms/verdict', subject: 'abc-123', username: 'erin', roles: [{ space: 'ops', role: 'publisher' }],
  });
  assert.equal(again.id, first.id);
  assert.deepEqual(await users.memberships(first.id), [{ space: 'ops', role: 'publisher' }], 'the provider\'s roles replace the old ones');
  assert.equal(await users.verify('erin-2', 'anything'), undefined, 'an SSO user has no password to sign in with');
  await assert.rejects(users.upsertExternal({ issuer: 'i', subject: 's', username: 'x', roles: [{ space: 'ops', role: 'root' as never }] }), { code: 'invalid-role' });
});

test('a deleted user loses their sessions; an unknown session id and a wrong CSRF token are refused', async () => {
  await users.create('gone', 'sales', 'editor', 'gone-password');
  const user = (await users.verify('gone', 'gone-password'))!;
  const started = await sessions.start({ userId: user.id }, '127.0.0.1');
  const principal = await sessions.authenticate(started.sessionId, { stateChanging: true, csrfToken: started.csrfToken });
  assert.deepEqual([principal.space, principal.role, principal.keyId, principal.actor], ['sales', 'editor', `user:${user.id}`, { kind: 'user', id: user.id, name: 'gone' }]);
  await assert.rejects(sessions.authenticate(started.sessionId, { stateChanging: true, csrfToken: `${started.csrfToken}x` }), { code: 'csrf' });
  await assert.rejects(sessions.authenticate(started.sessionId, { stateChanging: true }), { code: 'csrf' });
  await users.remove('gone');
  await assert.rejects(sessions.authenticate(started.sessionId, { stateChanging: false }), { code: 'unauthenticated', message: 'Your session has ended; sign in again' });
  await assert.rejects(sessions.authenticate('no-such-session', { stateChanging: false }), { code: 'unauthenticated' });
});
