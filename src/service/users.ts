// Users and their roles per space (docs/decisions/users-and-sessions.md). Local users sign in with a password
// (hashed by passwords.ts); users of an identity provider are created or updated by upsertExternal. What leaves
// this service is a PublicUser: the password hash never does.
import { randomBytes } from 'node:crypto';
import type { MembershipRecord, Store, UserRecord, UserSource } from '../store/ports.ts';
import { ConflictError } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import { ServiceError } from './errors.ts';
import { isMemberRole as isRole, MEMBER_ROLES as ROLES } from './roles.ts';
import type { MemberRole as Role } from './roles.ts';
import { decoyHash, generatePassword, hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { requireSpace } from './require-space.ts';

/** A user as every answer shows it. */
export interface PublicUser {
  id: string;
  username: string;
  displayName: string;
  source: UserSource;
}

export interface Member {
  user: PublicUser;
  role: Role;
}

export interface AddedMember extends Member {
  /** Set when the user was created here without a chosen password: shown once, never stored in clear. */
  oneTimePassword?: string;
}

/** What an identity provider says about a person at sign-in (helper idp). */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
  /** Preferred username; made unique with a suffix when a different user holds it. */
  username: string;
  displayName?: string;
  /** The user's roles, from the provider's claims; they replace the memberships the user had. */
  roles: Array<{ space: string; role: Role }>;
}

/** Letters, digits and `._@+-`, starting with a letter or digit, at most 100: fits an e-mail address. */
export const USERNAME = /^[\p{L}\p{N}][\p{L}\p{N}._@+-]{0,99}$/u;
export const USERNAME_RULE = 'a username is 1-100 letters, digits or "._@+-", starting with a letter or digit';

export const FIRST_ADMIN = 'admin';

export function publicUser(user: UserRecord): PublicUser {
  return { id: user.id, username: user.username, displayName: user.displayName, source: user.source };
}

function checkedUsername(username: string): string {
  const trimmed = username.trim();
  if (!USERNAME.test(trimmed)) throw new ServiceError('invalid-username', `username ${JSON.stringify(username)} is invalid: ${USERNAME_RULE}`);
  return trimmed;
}

function checkedRole(role: unknown): Role {
  if (!isRole(role)) throw new ServiceError('invalid-role', `role ${JSON.stringify(role)} is not one of ${ROLES.join(', ')}`);
  return role;
}

function checkedPassword(password: string): string {
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new ServiceError('invalid-password', problem);
  return password;
}

function userNotFound(username: string, space?: string): ServiceError {
  return new ServiceError('user-not-found', space === undefined ? `No user "${username}"` : `No user "${username}" in space "${space}"`);
}

export class UserService {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  #record(username: string, source: UserSource, passwordHash: string | null, extra: Partial<UserRecord> = {}): UserRecord {
    return {
      id: `usr_${randomBytes(9).toString('base64url')}`,
      username,
      displayName: username,
      passwordHash,
      source,
      issuer: null,
      subject: null,
      createdAt: isoAt(this.#clock),
      ...extra,
    };
  }

