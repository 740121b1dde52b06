// API keys: random, shown once, stored as SHA-256 hashes, compared in constant time, revocable.
// See docs/decisions/service-api-keys.md for the format.
import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ChangeEvent, KeyRecord, KeyType, Store } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import { MESSAGES, ServiceError } from './errors.ts';
import { requireSpace } from './require-space.ts';
import type { Role } from './roles.ts';

const PREFIX: Record<KeyType, string> = { solver: 'vsk_', management: 'vmk_' };

export interface NewKey {
  /** Public id, for listing and revoking. */
  id: string;
  space: string;
  type: KeyType;
  /** The secret; shown once, never stored. */
  key: string;
  name: string | null;
  record: KeyRecord;
}

/** Who acts: recorded in rule history and the space's activity log. `cli`: the command line on the server. */
export interface Actor {
  kind: 'key' | 'user' | 'token' | 'cli';
  /** The key id, user id, `<issuer>|<subject>` of a token, or `cli`. */
  id: string;
  /** What people read: the key's name (or its id when unnamed), the user name, the token's client. */
  name: string;
}

/** Who calls, in which space, with which role: what every route and use case decides on. */
export interface Principal {
  /** The rate-limit bucket: the key id, `user:<id>` or `token:<issuer>|<subject>`. */
  keyId: string;
  space: string;
  /** The API family the credentials are for: a solver key only solves; everything else is `management`. */
  type: KeyType;
  /** The key's name (rule history records it as who wrote); null or absent: the key has none. */
  keyName?: string | null;
  role: Role;
  actor: Actor;
}

/** The command line acting on the server's own store (`verdict import`, `verdict rule publish`). */
export const COMMAND_LINE_ACTOR: Actor = Object.freeze({ kind: 'cli', id: 'cli', name: 'cli' });

/** The principal of a key: a management key is its space's admin; a solver key only solves. */
export function keyPrincipal(record: KeyRecord): Principal {
  return Object.freeze({
    keyId: record.id,
    space: record.space,
    type: record.type,
    keyName: record.name ?? null,
    role: record.type === 'management' ? 'admin' : 'solver',
    actor: Object.freeze({ kind: 'key', id: record.id, name: record.name ?? record.id }),
  });
}

/** A key name: 1-100 characters, no control characters (it is shown in listings and in rule history). */
export const KEY_NAME = /^[^\p{Cc}]{1,100}$/u;
export const KEY_NAME_RULE = 'a key name is 1-100 characters without control characters';

/** The trimmed name, or undefined for none; throws ServiceError invalid-key-name when it breaks KEY_NAME_RULE. */
export function keyNameOf(name: string | undefined | null): string | undefined {
  if (name === undefined || name === null) return undefined;
  const trimmed = name.trim();
  if (!KEY_NAME.test(trimmed)) throw new ServiceError('invalid-key-name', `key name ${JSON.stringify(name)} is invalid: ${KEY_NAME_RULE}`);
  return trimmed;
}

export function hashKey(key: string): string {
  // One-shot digest: the same hex SHA-256 as createHash(), without a Hash object per request.
  return digest('sha256', key, 'hex');
}

export function generateKey(space: string, type: KeyType, createdAt: string, name?: string): NewKey {
  const id = `key_${randomBytes(9).toString('base64url')}`;
  const key = `${PREFIX[type]}${randomBytes(32).toString('base64url')}`;
  return { id, space, type, key, name: name ?? null, record: { id, space, type, hash: hashKey(key), createdAt, revokedAt: null, name: name ?? null } };
}

/** Reads `Authorization: Bearer <key>`; undefined when missing or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * The key of `Authorization: Bearer <key>`, or the 401 that says what is wrong: no header (or `Bearer` with no
 * key) is "token missing"; anything else (a bare key, `Basic ...`) names the scheme to use, because a bare key is
 * the usual first mistake and "token missing" would send the user looking for a key they did send.
 */
export function requireBearerToken(header: string | undefined): string {
  const token = bearerToken(header);
  if (token !== undefined) return token;
  if (header === undefined || /^\s*(Bearer\s*)?$/i.test(header)) throw new ServiceError('unauthenticated', MESSAGES.tokenMissing);
  throw new ServiceError('unauthenticated', MESSAGES.bearerSchemeMissing);
}

const CACHE_LIMIT = 10_000;

/** A known-good key: its record and the principal handed to every request that presents it. */
interface CachedKey {
  record: KeyRecord;
  principal: Principal;
}

/** The last key verified on one client connection: keep-alive clients present the same header on every request. */
interface ConnectionKey {
  authorization: string;
  /** The key cache generation it was verified in; any key change since makes it void. */
  generation: number;
  principal: Principal;
}

