// API keys: random, shown once, stored as SHA-256 hashes, compared in constant time, revocable.
// See docs/decisions/service-api-keys.md for the format.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ChangeEvent, KeyRecord, KeyType, Store } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import { MESSAGES, ServiceError } from './errors.ts';

const PREFIX: Record<KeyType, string> = { solver: 'vsk_', management: 'vmk_' };

export interface NewKey {
  /** Public id, for listing and revoking. */
  id: string;
  space: string;
  type: KeyType;
  /** The secret; shown once, never stored. */
  key: string;
  record: KeyRecord;
}

export interface Principal {
  keyId: string;
  space: string;
  type: KeyType;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateKey(space: string, type: KeyType, createdAt: string): NewKey {
  const id = `key_${randomBytes(9).toString('base64url')}`;
  const key = `${PREFIX[type]}${randomBytes(32).toString('base64url')}`;
  return { id, space, type, key, record: { id, space, type, hash: hashKey(key), createdAt, revokedAt: null } };
}

/** Reads `Authorization: Bearer <key>`; undefined when missing or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

const CACHE_LIMIT = 10_000;

export class KeyService {
  readonly #store: Store;
  readonly #clock: Clock;
  /** Known-good keys by hash. Emptied on any key change (revocations are rare and must apply at once). */
  readonly #cache = new Map<string, KeyRecord>();
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

  async create(space: string, type: KeyType): Promise<NewKey> {
    if ((await this.#store.spaces.get(space)) === undefined) throw new Error(`space "${space}" does not exist`);
    const key = generateKey(space, type, isoAt(this.#clock));
    await this.#store.keys.insert(key.record);
    return key;
  }

  async revoke(id: string): Promise<boolean> {
    return this.#store.keys.revoke(id, isoAt(this.#clock));
  }

  /**
   * Checks an Authorization header for a key of `type`. Throws ServiceError 'unauthenticated' (no bearer token)
   * or 'invalid-key' (unknown, revoked, or of the other type).
   */
  async authenticate(authorization: string | undefined, type: KeyType): Promise<Principal> {
    const token = bearerToken(authorization);
    if (token === undefined) throw new ServiceError('unauthenticated', MESSAGES.tokenMissing);
    return this.authenticateKey(token, type);
  }

  async authenticateKey(token: string, type: KeyType): Promise<Principal> {
    const hash = hashKey(token);
    let record = this.#cache.get(hash);
    if (record === undefined) {
      const generation = this.#generation;
      record = await this.#store.keys.findByHash(hash);
      if (record !== undefined && record.revokedAt === null && generation === this.#generation && this.#store.changes.live) {
        if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
        this.#cache.set(hash, record);
      }
    }
    const matches = record !== undefined && timingSafeEqual(Buffer.from(record.hash, 'hex'), Buffer.from(hash, 'hex'));
    if (!matches || record === undefined || record.revokedAt !== null || record.type !== type) {
      throw new ServiceError('invalid-key', MESSAGES.invalidKey);
    }
    return { keyId: record.id, space: record.space, type: record.type };
  }
}
