// Spaces own rules, keys, audits and Kafka topics. Creating one issues its first solver and management keys.
import type { LiveEdits, SpaceRecord, SpaceSettings, Store } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import { ServiceError, spaceNotFound } from './errors.ts';
import { generateKey, keyNameOf } from './keys.ts';
import { requireSpace } from './require-space.ts';

export interface CreatedSpace {
  space: string;
  solverKey: string;
  solverKeyId: string;
  managementKey: string;
  managementKeyId: string;
}

export const SPACE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;


export class SpaceService {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  list(): Promise<SpaceRecord[]> {
    return this.#store.spaces.list();
  }

  async exists(name: string): Promise<boolean> {
    return (await this.#store.spaces.get(name)) !== undefined;
  }

  /** Throws ServiceError space-not-found unless the space exists. */
  require(name: string): Promise<void> {
    return requireSpace(this.#store, name);
  }

  /** The space's own settings (docs/decisions/live-edits.md). Throws space-not-found. */
  async settings(name: string): Promise<SpaceSettings> {
    const settings = await this.#store.spaces.settings(name);
    if (settings === undefined) throw spaceNotFound(name);
    return settings;
  }

  /** Requires (or not) an approval by another user than a version's last editor before it is published. */
  async setApprovals(name: string, required: boolean): Promise<SpaceSettings> {
    if (!(await this.#store.spaces.setApprovals(name, required))) throw spaceNotFound(name);
    return this.settings(name);
  }

  /** Allows or forbids replacing a published version's content in place, for every rule of the space. */
  async setLiveEdits(name: string, value: LiveEdits): Promise<SpaceSettings> {
    if (!(await this.#store.spaces.setLiveEdits(name, value))) throw spaceNotFound(name);
    return this.settings(name);
  }

  /**
   * Creates the space and its first keys atomically. Throws ServiceError space-exists when the name is taken.
   * `keyName` names both first keys (rule history shows the management key's name as who wrote).
   */
  async create(name: string, options: { keyName?: string } = {}): Promise<CreatedSpace> {
    const keyName = keyNameOf(options.keyName);
    if (!SPACE_NAME.test(name)) {
      throw new ServiceError('invalid-space-name', `space name "${name}" is invalid: use 1-100 letters, digits, "_", "-" or ".", starting with a letter or digit`);
    }
    const now = isoAt(this.#clock);
    const solver = generateKey(name, 'solver', now, keyName);
    const management = generateKey(name, 'management', now, keyName);
    const created = await this.#store.spaces.create(name, [solver.record, management.record]);
    if (!created) throw new ServiceError('space-exists', `space "${name}" already exists`);
    return { space: name, solverKey: solver.key, solverKeyId: solver.id, managementKey: management.key, managementKeyId: management.id };
  }

  /** First start: on a store with no space at all, creates `default`. Undefined when any space exists. */
  async createDefaultIfEmpty(): Promise<CreatedSpace | undefined> {
    if ((await this.#store.spaces.list()).length > 0) return undefined;
    try {
      return await this.create('default');
    } catch (err) {
      // Another instance starting at the same moment won the race: it prints the keys.
      if (err instanceof ServiceError && err.code === 'space-exists') return undefined;
      throw err;
    }
  }
}