export class KeyService {
  readonly #store: Store;
  readonly #clock: Clock;
  /** Known-good keys by hash. Emptied on any key change (revocations are rare and must apply at once). */
  readonly #cache = new Map<string, CachedKey>();
  readonly #byConnection = new WeakMap<object, ConnectionKey>();
  #generation = 0;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
    store.changes.subscribe((event: ChangeEvent) => {
      if (event.kind === 'key' || event.kind === 'all') {
        this.#generation++;
        this.#cache.clear();
      }
    });
  }

  /** Creates a key; `name` (see KEY_NAME_RULE) labels it in listings and in rule history. */
  async create(space: string, type: KeyType, name?: string): Promise<NewKey> {
    const label = keyNameOf(name);
    await requireSpace(this.#store, space);
    const key = generateKey(space, type, isoAt(this.#clock), label);
    await this.#store.keys.insert(key.record);
    return key;
  }

  /** The space's keys (ids, types, dates; the keys themselves are never stored). */
  list(space: string): Promise<KeyRecord[]> {
    return this.#store.keys.list(space);
  }

  async revoke(id: string): Promise<boolean> {
    return this.#store.keys.revoke(id, isoAt(this.#clock));
  }

  /**
   * Revokes a key of the caller's own space (the Studio). A key of another space is answered exactly like one that
   * does not exist; the caller's own key is refused, so a space never loses the management key it is managed with.
   */
  async revokeInSpace(caller: Principal, id: string): Promise<void> {
    const record = await this.#store.keys.get(id);
    if (record === undefined || record.space !== caller.space || record.revokedAt !== null) {
      throw new ServiceError('key-not-found', `No active API key with id "${id}" in this space`);
    }
    if (record.id === caller.keyId) {
      throw new ServiceError('own-key', 'A management key cannot revoke itself: sign in with another management key of this space to revoke this one');
    }
    if (!(await this.#store.keys.revoke(id, isoAt(this.#clock)))) throw new ServiceError('key-not-found', `No active API key with id "${id}" in this space`);
  }

  /**
   * Checks an Authorization header for a key of `type`. Throws ServiceError 'unauthenticated' (no bearer token)
   * or 'invalid-key' (unknown, revoked, or of the other type).
   */
  async authenticate(authorization: string | undefined, type: KeyType): Promise<Principal> {
    return this.authenticateKey(requireBearerToken(authorization), type);
  }

  /**
   * The synchronous half of authenticate(): the principal when the key is in the in-memory cache, undefined when
   * only the store can tell (then call authenticate()). Throws exactly what authenticate() would for a missing
   * token or a cached key of the other type.
   *
   * `connection` (the client's socket) lets a connection that presents the header it presented last time skip the
   * hash: the two headers are compared in constant time, and any key change since voids the shortcut.
   */
  authenticateCached(authorization: string | undefined, type: KeyType, connection?: object): Principal | undefined {
    if (connection !== undefined && authorization !== undefined) {
      const last = this.#byConnection.get(connection);
      if (last !== undefined && last.generation === this.#generation && last.principal.type === type && sameText(last.authorization, authorization)) {
        return last.principal;
      }
    }
    const cached = this.#cache.get(hashKey(requireBearerToken(authorization)));
    if (cached === undefined) return undefined;
    if (cached.record.type !== type) throw wrongKeyType(cached.record.type, type);
    if (connection !== undefined && this.#store.changes.live) {
      this.#byConnection.set(connection, { authorization: authorization!, generation: this.#generation, principal: cached.principal });
    }
    return cached.principal;
  }

  async authenticateKey(token: string, type: KeyType): Promise<Principal> {
    const hash = hashKey(token);
    let cached = this.#cache.get(hash);
    if (cached === undefined) {
      const generation = this.#generation;
      const record = await this.#store.keys.findByHash(hash);
      const matches = record !== undefined && timingSafeEqual(Buffer.from(record.hash, 'hex'), Buffer.from(hash, 'hex'));
      if (!matches || record === undefined || record.revokedAt !== null) throw new ServiceError('invalid-key', MESSAGES.invalidKey);
      cached = { record, principal: keyPrincipal(record) };
      if (generation === this.#generation && this.#store.changes.live) {
        if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
        this.#cache.set(hash, cached);
      }
    }
    if (cached.record.type !== type) throw wrongKeyType(cached.record.type, type);
    return cached.principal;
  }
}

/**
 * The 401 for a valid key of the other type. A solver key on a management route says what it is, so that the
 * person signing in to the Studio with it knows which key to fetch: the key's holder learns nothing the key's
 * own prefix (`vsk_`) does not already say. The solver API keeps the DecisionRules contract's one message for
 * every refused key (a management key there is "Invalid API key", as over Kafka).
 */
function wrongKeyType(presented: KeyType, needed: KeyType): ServiceError {
  if (presented === 'solver' && needed === 'management') return new ServiceError('invalid-key', MESSAGES.solverKeyOnManagement);
  return new ServiceError('invalid-key', MESSAGES.invalidKey);
}

/** Equality in a time that does not depend on where two strings of one length first differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
