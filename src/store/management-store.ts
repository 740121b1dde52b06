// The management API's transactions over Kysely (SQLite and PostgreSQL). One transaction per call; on PostgreSQL a
// transaction-scoped advisory lock per space serialises management writes of that space (SQLite serialises all
// writes anyway). Rule changes are published like every other rule write: NOTIFY inside the transaction, then the
// local feed after commit.
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { encodeChange, NOTIFY_CHANNEL } from './change-feed.ts';
import type { LocalChangeFeed } from './change-feed.ts';
import { randomBytes } from 'node:crypto';
import { ruleRow, toHead, toStoredRule, upsertRuleRow } from './rule-rows.ts';
import { ROOT_FOLDER_ID } from './ports.ts';
import type { FolderRecord, HistoryAction, HistoryEntry, ManagementStore, ManagementTransaction, RulePlacement } from './ports.ts';
import { deleteRuleTests, readRuleTests, writeRuleTests } from './rule-test-store.ts';
import { insertActivity, lastActor } from './activity-store.ts';
import { readReview, writeReview } from './review-store.ts';
import { spaceSettings } from './space-rows.ts';
import type { ReviewDb } from './review-store.ts';
import type { ActivityDb } from './activity-store.ts';
import type { RuleTestDb } from './rule-test-store.ts';
import type { Database } from './schema.ts';

interface FoldersTable {
  space: string;
  id: string;
  parent_id: string;
  name: string;
  created_at: string;
}

interface RulePlacementsTable {
  space: string;
  rule_id: string;
  version: number;
  folder_id: string;
}

interface RuleVersionCountersTable {
  space: string;
  rule_id: string;
  last_version: number;
}

interface RuleHistoryTable {
  space: string;
  id: string;
  rule_id: string;
  version: number;
  at: string;
  action: string;
  actor: string | null;
}

/** The tables of migrations 2026_06_001_management and 2026_11_001_rule_history. */
interface ManagementTables {
  folders: FoldersTable;
  rule_placements: RulePlacementsTable;
  rule_version_counters: RuleVersionCountersTable;
  rule_history: RuleHistoryTable;
}

let historySequence = 0;

/**
 * History ids sort like the entries they name when their times are equal: a per-process sequence, then random
 * bytes so that two instances writing in the same millisecond never collide.
 */
function historyId(): string {
  historySequence = (historySequence + 1) % 0x1_0000_0000;
  return `${historySequence.toString(16).padStart(8, '0')}-${randomBytes(6).toString('hex')}`;
}

type Db = Kysely<Database & ManagementTables>;
type Trx = Transaction<Database & ManagementTables>;

const HEAD_COLUMNS = ['space', 'rule_id', 'version', 'alias', 'name', 'type', 'status', 'locked', 'tags', 'created_at', 'updated_at'] as const;

export interface KyselyManagementStoreOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  feed: LocalChangeFeed;
  now: () => string;
}

export class KyselyManagementStore implements ManagementStore {
  readonly #db: Db;
  readonly #dialect: 'sqlite' | 'postgres';
  readonly #feed: LocalChangeFeed;
  readonly #now: () => string;

  constructor(options: KyselyManagementStoreOptions) {
    // The management tables are not in the shared Database type; they are this module's own.
    this.#db = options.db as unknown as Db;
    this.#dialect = options.dialect;
    this.#feed = options.feed;
    this.#now = options.now;
  }

  async transaction<T>(space: string, work: (tx: ManagementTransaction) => Promise<T>): Promise<T> {
    const changed = new Set<string>();
    const result = await this.#db.transaction().execute(async (trx) => {
      if (this.#dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtext(${`verdict-space:${space}`}))`.execute(trx);
      const value = await work(this.#transaction(trx, space, changed));
      if (this.#dialect === 'postgres') {
        for (const ruleId of changed) {
          await sql`SELECT pg_notify(${NOTIFY_CHANNEL}, ${encodeChange({ kind: 'rule', space, ruleId })})`.execute(trx);
        }
      }
      return value;
    });
    for (const ruleId of changed) this.#feed.emit({ kind: 'rule', space, ruleId });
    return result;
  }

