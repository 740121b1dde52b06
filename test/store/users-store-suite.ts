// Users, memberships and sessions on both stores: usernames unique case-insensitively, an identity-provider
// user unique by issuer and subject, memberships per space, a user's deletion taking their memberships and
// sessions, a space's deletion its memberships, and expired sessions swept by idle and absolute end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import { ConflictError } from '../../src/store/ports.ts';
import type { SessionRecord, UserRecord } from '../../src/store/ports.ts';
import { backendOf, postgresSkip } from './backends.ts';
import type { Backend } from './backends.ts';

const AT = '2026-11-27T09:00:00.000Z';

function user(id: string, username: string, extra: Partial<UserRecord> = {}): UserRecord {
  return { id, username, displayName: username, passwordHash: 'scrypt$1$1$1$a$b', source: 'local', issuer: null, subject: null, createdAt: AT, ...extra };
}

function session(idHash: string, owner: { userId?: string; keyId?: string }, lastSeenAt: string, expiresAt: string): SessionRecord {
  return { idHash, userId: owner.userId ?? null, keyId: owner.keyId ?? null, csrfToken: `csrf-${idHash}`, createdAt: AT, lastSeenAt, expiresAt };
}

export function usersStoreSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`users and sessions store on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    let backend: Backend;
    let store: KyselyStore;

    before(async () => {
      if (skip) return;
      backend = await backendOf(kind);
      store = await openStore(backend.url);
      await store.spaces.create('s1', [{ id: 'k1', space: 's1', type: 'management', hash: 'h'.repeat(64), createdAt: AT, revokedAt: null }]);
      await store.spaces.create('s2', []);
    });
    after(async () => {
      if (skip) return;
      await store.close();
      await backend.cleanup();
    });

    test('a user is found by id, by username in any case, and listed per space with the role', { skip }, async () => {
      await store.users.insert(user('u1', 'Alice'), [{ userId: 'u1', space: 's1', role: 'admin' }]);
      await store.users.insert(user('u2', 'bob'), [{ userId: 'u2', space: 's1', role: 'viewer' }, { userId: 'u2', space: 's2', role: 'editor' }]);
      assert.equal((await store.users.get('u1'))?.username, 'Alice');
      assert.equal((await store.users.findByUsername('aLiCe'))?.id, 'u1');
      assert.deepEqual((await store.users.list()).map((u) => u.username), ['Alice', 'bob']);
      assert.deepEqual((await store.users.list('s2')).map((u) => u.username), ['bob']);
      assert.deepEqual((await store.users.members('s1')).map((m) => [m.user.username, m.role]), [['Alice', 'admin'], ['bob', 'viewer']]);
      assert.deepEqual(await store.users.memberships('u2'), [{ userId: 'u2', space: 's1', role: 'viewer' }, { userId: 'u2', space: 's2', role: 'editor' }]);
    });

    test('a username taken in another case, or an issuer and subject taken, is a conflict and writes nothing', { skip }, async () => {
      await assert.rejects(store.users.insert(user('u3', 'ALICE'), [{ userId: 'u3', space: 's2', role: 'viewer' }]), ConflictError);
      await store.users.insert(user('u4', 'carol', { source: 'oidc', issuer: 'https://idp', subject: 'sub-1', passwordHash: null }));
      await assert.rejects(store.users.insert(user('u5', 'carol2', { source: 'oidc', issuer: 'https://idp', subject: 'sub-1', passwordHash: null })), ConflictError);
      assert.equal(await store.users.get('u3'), undefined);
      assert.equal((await store.users.findBySubject('https://idp', 'sub-1'))?.id, 'u4');
      assert.deepEqual(await store.users.memberships('u3'), []);
    });

    test('memberships are set, replaced and deleted', { skip }, async () => {
      await store.users.setMembership({ userId: 'u4', space: 's1', role: 'viewer' });
      await store.users.setMembership({ userId: 'u4', space: 's1', role: 'publisher' });
      assert.deepEqual(await store.users.memberships('u4'), [{ userId: 'u4', space: 's1', role: 'publisher' }]);
      assert.equal(await store.users.deleteMembership('u4', 's1'), true);
      assert.equal(await store.users.deleteMembership('u4', 's1'), false);
      await store.users.setPassword('u1', 'scrypt$2$2$2$c$d');
      assert.equal((await store.users.get('u1'))?.passwordHash, 'scrypt$2$2$2$c$d');
    });

    test('sessions are stored by id hash, touched, deleted, and swept when idle or past their end', { skip }, async () => {
      await store.sessions.insert(session('live', { userId: 'u1' }, '2026-11-27T09:30:00.000Z', '2026-11-27T21:00:00.000Z'));
      await store.sessions.insert(session('idle', { userId: 'u1' }, '2026-11-27T08:00:00.000Z', '2026-11-27T21:00:00.000Z'));
      await store.sessions.insert(session('over', { keyId: 'k1' }, '2026-11-27T09:59:00.000Z', '2026-11-27T09:59:30.000Z'));
      await store.sessions.touch('live', '2026-11-27T09:45:00.000Z');
      assert.equal((await store.sessions.get('live'))?.lastSeenAt, '2026-11-27T09:45:00.000Z');
      assert.equal((await store.sessions.get('over'))?.keyId, 'k1');
      assert.equal(await store.sessions.deleteExpired('2026-11-27T10:00:00.000Z', '2026-11-27T09:00:00.000Z'), 2);
      assert.deepEqual([await store.sessions.get('idle'), await store.sessions.get('over')], [undefined, undefined]);
      await store.sessions.insert(session('second', { userId: 'u1' }, '2026-11-27T09:50:00.000Z', '2026-11-27T21:00:00.000Z'));
      await store.sessions.insert(session('third', { userId: 'u1' }, '2026-11-27T09:50:00.000Z', '2026-11-27T21:00:00.000Z'));
      assert.equal(await store.sessions.deleteForUser('u1', 'live'), 2, "every session of the user but the one kept");
      assert.equal((await store.sessions.get('live'))?.userId, 'u1');
      assert.equal(await store.sessions.delete('live'), true);
      assert.equal(await store.sessions.delete('live'), false);
    });

    test("deleting a user takes their memberships and sessions; deleting a space takes its members' memberships", { skip }, async () => {
      await store.sessions.insert(session('bob-1', { userId: 'u2' }, AT, '2026-11-28T00:00:00.000Z'));
      assert.equal(await store.users.delete('u2'), true);
      assert.equal(await store.users.delete('u2'), false);
      assert.equal(await store.sessions.get('bob-1'), undefined);
      assert.deepEqual(await store.users.members('s2'), []);
      await store.users.setMembership({ userId: 'u1', space: 's2', role: 'viewer' });
      await sql`DELETE FROM spaces WHERE name = 's2'`.execute(store.db);
      assert.deepEqual(await store.users.memberships('u1'), [{ userId: 'u1', space: 's1', role: 'admin' }]);
    });
  });
}
