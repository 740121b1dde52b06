// The storage ports over Kysely: one implementation for SQLite and PostgreSQL. Every write is one transaction;
// rule and key writes publish a change (NOTIFY inside the transaction on PostgreSQL, so it is delivered exactly
// when the write commits) and then tell this process's own caches directly.
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import type { Json } from '../engine/types.ts';
import { encodeChange, NOTIFY_CHANNEL } from './change-feed.ts';
import type { LocalChangeFeed } from './change-feed.ts';
import { KyselyManagementStore } from './management-store.ts';
import { parseJson, ruleRow, toHead, toStoredRule, upsertRuleRow } from './rule-rows.ts';
import { decodeCursor, encodeCursor } from './page-cursor.ts';
import { ruleTestStore } from './rule-test-store.ts';
import { sessionStore, userStore } from './user-store.ts';
import { activityStore } from './activity-store.ts';
import { jobStore } from './job-store.ts';
import type { JobsDb } from './job-store.ts';
import { spaceSettings } from './space-rows.ts';
import type { ActivityDb } from './activity-store.ts';
import { webhookStore } from './webhook-store.ts';
import type { WebhookDb } from './webhook-store.ts';
import type {
  ActivityStore, JobStore,
  AuditFilter, AuditPage, AuditRecord, AuditStore, ChangeEvent, KafkaBinding, KafkaBindingStore, KeyRecord, KeyStore,
  KeyType, RuleStore, RuleTestStore, SessionStore, SpaceRecord, SpaceStore, Store, UserStore, WebhookStore,
} from './ports.ts';
import { ConflictError } from './ports.ts';
import type { ApiKeysTable, AuditRecordsTable, Database } from './schema.ts';

type Db = Kysely<Database>;

function toKey(row: ApiKeysTable): KeyRecord {
  return {
    id: row.id,
    space: row.space,
    type: row.type as KeyType,
    hash: row.hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    name: row.name ?? null,
  };
}

function toAudit(row: AuditRecordsTable): AuditRecord {
  return {
    id: row.id,
    space: row.space,
    correlationId: row.correlation_id,
    ruleId: row.rule_id,
    ruleAlias: row.rule_alias,
    version: row.version === null ? null : Number(row.version),
    ruleType: row.rule_type,
    strategy: row.strategy,
    input: parseJson<Json>(row.input) as Json,
    output: parseJson<Json>(row.output),
    statusCode: Number(row.status_code),
    errorMessage: row.error_message,
    errorKind: row.error_kind ?? null,
    executionTimeMs: Number(row.execution_time_ms),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    debug: parseJson<Json>(row.debug),
  };
}

export interface KyselyStoreOptions {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  feed: LocalChangeFeed;
  clock?: () => Date;
  /** Runs when the store closes, after the database (e.g. stopping the change listener). */
  onClose?: () => Promise<void>;
}

