// The space's event log (GET /api/space/events, permission audit:read): the activity log with each entry's event
// type, newest first, filtered by actor, rule, event type and time, paged by cursor.
import type { ApiClient } from '../api/client.ts';
import type { StoredActivity } from '../../../src/store/ports.ts';
import { EVENT_TYPE_NAMES } from '../../../src/store/ports.ts';

/** The types the filter offers, as the server names them. */
export { EVENT_TYPE_NAMES };

/** The wire shape: the store's activity entry with its event type. */
export interface ActivityItem extends StoredActivity {
  type: string;
}

export interface ActivityPage {
  items: ActivityItem[];
  nextCursor: string | null;
}

export interface ActivityFilter {
  actor?: string;
  rule?: string;
  /** One event type, e.g. rule.published. */
  type?: string;
  /** ISO-8601 instants. */
  from?: string;
  to?: string;
}

export const ACTIVITY_PAGE_SIZE = 50;

export function activityQuery(filter: ActivityFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'rule', 'type', 'from', 'to'] as const) {
    const value = filter[key]?.trim();
    if (value) params.set(key, value);
  }
  if (cursor) params.set('cursor', cursor);
  params.set('limit', String(ACTIVITY_PAGE_SIZE));
  return params.toString();
}

export const activityApi = {
  page: (api: ApiClient, filter: ActivityFilter, cursor?: string) =>
    api.call<ActivityPage>('GET', `/api/space/events?${activityQuery(filter, cursor)}`),
};
