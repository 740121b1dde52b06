// Opens the store named by DATABASE_URL: `sqlite:PATH` (embedded default) or `postgres://...`. Applies
// migrations before returning, so a store in hand always has the current schema.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqliteDatabase } from 'kysely';
import { LocalChangeFeed, SqliteChangeFeed } from './change-feed.ts';
import type { FeedLogger } from './change-feed.ts';
import { KyselyStore } from './kysely-store.ts';
import { migrateToLatest } from './migrations.ts';
import type { Database } from './schema.ts';

export interface OpenStoreOptions {
  /**
   * Follow other processes' writes (a server: yes; a one-shot CLI command: no). On PostgreSQL this opens a
   * LISTEN connection; on SQLite it polls data_version.
   */
  listen?: boolean;
  log?: FeedLogger;
  clock?: () => Date;
  /** PostgreSQL pool size. */
  poolSize?: number;
}

export function sqlitePath(databaseUrl: string): string {
  return databaseUrl.slice('sqlite:'.length);
}

export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<KyselyStore> {
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(sqlitePath(databaseUrl), options);
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) return openPostgres(databaseUrl, options);
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${databaseUrl}")`);
}

/** Distinct SQL texts whose compiled statements are kept (queries with IN lists vary; the rest repeat). */
const STATEMENT_CACHE = 256;

/**
 * The database as Kysely uses it, with compiled statements kept by SQL text: Kysely prepares every query it runs, and
 * better-sqlite3 compiles the SQL on each prepare, which cost a job's worker as much as running its statements.
 * Kysely runs one query at a time on the connection, so a statement is never in use twice at once.
 */
function cachingStatements(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement !== undefined) {
        // Most recently used last, so the least recently used is evicted first.
        statements.delete(text);
      } else {
        statement = database.prepare(text);
        if (statements.size >= STATEMENT_CACHE) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

async function openSqlite(path: string, options: OpenStoreOptions): Promise<KyselyStore> {
  const memory = path === ':memory:';
  if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const database = new BetterSqlite3(memory ? ':memory:' : path);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(database) }) });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const feed = options.listen === true && !memory ? new SqliteChangeFeed(database) : new LocalChangeFeed();
  return new KyselyStore({ db, dialect: 'sqlite', feed, clock: options.clock });
}

async function openPostgres(url: string, options: OpenStoreOptions): Promise<KyselyStore> {
  // Loaded here rather than at the top: a process on SQLite (every CLI command on the embedded store) never loads pg.
  const [{ default: pg }, { PostgresChangeFeed }, { ensurePostgresDatabase }] = await Promise.all([
    import('pg'),
    import('./postgres-change-feed.ts'),
    import('./postgres-database.ts'),
  ]);
  if (await ensurePostgresDatabase(url)) options.log?.info({ database: new pg.Client({ connectionString: url }).database }, 'created the database named in DATABASE_URL');
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle pooled connection that breaks must not crash the process; the next query reconnects.
  pool.on('error', (err) => options.log?.warn({ err: err.message }, 'idle database connection failed'));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  let feed: LocalChangeFeed = new LocalChangeFeed();
  if (options.listen === true) {
    const listener = new PostgresChangeFeed(url, options.log);
    try {
      await listener.start();
    } catch (err) {
      await db.destroy();
      throw err;
    }
    feed = listener;
  }
  return new KyselyStore({ db, dialect: 'postgres', feed, clock: options.clock });
}
