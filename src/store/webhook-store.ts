// Webhooks of a space and their deliveries (docs/decisions/webhooks.md). The deliveries are an outbox: the event's
// transaction inserts one row per matching enabled webhook (insertOutbox, called by the activity log's append), and
// a dispatcher on any instance leases due rows (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite serialises writers),
// sends them and records each attempt. Leases expire, so a row whose dispatcher died is sent again by another.
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { decodeCursor, encodeCursor } from './page-cursor.ts';
import type {
  AttemptOutcome, DeliveryAttempt, DeliveryFilter, DeliveryPage, DeliveryRecord, DeliveryStatus, LeasedDelivery, WebhookRecord, WebhookStore,
} from './ports.ts';

interface WebhooksTable {
  id: string;
  space: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  secret: string;
  enabled: number;
  consecutive_failures: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

interface WebhookDeliveriesTable {
  id: string;
  space: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  next_at: string;
  lease_until: string | null;
  created_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  redelivery_of: string | null;
}

interface WebhookAttemptsTable {
  delivery_id: string;
  n: number;
  at: string;
  status_code: number | null;
  error: string | null;
}

/** The tables of migration 2026_11_041_webhooks. */
export interface WebhookDb {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** One event as the outbox needs it: its id, type, time and the JSON body every delivery of it sends. */
export interface OutboxEvent {
  id: string;
  type: string;
  at: string;
  payload: string;
}

export function deliveryId(): string {
  return `dlv_${randomBytes(12).toString('base64url')}`;
}

function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * Inserts a pending delivery per event and enabled webhook of the space subscribed to its type, through `db` (the
 * event's own transaction): an event and its deliveries commit together or not at all.
 */
export async function insertOutbox(db: Kysely<WebhookDb>, space: string, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const hooks = await db.selectFrom('webhooks').select(['id', 'events']).where('space', '=', space).where('enabled', '=', 1).execute();
  if (hooks.length === 0) return;
  const rows: WebhookDeliveriesTable[] = [];
  for (const hook of hooks) {
    const subscribed = JSON.parse(hook.events) as string[];
    for (const event of events) {
      if (!subscribes(subscribed, event.type)) continue;
      rows.push(newDelivery({ space, webhookId: hook.id, eventId: event.id, eventType: event.type, payload: event.payload, at: event.at }));
    }
  }
  // Chunks keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 50) await db.insertInto('webhook_deliveries').values(rows.slice(i, i + 50)).execute();
}

function newDelivery(d: { space: string; webhookId: string; eventId: string; eventType: string; payload: string; at: string }): WebhookDeliveriesTable {
  return {
    id: deliveryId(),
    space: d.space,
    webhook_id: d.webhookId,
    event_id: d.eventId,
    event_type: d.eventType,
    payload: d.payload,
    status: 'pending',
    attempts: 0,
    next_at: d.at,
    lease_until: null,
    created_at: d.at,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    redelivery_of: null,
  };
}

function toWebhook(r: WebhooksTable): WebhookRecord {
  return {
    id: r.id,
    space: r.space,
    url: r.url,
    events: JSON.parse(r.events) as string[],
    secret: r.secret,
    enabled: Number(r.enabled) === 1,
    consecutiveFailures: Number(r.consecutive_failures),
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toDelivery(r: WebhookDeliveriesTable): DeliveryRecord {
  return {
    id: r.id,
    space: r.space,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    eventType: r.event_type,
    payload: r.payload,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAt: r.next_at,
    createdAt: r.created_at,
    lastAttemptAt: r.last_attempt_at,
    lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
    lastError: r.last_error,
    redeliveryOf: r.redelivery_of,
  };
}

export function webhookStore(db: Kysely<WebhookDb>, dialect: 'sqlite' | 'postgres'): WebhookStore {
  return {
    insert: async (hook) => {
      await db.insertInto('webhooks').values({
        id: hook.id,
        space: hook.space,
        url: hook.url,
        events: JSON.stringify(hook.events),
        secret: hook.secret,
        enabled: hook.enabled ? 1 : 0,
        consecutive_failures: hook.consecutiveFailures,
        disabled_reason: hook.disabledReason,
        created_at: hook.createdAt,
        updated_at: hook.updatedAt,
      }).execute();
    },
    list: async (space) => (await db.selectFrom('webhooks').selectAll().where('space', '=', space).orderBy('created_at').orderBy('id').execute()).map(toWebhook),
    secrets: async () => db.selectFrom('webhooks').select(['id', 'secret']).execute(),
    replaceSecret: async (id, from, to) => {
      const result = await db.updateTable('webhooks').set({ secret: to }).where('id', '=', id).where('secret', '=', from).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    get: async (space, id) => {
      const row = await db.selectFrom('webhooks').selectAll().where('space', '=', space).where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toWebhook(row);
    },
    update: async (space, id, changes) => {
      const set: Partial<WebhooksTable> = { updated_at: changes.updatedAt };
      if (changes.url !== undefined) set.url = changes.url;
      if (changes.events !== undefined) set.events = JSON.stringify(changes.events);
      if (changes.enabled !== undefined) {
        set.enabled = changes.enabled ? 1 : 0;
        // Enabled again by a person: the failures that disabled it are forgiven; disabled by a person: no reason kept.
        set.consecutive_failures = 0;
        set.disabled_reason = null;
      }
      const result = await db.updateTable('webhooks').set(set).where('space', '=', space).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    delete: async (space, id) => {
      return db.transaction().execute(async (trx) => {
        const ids = trx.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id).where('space', '=', space);
        await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).execute();
        await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).where('space', '=', space).execute();
        const result = await trx.deleteFrom('webhooks').where('space', '=', space).where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
    enqueue: async (d) => {
      await db.insertInto('webhook_deliveries').values({
        ...newDelivery({ space: d.space, webhookId: d.webhookId, eventId: d.eventId, eventType: d.eventType, payload: d.payload, at: d.createdAt }),
        id: d.id,
        next_at: d.nextAt,
        redelivery_of: d.redeliveryOf,
      }).execute();
    },
    deliveries: async (space, filter: DeliveryFilter): Promise<DeliveryPage> => {
      let query = db.selectFrom('webhook_deliveries').selectAll().where('space', '=', space);
      if (filter.webhookId !== undefined) query = query.where('webhook_id', '=', filter.webhookId);
      if (filter.cursor !== undefined) {
        const [at, id] = decodeCursor(filter.cursor);
        query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit + 1).execute();
      const items = rows.slice(0, filter.limit).map(toDelivery);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > filter.limit && last ? encodeCursor(last.createdAt, last.id) : null };
    },
    delivery: async (space, id) => {
      const row = await db.selectFrom('webhook_deliveries').selectAll().where('space', '=', space).where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toDelivery(row);
    },
    attempts: async (space, id): Promise<DeliveryAttempt[]> => {
      const rows = await db
        .selectFrom('webhook_attempts')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
        .select(['webhook_attempts.at', 'webhook_attempts.status_code', 'webhook_attempts.error'])
        .where('webhook_deliveries.space', '=', space)
        .where('webhook_attempts.delivery_id', '=', id)
        .orderBy('webhook_attempts.n')
        .execute();
      return rows.map((r) => ({ at: r.at, statusCode: r.status_code === null ? null : Number(r.status_code), error: r.error }));
    },
    lease: async (now, until, limit) => {
      // One UPDATE over the due rows: it takes the write lock at once (SQLite: a read first would have to upgrade
      // its lock, which fails under a second process), and on PostgreSQL its subquery skips rows another
      // instance has locked, so instances lease disjoint rows.
      let due = db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .select('d.id')
        .where('d.status', '=', 'pending')
        .where('d.next_at', '<=', now)
        .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
        .where('w.enabled', '=', 1)
        .orderBy('d.next_at')
        .limit(limit);
      if (dialect === 'postgres') due = due.forUpdate('d').skipLocked();
      const rows = await db.updateTable('webhook_deliveries').set({ lease_until: until }).where('id', 'in', due).returningAll().execute();
      if (rows.length === 0) return [];
      const hooks = await db.selectFrom('webhooks').select(['id', 'url', 'secret']).where('id', 'in', [...new Set(rows.map((r) => r.webhook_id))]).execute();
      const byId = new Map(hooks.map((h) => [h.id, h]));
      return rows
        .filter((r) => byId.has(r.webhook_id))
        .sort((x, y) => x.next_at.localeCompare(y.next_at))
        .map((row): LeasedDelivery => ({ delivery: toDelivery(row), url: byId.get(row.webhook_id)!.url, secret: byId.get(row.webhook_id)!.secret }));
    },
    finish: async (space, id, outcome: AttemptOutcome) => {
      if (outcome.expired === true) {
        await db.updateTable('webhook_deliveries').set({ status: 'failed', lease_until: null, last_error: outcome.error })
          .where('space', '=', space).where('id', '=', id).execute();
        return { disabled: false };
      }
      return db.transaction().execute(async (trx) => {
        const status: DeliveryStatus = outcome.delivered ? 'delivered' : outcome.nextAt === null ? 'failed' : 'pending';
        // A write first (see lease): the attempt's number comes back from the update.
        const row = await trx.updateTable('webhook_deliveries').set((eb) => ({
          status,
          attempts: eb('attempts', '+', 1),
          next_at: outcome.nextAt ?? outcome.at,
          lease_until: null,
          last_attempt_at: outcome.at,
          last_status_code: outcome.statusCode,
          last_error: outcome.error,
        })).where('space', '=', space).where('id', '=', id).returning(['attempts', 'webhook_id']).executeTakeFirst();
        if (row === undefined) return { disabled: false };
        await trx.insertInto('webhook_attempts').values({ delivery_id: id, n: Number(row.attempts), at: outcome.at, status_code: outcome.statusCode, error: outcome.error }).execute();
        if (outcome.delivered) {
          await trx.updateTable('webhooks').set({ consecutive_failures: 0 }).where('id', '=', row.webhook_id).execute();
          return { disabled: false };
        }
        const hook = await trx
          .updateTable('webhooks')
          .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
          .where('id', '=', row.webhook_id)
          .returning(['consecutive_failures', 'enabled'])
          .executeTakeFirst();
        if (hook === undefined || Number(hook.enabled) !== 1 || Number(hook.consecutive_failures) < outcome.disableAfter) return { disabled: false };
        await trx.updateTable('webhooks').set({
          enabled: 0,
          disabled_reason: `disabled after ${Number(hook.consecutive_failures)} failed attempts in a row (last: ${outcome.error ?? `HTTP ${outcome.statusCode}`})`,
        }).where('id', '=', row.webhook_id).execute();
        return { disabled: true };
      });
    },
    purge: async (before) => {
      return db.transaction().execute(async (trx) => {
        const done = trx.selectFrom('webhook_deliveries').select('id').where('status', 'in', ['delivered', 'failed']).where('created_at', '<', before);
        await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', done).execute();
        const result = await trx.deleteFrom('webhook_deliveries').where('status', 'in', ['delivered', 'failed']).where('created_at', '<', before).executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },
  };
}
