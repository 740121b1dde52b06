// The space's activity log (docs/decisions/activity-log.md): who did what, when, to which rule. Rule writes append
// their entries inside their own management transaction (ManagementTransaction.appendActivity), so a write and its
// entry commit together; other actions (keys, settings, members, reviews) append on their own. Listed newest first
// with the same opaque cursors as the audit listing. It is also the event log (docs/decisions/event-log.md): every
// append inserts the webhooks' deliveries of its entries in the same transaction (the outbox, webhook-store.ts).
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { decodeCursor, encodeCursor } from './page-cursor.ts';
import { eventTypeOf } from './ports.ts';
import type { ActivityActor, ActivityEntry, ActivityFilter, ActivityPage, ActivityStore, StoredActivity } from './ports.ts';
import { insertOutbox } from './webhook-store.ts';
import type { WebhookDb } from './webhook-store.ts';

export interface SpaceActivityTable {
  space: string;
  id: string;
  at: string;
  actor_kind: string;
  actor_id: string;
  actor_name: string;
  action: string;
  rule_id: string | null;
  rule_alias: string | null;
  rule_name: string | null;
  version: number | null;
  detail: string | null;
}

export interface ActivityDb {
  space_activity: SpaceActivityTable;
}

let sequence = 0;

/** Ids sort like their entries when times are equal: a per-process sequence, then random bytes across instances. */
function activityId(): string {
  sequence = (sequence + 1) % 0x1_0000_0000;
  return `${sequence.toString(16).padStart(8, '0')}-${randomBytes(6).toString('hex')}`;
}

/** The JSON body a webhook receives for an entry: the event log's item with its space. */
export function eventPayload(space: string, event: StoredActivity): string {
  return JSON.stringify({ id: event.id, type: eventTypeOf(event.action), at: event.at, space, action: event.action, actor: event.actor, rule: event.rule, detail: event.detail });
}

/**
 * Appends entries through `db`, which must be a transaction (a management transaction, or the one `append` opens),
 * with their webhook deliveries: an event and its deliveries commit together.
 */
export async function insertActivity(db: Kysely<ActivityDb>, space: string, entries: readonly ActivityEntry[]): Promise<void> {
  const rows = entries.map((e): SpaceActivityTable => ({
    space,
    id: activityId(),
    at: e.at,
    actor_kind: e.actor.kind,
    actor_id: e.actor.id,
    actor_name: e.actor.name,
    action: e.action,
    rule_id: e.rule?.ruleId ?? null,
    rule_alias: e.rule?.alias ?? null,
    rule_name: e.rule?.name ?? null,
    version: e.rule?.version ?? null,
    detail: e.detail === undefined ? null : JSON.stringify(e.detail),
  }));
  // Chunks keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 50) await db.insertInto('space_activity').values(rows.slice(i, i + 50)).execute();
  await insertOutbox(db as unknown as Kysely<WebhookDb>, space, rows.map((r) => {
    const event = toActivity(r);
    return { id: r.id, type: eventTypeOf(r.action), at: r.at, payload: eventPayload(space, event) };
  }));
}

/** The newest actor of one of `actions` on a rule version (the approvals' "last editor"). */
export async function lastActor(db: Kysely<ActivityDb>, space: string, ruleId: string, version: number, actions: readonly string[]): Promise<ActivityActor | undefined> {
  const row = await db
    .selectFrom('space_activity')
    .select(['actor_kind', 'actor_id', 'actor_name'])
    .where('space', '=', space)
    .where('rule_id', '=', ruleId)
    .where('version', '=', version)
    .where('action', 'in', [...actions])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : { kind: row.actor_kind as ActivityActor['kind'], id: row.actor_id, name: row.actor_name };
}

function toActivity(r: SpaceActivityTable): StoredActivity {
  return {
    id: r.id,
    at: r.at,
    actor: { kind: r.actor_kind as StoredActivity['actor']['kind'], id: r.actor_id, name: r.actor_name },
    action: r.action,
    rule: r.rule_id === null ? null : { ruleId: r.rule_id, alias: r.rule_alias, name: r.rule_name, version: r.version === null ? null : Number(r.version) },
    detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>),
  };
}

export function activityStore(db: Kysely<ActivityDb>): ActivityStore {
  return {
    append: (space, entries) => db.transaction().execute((trx) => insertActivity(trx, space, entries)),
    list: async (space, filter: ActivityFilter): Promise<ActivityPage> => {
      let query = db.selectFrom('space_activity').selectAll().where('space', '=', space);
      if (filter.actor !== undefined) {
        const actor = filter.actor;
        query = query.where((eb) => eb.or([eb('actor_name', '=', actor), eb('actor_id', '=', actor)]));
      }
      if (filter.rule !== undefined) {
        const rule = filter.rule;
        query = query.where((eb) => eb.or([eb('rule_id', '=', rule), eb('rule_alias', '=', rule)]));
      }
      if (filter.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter.actions !== undefined) {
        if (filter.actions.length === 0) return { items: [], nextCursor: null };
        query = query.where('action', 'in', [...filter.actions]);
      }
      if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('at', '<=', filter.to);
      if (filter.cursor !== undefined) {
        const [at, id] = decodeCursor(filter.cursor);
        query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
      }
      const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit + 1).execute();
      const items = rows.slice(0, filter.limit).map(toActivity);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > filter.limit && last ? encodeCursor(last.at, last.id) : null };
    },
  };
}
