// The space's activity log as the use cases see it (docs/decisions/activity-log.md): actions that are not rule
// writes record here (rule writes record in their own transaction through recordHistory), and the log is read
// newest first with filters and a cursor. Read with event types, it is the event log (docs/decisions/event-log.md):
// each action has one type (EVENT_TYPES), and webhooks subscribe to types.
import type { ActivityEntry, ActivityFilter, ActivityPage, Store, StoredActivity } from '../store/ports.ts';
import { actionsOfType, EVENT_TYPE_NAMES, eventTypeOf } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import { ServiceError } from './errors.ts';
import type { Actor } from './keys.ts';

export type { ActivityFilter, ActivityPage };

/** One event of the event log: an activity entry with its type. */
export interface SpaceEvent extends StoredActivity {
  type: string;
}

export interface EventFilter extends Omit<ActivityFilter, 'action' | 'actions'> {
  /** Event types (any of them); absent: every type. */
  types?: readonly string[];
}

export class ActivityLog {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Records one action of `actor` in `space`, now, with the deliveries of the webhooks subscribed to its type. */
  async record(space: string, actor: Actor, action: string, details: Pick<ActivityEntry, 'rule' | 'detail'> = {}): Promise<void> {
    await this.#store.activity.append(space, [{ at: isoAt(this.#clock), actor, action, ...details }]);
  }

  /** Newest first; an unknown cursor is the store's InvalidCursorError. */
  list(space: string, filter: ActivityFilter): Promise<ActivityPage> {
    return this.#store.activity.list(space, filter);
  }

  /** The event log: newest first, filtered by event types; an unknown type is refused naming the known ones. */
  async events(space: string, filter: EventFilter): Promise<{ items: SpaceEvent[]; nextCursor: string | null }> {
    const { types, ...rest } = filter;
    let actions: string[] | undefined;
    if (types !== undefined) {
      const unknown = types.find((t) => !EVENT_TYPE_NAMES.includes(t));
      if (unknown !== undefined) throw new ServiceError('invalid-event-type', `Query parameter type: "${unknown}" is no event type (${EVENT_TYPE_NAMES.join(', ')})`);
      actions = types.flatMap(actionsOfType);
    }
    const page = await this.#store.activity.list(space, { ...rest, actions });
    return { items: page.items.map((e) => ({ ...e, type: eventTypeOf(e.action) })), nextCursor: page.nextCursor };
  }
}
