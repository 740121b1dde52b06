// Users, their memberships and browser sessions over Kysely (SQLite and PostgreSQL). Usernames are unique by their
// folded form (`username_key`), so "Alice", "alice" and the full-width "ａｌｉｃｅ" are one user on both stores.
import type { Kysely } from 'kysely';
import type { MembershipRecord, SessionRecord, SessionStore, UserRecord, UserSource, UserStore } from './ports.ts';
import { ConflictError, usernameKey } from './ports.ts';
import type { Database, SessionsTable, UsersTable } from './schema.ts';

type Db = Kysely<Database>;



function toUser(row: UsersTable): UserRecord {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    source: row.source as UserSource,
    issuer: row.issuer,
    subject: row.subject,
    createdAt: row.created_at,
  };
}

function userRow(user: UserRecord): UsersTable {
  return {
    id: user.id,
    username: user.username,
    username_key: usernameKey(user.username),
    display_name: user.displayName,
    password_hash: user.passwordHash,
    source: user.source,
    issuer: user.issuer,
    subject: user.subject,
    created_at: user.createdAt,
  };
}

function toSession(row: SessionsTable): SessionRecord {
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    keyId: row.key_id,
    csrfToken: row.csrf_token,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

export function userStore(db: Db): UserStore {
  const findBy = async (column: 'id' | 'username_key', value: string) => {
    const row = await db.selectFrom('users').selectAll().where(column, '=', value).executeTakeFirst();
    return row === undefined ? undefined : toUser(row);
  };
  return {
    insert: async (user, memberships = []) => {
      await db.transaction().execute(async (trx) => {
        const taken = await trx
          .selectFrom('users')
          .select('id')
          .where((eb) => {
            const sameName = eb('username_key', '=', usernameKey(user.username));
            return user.issuer !== null && user.subject !== null
              ? eb.or([sameName, eb.and([eb('issuer', '=', user.issuer), eb('subject', '=', user.subject)])])
              : sameName;
          })
          .executeTakeFirst();
        if (taken !== undefined) throw new ConflictError(`user "${user.username}" already exists`);
        await trx.insertInto('users').values(userRow(user)).execute();
        for (const m of memberships) await trx.insertInto('memberships').values({ user_id: m.userId, space: m.space, role: m.role }).execute();
      });
    },
    get: (id) => findBy('id', id),
    findByUsername: (username) => findBy('username_key', usernameKey(username)),
    findBySubject: async (issuer, subject) => {
      const row = await db.selectFrom('users').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
      return row === undefined ? undefined : toUser(row);
    },
    list: async (space) => {
      let query = db.selectFrom('users').selectAll('users');
      if (space !== undefined) query = query.innerJoin('memberships', 'memberships.user_id', 'users.id').where('memberships.space', '=', space);
      const rows = await query.orderBy('users.username_key').execute();
      return rows.map(toUser);
    },
    setPassword: async (id, passwordHash) => {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    },
    delete: async (id) => {
      // Explicit rather than relying on ON DELETE CASCADE alone: SQLite enforces it only with foreign_keys on.
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
        await trx.deleteFrom('memberships').where('user_id', '=', id).execute();
        const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
    memberships: async (userId) => {
      const rows = await db.selectFrom('memberships').selectAll().where('user_id', '=', userId).orderBy('space').execute();
      return rows.map((r): MembershipRecord => ({ userId: r.user_id, space: r.space, role: r.role }));
    },
    members: async (space) => {
      const rows = await db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .selectAll('users')
        .select('memberships.role')
        .where('memberships.space', '=', space)
        .orderBy('users.username_key')
        .execute();
      return rows.map((row) => ({ user: toUser(row), role: row.role }));
    },
    setMembership: async (m) => {
      await db
        .insertInto('memberships')
        .values({ user_id: m.userId, space: m.space, role: m.role })
        .onConflict((oc) => oc.columns(['user_id', 'space']).doUpdateSet({ role: m.role }))
        .execute();
    },
    deleteMembership: async (userId, space) => {
      const result = await db.deleteFrom('memberships').where('user_id', '=', userId).where('space', '=', space).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export function sessionStore(db: Db): SessionStore {
  return {
    insert: async (session) => {
      await db
        .insertInto('sessions')
        .values({
          id_hash: session.idHash,
          user_id: session.userId,
          key_id: session.keyId,
          csrf_token: session.csrfToken,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          expires_at: session.expiresAt,
        })
        .execute();
    },
    get: async (idHash) => {
      const row = await db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
      return row === undefined ? undefined : toSession(row);
    },
    touch: async (idHash, lastSeenAt) => {
      await db.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('id_hash', '=', idHash).execute();
    },
    delete: async (idHash) => {
      const result = await db.deleteFrom('sessions').where('id_hash', '=', idHash).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    deleteForUser: async (userId, exceptIdHash) => {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptIdHash !== undefined) query = query.where('id_hash', '!=', exceptIdHash);
      return Number((await query.executeTakeFirst()).numDeletedRows);
    },
    deleteExpired: async (now, idleBefore) => {
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