  async #insert(user: UserRecord, memberships: MembershipRecord[]): Promise<void> {
    try {
      await this.#store.users.insert(user, memberships);
    } catch (err) {
      if (err instanceof ConflictError) throw new ServiceError('user-exists', `User "${user.username}" already exists`);
      throw err;
    }
  }

  /**
   * Creates a local user, member of `space` with `role`. Without `password` one is generated and answered once as
   * `oneTimePassword`. Throws user-exists, invalid-username, invalid-role, invalid-password, space-not-found.
   */
  async create(username: string, space: string, role: Role | string, password?: string): Promise<AddedMember> {
    const name = checkedUsername(username);
    const checked = checkedRole(role);
    const chosen = password === undefined ? undefined : checkedPassword(password);
    await requireSpace(this.#store, space);
    const secret = chosen ?? generatePassword();
    const user = this.#record(name, 'local', await hashPassword(secret));
    await this.#insert(user, [{ userId: user.id, space, role: checked }]);
    return { user: publicUser(user), role: checked, ...(chosen === undefined ? { oneTimePassword: secret } : {}) };
  }

  /**
   * Members API: makes `username` a member of `space`, creating the user when absent. A password for a user that
   * exists is refused rather than ignored (it would not be set). Throws member-exists when already a member.
   */
  async addMember(space: string, username: string, role: Role | string, password?: string): Promise<AddedMember> {
    const checked = checkedRole(role);
    const existing = await this.#store.users.findByUsername(checkedUsername(username));
    if (existing === undefined) return this.create(username, space, checked, password);
    if (password !== undefined) {
      throw new ServiceError('user-exists', `User "${existing.username}" already exists; add them without a password (theirs stays as it is)`);
    }
    await requireSpace(this.#store, space);
    if ((await this.#store.users.memberships(existing.id)).some((m) => m.space === space)) {
      throw new ServiceError('member-exists', `User "${existing.username}" is already a member of space "${space}"; change the role with PUT`);
    }
    await this.#store.users.setMembership({ userId: existing.id, space, role: checked });
    return { user: publicUser(existing), role: checked };
  }

  /** The members of a space with their roles, by username. */
  async members(space: string): Promise<Member[]> {
    await requireSpace(this.#store, space);
    return (await this.#store.users.members(space)).map(({ user, role }) => ({ user: publicUser(user), role: role as Role }));
  }

  /** Every user with their memberships (the CLI's list); with `space`, only its members. */
  async list(space?: string): Promise<Array<PublicUser & { spaces: Array<{ space: string; role: Role }> }>> {
    if (space !== undefined) await requireSpace(this.#store, space);
    const users = await this.#store.users.list(space);
    return Promise.all(users.map(async (user) => ({
      ...publicUser(user),
      spaces: (await this.#store.users.memberships(user.id)).map((m) => ({ space: m.space, role: m.role as Role })),
    })));
  }

  async #member(space: string, username: string): Promise<{ user: UserRecord; role: Role }> {
    const user = await this.#store.users.findByUsername(username);
    const membership = user === undefined ? undefined : (await this.#store.users.memberships(user.id)).find((m) => m.space === space);
    if (user === undefined || membership === undefined) throw userNotFound(username, space);
    return { user, role: membership.role as Role };
  }

  /** Refuses a change that would leave the space with no admin user (management keys still administer it). */
  async #keepAnAdmin(space: string, user: UserRecord, role: Role): Promise<void> {
    if (role !== 'admin') return;
    const admins = (await this.#store.users.members(space)).filter((m) => m.role === 'admin');
    if (admins.length === 1 && admins[0]!.user.id === user.id) {
      throw new ServiceError('last-admin', `User "${user.username}" is the last admin of space "${space}"; make another member admin first`);
    }
  }

  async setRole(space: string, username: string, role: Role | string): Promise<Member> {
    const checked = checkedRole(role);
    await requireSpace(this.#store, space);
    const current = await this.#member(space, username);
    if (checked !== 'admin') await this.#keepAnAdmin(space, current.user, current.role);
    await this.#store.users.setMembership({ userId: current.user.id, space, role: checked });
    return { user: publicUser(current.user), role: checked };
  }

  /** An existing user's role in the space, joining it when not a member yet (the CLI's `user role`). */
  async assignRole(space: string, username: string, role: Role | string): Promise<Member> {
    const checked = checkedRole(role);
    await requireSpace(this.#store, space);
    const user = await this.#store.users.findByUsername(username);
    if (user === undefined) throw userNotFound(username);
    if ((await this.#store.users.memberships(user.id)).some((m) => m.space === space)) return this.setRole(space, username, checked);
    await this.#store.users.setMembership({ userId: user.id, space, role: checked });
    return { user: publicUser(user), role: checked };
  }

  /** Ends the user's membership of the space; the user (and their other spaces) stays. */
  async removeMember(space: string, username: string): Promise<void> {
    await requireSpace(this.#store, space);
    const current = await this.#member(space, username);
    await this.#keepAnAdmin(space, current.user, current.role);
    await this.#store.users.deleteMembership(current.user.id, space);
  }

  /** Deletes the user, their memberships and sessions (the CLI's `user remove NAME` without a space). */
  async remove(username: string): Promise<void> {
    const user = await this.#store.users.findByUsername(username);
    if (user === undefined || !(await this.#store.users.delete(user.id))) throw userNotFound(username);
  }

  /**
   * Sets a local user's password: the one given, or a generated one answered once. Every session of the user
   * ends (an operator resets a password when it may be known to someone else). Throws user-not-found.
   */
  async resetPassword(username: string, password?: string): Promise<{ user: PublicUser; oneTimePassword?: string }> {
    const chosen = password === undefined ? undefined : checkedPassword(password);
    const user = await this.#store.users.findByUsername(username);
    if (user === undefined) throw userNotFound(username);
    if (user.source !== 'local') throw new ServiceError('invalid-password', `User "${user.username}" signs in with single sign-on and has no password here`);
    const secret = chosen ?? generatePassword();
    await this.#store.users.setPassword(user.id, await hashPassword(secret));
    await this.#store.sessions.deleteForUser(user.id);
    return { user: publicUser(user), ...(chosen === undefined ? { oneTimePassword: secret } : {}) };
  }

  /** A user's own change: the current password must be right (false otherwise, nothing changed). */
  async changePassword(userId: string, current: string, next: string): Promise<boolean> {
    checkedPassword(next);
    const user = await this.#store.users.get(userId);
    if (user?.passwordHash == null) throw new ServiceError('invalid-password', 'This user signs in with single sign-on and has no password here');
    if (!(await verifyPassword(current, user.passwordHash))) return false;
    await this.#store.users.setPassword(user.id, await hashPassword(next));
    return true;
  }

  /** The user when the password is theirs; undefined otherwise, in about the same time whether or not they exist. */
  async verify(username: string, password: string): Promise<PublicUser | undefined> {
    const user = USERNAME.test(username) ? await this.#store.users.findByUsername(username) : undefined;
    if (user?.passwordHash == null || password.length > 1024) {
      await verifyPassword(password.slice(0, 1024), await decoyHash());
      return undefined;
    }
    return (await verifyPassword(password, user.passwordHash)) ? publicUser(user) : undefined;
  }

  async get(id: string): Promise<PublicUser | undefined> {
    const user = await this.#store.users.get(id);
    return user === undefined ? undefined : publicUser(user);
  }

  /** The user's spaces and roles, by space name. */
  async memberships(userId: string): Promise<Array<{ space: string; role: Role }>> {
    return (await this.#store.users.memberships(userId)).filter((m) => isRole(m.role)).map((m) => ({ space: m.space, role: m.role as Role }));
  }

  /**
   * Single sign-on: the user of (issuer, subject), created on first sign-in; the display name and the roles are
   * the provider's, replacing what the user had (the provider is the source of truth for its users' roles).
   */
  async upsertExternal(identity: ExternalIdentity): Promise<PublicUser> {
    const roles = identity.roles.map((r) => ({ space: r.space, role: checkedRole(r.role) }));
    let user = await this.#store.users.findBySubject(identity.issuer, identity.subject);
    if (user === undefined) {
      const base = checkedUsername(identity.username);
      let name = base;
      for (let n = 2; (await this.#store.users.findByUsername(name)) !== undefined; n++) name = `${base}-${n}`;
      user = this.#record(name, 'oidc', null, { issuer: identity.issuer, subject: identity.subject, displayName: identity.displayName ?? base });
      await this.#insert(user, []);
    }
    const wanted = new Map(roles.map((r) => [r.space, r.role]));
    for (const m of await this.#store.users.memberships(user.id)) {
      if (!wanted.has(m.space)) await this.#store.users.deleteMembership(user.id, m.space);
    }
    for (const [space, role] of wanted) {
      if (await this.#store.spaces.get(space)) await this.#store.users.setMembership({ userId: user.id, space, role });
    }
    return publicUser(user);
  }

  /** First start: the user `admin`, admin of `space`, with a generated password to print once. */
  async createFirstAdmin(space: string): Promise<{ username: string; password: string } | undefined> {
    if ((await this.#store.users.findByUsername(FIRST_ADMIN)) !== undefined) return undefined;
    try {
      const created = await this.create(FIRST_ADMIN, space, 'admin');
      return { username: created.user.username, password: created.oneTimePassword! };
    } catch (err) {
      // Another instance starting at the same moment created it; that one prints the password.
      if (err instanceof ServiceError && err.code === 'user-exists') return undefined;
      throw err;
    }
  }
}
