// Browser sessions (docs/decisions/users-and-sessions.md): a random id that only the cookie holds (the store keeps
// its SHA-256), a CSRF token per session, an idle end (SESSION_IDLE_MINUTES after the last request) and an
// absolute end (SESSION_MAX_HOURS after sign-in). Every sign-in makes a new id, so an id planted before sign-in
// (session fixation) never becomes a signed-in session. A session belongs to a user, or to a management key signed
// in to the Studio (which then never keeps the key).
import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionRecord, Store } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { ServiceError } from './errors.ts';
import { keyPrincipal } from './keys.ts';
import type { Actor, Principal } from './keys.ts';
import { ROLE_PERMISSIONS } from './roles.ts';
import type { Permission, Role } from './roles.ts';
import type { PublicUser, UserService } from './users.ts';

export interface SessionConfig {
  idleMinutes: number;
  maxHours: number;
}

/** Who the session is for. */
export type SessionOwner = { userId: string } | { keyId: string };

export interface StartedSession {
  /** The cookie's value; never stored. */
  sessionId: string;
  csrfToken: string;
}

/** What `GET /api/auth/me` and the sign-in routes answer. */
export interface Me {
  user: PublicUser | null;
  actor: Actor;
  spaces: Array<{ space: string; role: Role; permissions: Permission[] }>;
  csrfToken: string;
}

/** What a request presents besides the session id. */
export interface SessionRequest {
  /** `X-Verdict-Space`: the space to act in; absent: the user's only space, or the first by name. */
  space?: string;
  /** POST, PUT, PATCH, DELETE: the X-CSRF-Token header must match the session's token. */
  stateChanging: boolean;
  csrfToken?: string;
}

export const SESSION_ENDED = 'Your session has ended; sign in again';
export const CSRF_REFUSED = 'Missing or wrong X-CSRF-Token header';

/** The last-seen time is written at most this often: a busy Studio does not write on every request. */
const TOUCH_EVERY_MS = 60_000;