  async read<T>(space: string, work: (tx: ManagementTransaction) => Promise<T>): Promise<T> {
    const changed = new Set<string>();
    return this.#db.transaction().execute((trx) => work(this.#transaction(trx, space, changed)));
  }

  #transaction(trx: Trx, space: string, changed: Set<string>): ManagementTransaction {
    const now = this.#now;
    return {
      space,
      heads: async () => {
        const rows = await trx.selectFrom('rules').select([...HEAD_COLUMNS]).where('space', '=', space).orderBy('rule_id').orderBy('version').execute();
        return rows.map(toHead);
      },
      rules: async () => {
        const rows = await trx.selectFrom('rules').selectAll().where('space', '=', space).orderBy('rule_id').orderBy('version').execute();
        return rows.map(toStoredRule);
      },
      versions: async (ruleId) => {
        const rows = await trx.selectFrom('rules').selectAll().where('space', '=', space).where('rule_id', '=', ruleId).orderBy('version').execute();
        return rows.map(toStoredRule);
      },
      putRules: async (documents) => {
        const at = now();
        const rows = documents.map((d) => ruleRow(space, d, at));
        for (const row of rows) {
          // Trx is the shared Database plus this module's tables; the rules table is the shared one.
          await upsertRuleRow(trx as unknown as Kysely<Database>, row);
          changed.add(row.rule_id);
        }
        return rows.map(toStoredRule);
      },
      deleteRule: async (ruleId, version) => {
        const highest = await highestStoredVersion(trx, space, ruleId);
        if (highest > 0) await this.#remember(trx, space, ruleId, highest);
        let placements = trx.deleteFrom('rule_placements').where('space', '=', space).where('rule_id', '=', ruleId);
        if (version !== undefined) placements = placements.where('version', '=', version);
        await placements.execute();
        let rules = trx.deleteFrom('rules').where('space', '=', space).where('rule_id', '=', ruleId);
        if (version !== undefined) rules = rules.where('version', '=', version);
        const result = await rules.executeTakeFirst();
        const deleted = Number(result.numDeletedRows);
        if (deleted > 0) changed.add(ruleId);
        // Tests belong to the rule, not to a version: they go with its last version.
        if ((await highestStoredVersion(trx, space, ruleId)) === 0) await deleteRuleTests(trx as unknown as RuleTestDb, space, ruleId);
        return deleted;
      },
      highestVersion: async (ruleId) => {
        const stored = await highestStoredVersion(trx, space, ruleId);
        const counter = await trx
          .selectFrom('rule_version_counters')
          .select('last_version')
          .where('space', '=', space)
          .where('rule_id', '=', ruleId)
          .executeTakeFirst();
        return Math.max(stored, counter ? Number(counter.last_version) : 0);
      },
      folders: async () => {
        const rows = await trx.selectFrom('folders').selectAll().where('space', '=', space).orderBy('name').orderBy('id').execute();
        return rows.map((r): FolderRecord => ({ id: r.id, parentId: r.parent_id, name: r.name, createdAt: r.created_at }));
      },
      insertFolder: async (folder) => {
        await trx
          .insertInto('folders')
          .values({ space, id: folder.id, parent_id: folder.parentId, name: folder.name, created_at: folder.createdAt })
          .execute();
      },
      updateFolder: async (id, changes) => {
        const set: Partial<FoldersTable> = {};
        if (changes.name !== undefined) set.name = changes.name;
        if (changes.parentId !== undefined) set.parent_id = changes.parentId;
        if (Object.keys(set).length === 0) return;
        await trx.updateTable('folders').set(set).where('space', '=', space).where('id', '=', id).execute();
      },
      deleteFolders: async (ids) => {
        for (let i = 0; i < ids.length; i += 100) {
          const chunk = ids.slice(i, i + 100);
          await trx.deleteFrom('rule_placements').where('space', '=', space).where('folder_id', 'in', chunk).execute();
          await trx.deleteFrom('folders').where('space', '=', space).where('id', 'in', chunk).execute();
        }
      },
      placements: async () => {
        const rows = await trx.selectFrom('rule_placements').selectAll().where('space', '=', space).execute();
        return rows.map((r): RulePlacement => ({ ruleId: r.rule_id, version: Number(r.version), folderId: r.folder_id }));
      },
      place: async (ruleId, version, folderId) => {
        let versions: number[];
        if (version === undefined) {
          const rows = await trx.selectFrom('rules').select('version').where('space', '=', space).where('rule_id', '=', ruleId).execute();
          versions = rows.map((r) => Number(r.version));
        } else {
          versions = [version];
        }
        for (const v of versions) {
          await trx.deleteFrom('rule_placements').where('space', '=', space).where('rule_id', '=', ruleId).where('version', '=', v).execute();
          if (folderId !== ROOT_FOLDER_ID) {
            await trx.insertInto('rule_placements').values({ space, rule_id: ruleId, version: v, folder_id: folderId }).execute();
          }
        }
      },
      appendHistory: async (entries) => {
        const rows = entries.map((e): RuleHistoryTable => ({
          space, id: historyId(), rule_id: e.ruleId, version: e.version, at: e.at, action: e.action, actor: e.by,
        }));
        // Chunks keep each statement under SQLite's bound-parameter limit.
        for (let i = 0; i < rows.length; i += 100) await trx.insertInto('rule_history').values(rows.slice(i, i + 100)).execute();
      },
      appendActivity: (entries) => insertActivity(trx as unknown as Kysely<ActivityDb>, space, entries),
      lastActor: (ruleId, version, actions) => lastActor(trx as unknown as Kysely<ActivityDb>, space, ruleId, version, actions),
      settings: async () => spaceSettings(await trx.selectFrom('spaces').select(['live_edits', 'approvals']).where('name', '=', space).executeTakeFirstOrThrow()),
      review: (ruleId, version) => readReview(trx as unknown as Kysely<ReviewDb>, space, ruleId, version),
      putReview: (review) => writeReview(trx as unknown as Kysely<ReviewDb>, space, review),
      history: async (ruleId, version) => {
        let query = trx.selectFrom('rule_history').selectAll().where('space', '=', space).where('rule_id', '=', ruleId);
        if (version !== undefined) query = query.where('version', '=', version);
        const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').execute();
        return rows.map((r): HistoryEntry => ({
          ruleId: r.rule_id, version: Number(r.version), at: r.at, action: r.action as HistoryAction, by: r.actor,
        }));
      },
      // Trx is the shared Database plus the management tables; the rule test tables are rule-test-store's own.
      ruleTests: (ruleId) => readRuleTests(trx as unknown as RuleTestDb, space, ruleId),
      putRuleTests: (ruleId, suites) => writeRuleTests(trx as unknown as RuleTestDb, space, ruleId, suites),
    };
  }

  async #remember(trx: Trx, space: string, ruleId: string, version: number): Promise<void> {
    const existing = await trx
      .selectFrom('rule_version_counters')
      .select('last_version')
      .where('space', '=', space)
      .where('rule_id', '=', ruleId)
      .executeTakeFirst();
    if (existing === undefined) {
      await trx.insertInto('rule_version_counters').values({ space, rule_id: ruleId, last_version: version }).execute();
    } else if (Number(existing.last_version) < version) {
      await trx
        .updateTable('rule_version_counters')
        .set({ last_version: version })
        .where('space', '=', space)
        .where('rule_id', '=', ruleId)
        .execute();
    }
  }
}

/** The highest version of a rule still stored, 0 when none is. */
async function highestStoredVersion(trx: Trx, space: string, ruleId: string): Promise<number> {
  const top = await trx
    .selectFrom('rules')
    .select((eb) => eb.fn.max('version').as('top'))
    .where('space', '=', space)
    .where('rule_id', '=', ruleId)
    .executeTakeFirst();
  return top?.top === null || top?.top === undefined ? 0 : Number(top.top);
}
