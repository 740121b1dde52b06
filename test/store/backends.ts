// Test databases. SQLite: a file in a fresh temp directory. PostgreSQL: a fresh database per call (so parallel
// test files and parallel runs never share tables or NOTIFY channels), dropped at cleanup. PostgreSQL is
// mandatory when CI=true; elsewhere a missing server skips its tests with a loud notice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { sqlitePath } from '../../src/store/open.ts';

export interface Backend {
  kind: 'sqlite' | 'postgres';
  url: string;
  cleanup(): Promise<void>;
}

export const POSTGRES_ADMIN_URL = process.env.VERDICT_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function sqliteBackend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-test-'));
  return {
    kind: 'sqlite',
    url: `sqlite:${join(dir, 'verdict.db')}`,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

let availability: Promise<boolean> | undefined;

/** Whether PostgreSQL answers. Under CI=true a missing server is an error, not a skip. */
export function postgresAvailable(): Promise<boolean> {
  availability ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (err) {
      if (process.env.CI === 'true') throw new Error(`PostgreSQL is required when CI=true but ${POSTGRES_ADMIN_URL} failed: ${String(err)}`, { cause: err });
      console.warn(`\n*** PostgreSQL not reachable at ${POSTGRES_ADMIN_URL}: SKIPPING the PostgreSQL tests (set VERDICT_TEST_POSTGRES_URL) ***\n`);
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return availability;
}

/** The reason to pass as node:test's `skip` option, or false. */
export async function postgresSkip(): Promise<string | false> {
  return (await postgresAvailable()) ? false : 'PostgreSQL not reachable (set VERDICT_TEST_POSTGRES_URL)';
}

export async function postgresBackend(): Promise<Backend> {
  const name = `verdict_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    cleanup: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function backendOf(kind: 'sqlite' | 'postgres'): Promise<Backend> {
  return kind === 'sqlite' ? sqliteBackend() : postgresBackend();
}

/** A bare Kysely connection to the backend's database, without the store's migrations (migration tests). */
export function rawDatabase(backend: Backend): Kysely<any> {
  return new Kysely<any>({
    dialect: backend.kind === 'sqlite'
      ? new SqliteDialect({ database: new Database(sqlitePath(backend.url)) })
      : new PostgresDialect({ pool: new pg.Pool({ connectionString: backend.url }) }),
  });
}