function hashId(sessionId: string): string {
  return digest('sha256', sessionId, 'hex');
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function permissionsOf(role: Role): Permission[] {
  return [...ROLE_PERMISSIONS[role]];
}

export class SessionService {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #users: UserService;
  readonly #config: SessionConfig;

  constructor(store: Store, clock: Clock, users: UserService, config: SessionConfig) {
    this.#store = store;
    this.#clock = clock;
    this.#users = users;
    this.#config = config;
  }

  get idleMs(): number {
    return this.#config.idleMinutes * 60_000;
  }

  get maxMs(): number {
    return this.#config.maxHours * 3_600_000;
  }

  /**
   * Starts a session for a user (password or single sign-on) or a management key; a fresh id and CSRF token every
   * time. `address` is the client's, for the caller's log line; it is not stored.
   */
  async start(owner: SessionOwner, _address?: string): Promise<StartedSession> {
    const now = this.#clock();
    const sessionId = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const at = new Date(now).toISOString();
    await this.#store.sessions.insert({
      idHash: hashId(sessionId),
      userId: 'userId' in owner ? owner.userId : null,
      keyId: 'keyId' in owner ? owner.keyId : null,
      csrfToken,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(now + this.maxMs).toISOString(),
    });
    return { sessionId, csrfToken };
  }

  /** Ends the session without checks (a sign-in replacing it). False when it had already ended. */
  end(sessionId: string): Promise<boolean> {
    return this.#store.sessions.delete(hashId(sessionId));
  }

  /** Sign-out: the session must be live and the CSRF token its own (a cross-site page cannot sign anyone out). */
  async signOut(sessionId: string | undefined, csrfToken: string | undefined): Promise<void> {
    const session = await this.#live(sessionId);
    if (csrfToken === undefined || !sameToken(csrfToken, session.csrfToken)) throw new ServiceError('csrf', CSRF_REFUSED);
    await this.#store.sessions.delete(session.idHash);
  }

  /**
   * The signed-in user changes their password: the session live, its CSRF token, the current password right
   * (wrong-credentials otherwise). The user's other sessions end; this one goes on.
   */
  async changePassword(sessionId: string | undefined, csrfToken: string | undefined, current: string, next: string): Promise<void> {
    const session = await this.#live(sessionId);
    if (csrfToken === undefined || !sameToken(csrfToken, session.csrfToken)) throw new ServiceError('csrf', CSRF_REFUSED);
    if (session.userId === null) throw new ServiceError('invalid-password', 'A management key signed in: it has no password to change');
    if (!(await this.#users.changePassword(session.userId, current, next))) throw new ServiceError('wrong-credentials', 'The current password is wrong');
    await this.#store.sessions.deleteForUser(session.userId, session.idHash);
  }

  /** The live session of this id, its last-seen time moved on; throws unauthenticated when absent or expired. */
  async #live(sessionId: string | undefined): Promise<SessionRecord> {
    if (sessionId === undefined || sessionId === '') throw new ServiceError('unauthenticated', SESSION_ENDED);
    const idHash = hashId(sessionId);
    const session = await this.#store.sessions.get(idHash);
    if (session === undefined) throw new ServiceError('unauthenticated', SESSION_ENDED);
    const now = this.#clock();
    const lastSeen = Date.parse(session.lastSeenAt);
    if (now >= Date.parse(session.expiresAt) || now - lastSeen >= this.idleMs) {
      await this.#store.sessions.delete(idHash);
      throw new ServiceError('unauthenticated', SESSION_ENDED);
    }
    if (now - lastSeen >= Math.min(TOUCH_EVERY_MS, this.idleMs / 2)) await this.#store.sessions.touch(idHash, new Date(now).toISOString());
    return session;
  }

  /**
   * The principal of a request made with a session cookie: the session live, the CSRF token right on a
   * state-changing request (403 csrf), the space one the owner belongs to (403 forbidden).
   */
  async authenticate(sessionId: string | undefined, request: SessionRequest): Promise<Principal> {
    const session = await this.#live(sessionId);
    if (request.stateChanging && (request.csrfToken === undefined || !sameToken(request.csrfToken, session.csrfToken))) {
      throw new ServiceError('csrf', CSRF_REFUSED);
    }
    if (session.keyId !== null) return this.#keyPrincipal(session.keyId, request.space);
    return this.#userPrincipal(session.userId!, request.space);
  }

  async #keyPrincipal(keyId: string, space: string | undefined): Promise<Principal> {
    const key = await this.#store.keys.get(keyId);
    // A revoked key ends the sessions it signed in.
    if (key === undefined || key.revokedAt !== null || key.type !== 'management') throw new ServiceError('unauthenticated', SESSION_ENDED);
    if (space !== undefined && space !== key.space) {
      throw new ServiceError('forbidden', `This session's management key belongs to space "${key.space}", not "${space}"`);
    }
    return keyPrincipal(key);
  }

  async #userPrincipal(userId: string, space: string | undefined): Promise<Principal> {
    const user = await this.#users.get(userId);
    if (user === undefined) throw new ServiceError('unauthenticated', SESSION_ENDED);
    const memberships = await this.#users.memberships(userId);
    const chosen = space === undefined ? memberships[0] : memberships.find((m) => m.space === space);
    if (chosen === undefined) {
      throw new ServiceError('forbidden', space === undefined
        ? `User "${user.username}" is not a member of any space; ask a space admin to add them`
        : `User "${user.username}" is not a member of space "${space}"`);
    }
    return {
      keyId: `user:${user.id}`,
      space: chosen.space,
      type: 'management',
      keyName: user.username,
      role: chosen.role,
      actor: { kind: 'user', id: user.id, name: user.username },
    };
  }

  /** `GET /api/auth/me`: who the session is, their spaces with roles and permissions, and its CSRF token. */
  async me(sessionId: string | undefined): Promise<Me> {
    const session = await this.#live(sessionId);
    return this.describe(session.userId !== null ? { userId: session.userId } : { keyId: session.keyId! }, session.csrfToken);
  }

  /** The Me of an owner (the sign-in routes answer it for the session they just started). */
  async describe(owner: SessionOwner, csrfToken: string): Promise<Me> {
    if ('keyId' in owner) {
      const principal = await this.#keyPrincipal(owner.keyId, undefined);
      return { user: null, actor: principal.actor, spaces: [{ space: principal.space, role: 'admin', permissions: permissionsOf('admin') }], csrfToken };
    }
    const user = await this.#users.get(owner.userId);
    if (user === undefined) throw new ServiceError('unauthenticated', SESSION_ENDED);
    const spaces = (await this.#users.memberships(user.id)).map((m) => ({ space: m.space, role: m.role, permissions: permissionsOf(m.role) }));
    return { user, actor: { kind: 'user', id: user.id, name: user.username }, spaces, csrfToken };
  }

  /** Deletes sessions past their idle or absolute end (run now and then; expired ones are refused regardless). */
  sweep(): Promise<number> {
    const now = this.#clock();
    return this.#store.sessions.deleteExpired(new Date(now).toISOString(), new Date(now - this.idleMs).toISOString());
  }
}
