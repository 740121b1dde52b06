// The space activity log (GET /api/space/activity, permission audit:read): who did what to which rule, newest
// first, filtered by actor, rule, action and time, paged by cursor.
import type { ApiClient } from '../api/client.ts';
import type { ActivityPage, StoredActivity } from '../../../src/store/ports.ts';

/** The wire shapes are the store's own. */
export type { ActivityPage };
export type ActivityItem = StoredActivity;

export interface ActivityFilter {
  actor?: string;
  rule?: string;
  action?: string;
  /** ISO-8601 instants. */
  from?: string;
  to?: string;
}

export const ACTIVITY_PAGE_SIZE = 50;

export function activityQuery(filter: ActivityFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'rule', 'action', 'from', 'to'] as const) {
    const value = filter[key]?.trim();
    if (value) params.set(key, value);
  }
  if (cursor) params.set('cursor', cursor);
  params.set('limit', String(ACTIVITY_PAGE_SIZE));
  return params.toString();
}

export const activityApi = {
  page: (api: ApiClient, filter: ActivityFilter, cursor?: string) =>
    api.call<ActivityPage>('GET', `/api/space/activity?${activityQuery(filter, cursor)}`),
};
