// The space's activity log as the use cases see it (docs/decisions/activity-log.md): actions that are not rule
// writes record here (rule writes record in their own transaction through recordHistory), and the log is read
// newest first with filters and a cursor.
import type { ActivityEntry, ActivityFilter, ActivityPage, Store } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import type { Actor } from './keys.ts';

export type { ActivityFilter, ActivityPage };

export class ActivityLog {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Records one action of `actor` in `space`, now. */
  async record(space: string, actor: Actor, action: string, details: Pick<ActivityEntry, 'rule' | 'detail'> = {}): Promise<void> {
    await this.#store.activity.append(space, [{ at: isoAt(this.#clock), actor, action, ...details }]);
  }

  /** Newest first; an unknown cursor is the store's InvalidCursorError. */
  list(space: string, filter: ActivityFilter): Promise<ActivityPage> {
    return this.#store.activity.list(space, filter);
  }
}