export class KyselyStore implements Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly rules: RuleStore;
  readonly spaces: SpaceStore;
  readonly keys: KeyStore;
  readonly audits: AuditStore;
  readonly kafka: KafkaBindingStore;
  readonly management: KyselyManagementStore;
  readonly ruleTests: RuleTestStore;
  readonly users: UserStore;
  readonly activity: ActivityStore;
  readonly webhooks: WebhookStore;
  readonly jobs: JobStore;
  readonly sessions: SessionStore;
  readonly changes: LocalChangeFeed;
  readonly db: Db;
  readonly #clock: () => Date;
  readonly #onClose: (() => Promise<void>) | undefined;

  constructor(options: KyselyStoreOptions) {
    this.db = options.db;
    this.dialect = options.dialect;
    this.changes = options.feed;
    this.#clock = options.clock ?? (() => new Date());
    this.#onClose = options.onClose;
    this.rules = this.#ruleStore();
    this.spaces = this.#spaceStore();
    this.keys = this.#keyStore();
    this.audits = this.#auditStore();
    this.kafka = this.#kafkaStore();
    this.management = new KyselyManagementStore({ db: this.db, dialect: this.dialect, feed: this.changes, now: () => this.#now() });
    this.ruleTests = ruleTestStore(this.db as Kysely<unknown>);
    this.users = userStore(this.db);
    this.activity = activityStore(this.db as unknown as Kysely<ActivityDb>);
    this.webhooks = webhookStore(this.db as unknown as Kysely<WebhookDb>, this.dialect);
    this.sessions = sessionStore(this.db);
    this.jobs = jobStore(this.db as unknown as Kysely<JobsDb>, this.dialect);
  }

  #now(): string {
    return this.#clock().toISOString();
  }

  /** Runs `work` in a transaction, publishes `events` with the commit, then tells local listeners. */
  async #write<T>(events: ChangeEvent[], work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const result = await this.db.transaction().execute(async (trx) => {
      const value = await work(trx);
      if (this.dialect === 'postgres') {
        for (const event of events) await sql`SELECT pg_notify(${NOTIFY_CHANNEL}, ${encodeChange(event)})`.execute(trx);
      }
      return value;
    });
    for (const event of events) this.changes.emit(event);
    return result;
  }

  #ruleStore(): RuleStore {
    const db = this.db;
    const ruleEvents = (space: string, ruleIds: Iterable<string>): ChangeEvent[] =>
      [...new Set(ruleIds)].map((ruleId) => ({ kind: 'rule', space, ruleId }));
    return {
      listHeads: async (space) => {
        const rows = await db
          .selectFrom('rules')
          .select(['space', 'rule_id', 'version', 'alias', 'name', 'type', 'status', 'locked', 'tags', 'created_at', 'updated_at'])
          .where('space', '=', space)
          .orderBy('rule_id')
          .orderBy('version')
          .execute();
        return rows.map(toHead);
      },
      get: async (space, ruleId, version) => {
        const row = await db
          .selectFrom('rules')
          .selectAll()
          .where('space', '=', space)
          .where('rule_id', '=', ruleId)
          .where('version', '=', version)
          .executeTakeFirst();
        return row === undefined ? undefined : toStoredRule(row);
      },
      versions: async (space, ruleId) => {
        const rows = await db.selectFrom('rules').selectAll().where('space', '=', space).where('rule_id', '=', ruleId).orderBy('version').execute();
        return rows.map(toStoredRule);
      },
      put: async (space, documents) => {
        const now = this.#now();
        const rows = documents.map((d) => ruleRow(space, d, now));
        return this.#write(ruleEvents(space, rows.map((r) => r.rule_id)), async (trx) => {
          for (const row of rows) {
            await upsertRuleRow(trx, row);
          }
          return rows.map(toStoredRule);
        });
      },
      insert: async (space, document) => {
        const row = ruleRow(space, document, this.#now());
        return this.#write(ruleEvents(space, [row.rule_id]), async (trx) => {
          const result = await trx.insertInto('rules').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
          if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) {
            throw new ConflictError(`rule ${row.rule_id} version ${row.version} already exists`);
          }
          return toStoredRule(row);
        });
      },
      delete: async (space, ruleId, version) => {
        return this.#write(ruleEvents(space, [ruleId]), async (trx) => {
          let query = trx.deleteFrom('rules').where('space', '=', space).where('rule_id', '=', ruleId);
          if (version !== undefined) query = query.where('version', '=', version);
          const result = await query.executeTakeFirst();
          return Number(result.numDeletedRows);
        });
      },
    };
  }

  #spaceStore(): SpaceStore {
    const db = this.db;
    return {
      create: async (name, keys) => {
        const created = await this.#write([{ kind: 'key', space: name }], async (trx) => {
          const result = await trx
            .insertInto('spaces')
            .values({ name, created_at: this.#now() })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst();
          if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
          for (const key of keys) await trx.insertInto('api_keys').values(keyRow(key)).execute();
          return true;
        });
        return created;
      },
      get: async (name) => {
        const row = await db.selectFrom('spaces').selectAll().where('name', '=', name).executeTakeFirst();
        return row === undefined ? undefined : { name: row.name, createdAt: row.created_at };
      },
      list: async () => {
        const rows = await db.selectFrom('spaces').selectAll().orderBy('name').execute();
        return rows.map((r): SpaceRecord => ({ name: r.name, createdAt: r.created_at }));
      },
      settings: async (name) => {
        const row = await db.selectFrom('spaces').select(['live_edits', 'approvals']).where('name', '=', name).executeTakeFirst();
        return row === undefined ? undefined : spaceSettings(row);
      },
      setLiveEdits: async (name, value) => {
        const result = await db.updateTable('spaces').set({ live_edits: value }).where('name', '=', name).executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      },
      setApprovals: async (name, required) => {
        const result = await db.updateTable('spaces').set({ approvals: required ? 1 : 0 }).where('name', '=', name).executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      },
    };
  }

  #keyStore(): KeyStore {
    const db = this.db;
    return {
      insert: async (key) => {
        await this.#write([{ kind: 'key', space: key.space }], async (trx) => {
          await trx.insertInto('api_keys').values(keyRow(key)).execute();
        });
      },
      findByHash: async (hash) => {
        const row = await db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
        return row === undefined ? undefined : toKey(row);
      },
      get: async (id) => {
        const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
        return row === undefined ? undefined : toKey(row);
      },
      list: async (space) => {
        const rows = await db.selectFrom('api_keys').selectAll().where('space', '=', space).orderBy('created_at').orderBy('id').execute();
        return rows.map(toKey);
      },
      revoke: async (id, at) => {
        const existing = await db.selectFrom('api_keys').select(['space']).where('id', '=', id).executeTakeFirst();
        if (existing === undefined) return false;
        return this.#write([{ kind: 'key', space: existing.space }], async (trx) => {
          const result = await trx
            .updateTable('api_keys')
            .set({ revoked_at: at })
            .where('id', '=', id)
            .where('revoked_at', 'is', null)
            .executeTakeFirst();
          return Number(result.numUpdatedRows) > 0;
        });
      },
    };
  }

  #auditStore(): AuditStore {
    const db = this.db;
    return {
      insertMany: async (records) => {
        if (records.length === 0) return;
        const rows: AuditRecordsTable[] = records.map((r) => ({
          id: r.id,
          space: r.space,
          correlation_id: r.correlationId,
          rule_id: r.ruleId,
          rule_alias: r.ruleAlias,
          version: r.version,
          rule_type: r.ruleType,
          strategy: r.strategy,
          input: r.input,
          output: r.output,
          status_code: r.statusCode,
          error_message: r.errorMessage,
          error_kind: r.errorKind,
          execution_time_ms: r.executionTimeMs,
          created_at: r.createdAt,
          expires_at: r.expiresAt,
          debug: r.debug,
        }));
        // Chunks keep each statement under SQLite's bound-parameter limit.
        await db.transaction().execute(async (trx) => {
          for (let i = 0; i < rows.length; i += 100) await trx.insertInto('audit_records').values(rows.slice(i, i + 100)).execute();
        });
      },
      list: async (space, filter: AuditFilter, now): Promise<AuditPage> => {
        let query = db.selectFrom('audit_records').selectAll().where('space', '=', space).where('expires_at', '>', now);
        if (filter.correlationId !== undefined) query = query.where('correlation_id', '=', filter.correlationId);
        if (filter.ruleId !== undefined) {
          const ruleId = filter.ruleId;
          query = query.where((eb) => eb.or([eb('rule_id', '=', ruleId), eb('rule_alias', '=', ruleId)]));
        }
        if (filter.statusCode !== undefined) query = query.where('status_code', '=', filter.statusCode);
        if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
        if (filter.to !== undefined) query = query.where('created_at', '<=', filter.to);
        if (filter.cursor !== undefined) {
          const [createdAt, id] = decodeCursor(filter.cursor);
          query = query.where((eb) =>
            eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]),
          );
        }
        const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit + 1).execute();
        const page = rows.slice(0, filter.limit).map(toAudit);
        const last = page[page.length - 1];
        return { items: page, nextCursor: rows.length > filter.limit && last ? encodeCursor(last.createdAt, last.id) : null };
      },
      deleteExpired: async (now) => {
        const result = await db.deleteFrom('audit_records').where('expires_at', '<=', now).executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    };
  }

  #kafkaStore(): KafkaBindingStore {
    const db = this.db;
    const toBinding = (r: Database['kafka_bindings']): KafkaBinding => ({
      space: r.space,
      company: r.company,
      requestTopic: r.request_topic,
      responseTopic: r.response_topic,
      createdAt: r.created_at,
    });
    return {
      bind: async (b) => {
        await db
          .insertInto('kafka_bindings')
          .values({ space: b.space, company: b.company, request_topic: b.requestTopic, response_topic: b.responseTopic, created_at: b.createdAt })
          .execute();
      },
      list: async (space) => {
        let query = db.selectFrom('kafka_bindings').selectAll();
        if (space !== undefined) query = query.where('space', '=', space);
        return (await query.orderBy('created_at').execute()).map(toBinding);
      },
      findByRequestTopic: async (topic) => {
        const row = await db.selectFrom('kafka_bindings').selectAll().where('request_topic', '=', topic).executeTakeFirst();
        return row === undefined ? undefined : toBinding(row);
      },
      unbind: async (topic) => {
        const result = await db.deleteFrom('kafka_bindings').where('request_topic', '=', topic).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      },
    };
  }

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.changes.close();
    await this.db.destroy();
    if (this.#onClose) await this.#onClose();
  }
}

function keyRow(key: KeyRecord): ApiKeysTable {
  return { id: key.id, space: key.space, type: key.type, hash: key.hash, created_at: key.createdAt, revoked_at: key.revokedAt, name: key.name ?? null };
}
