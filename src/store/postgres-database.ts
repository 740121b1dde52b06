// Before the pool opens: the database named in a postgres:// DATABASE_URL exists, or this says in one line what
// is wrong and how to fix it (docs/decisions/storage-create-database.md). A first start on a fresh server then
// needs no manual step when the role may create databases, and never ends in "internal error" when it may not.
import pg from 'pg';
import { DatabaseSetupError } from './ports.ts';

interface Target {
  database: string;
  user: string;
  host: string;
  port: number;
}

/** Where the URL points, as pg reads it (defaults included); never the password. */
function targetOf(url: string): Target {
  const client = new pg.Client({ connectionString: url });
  return { database: client.database ?? client.user ?? '', user: client.user ?? '', host: client.host, port: client.port };
}

function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function connected(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client({ connectionTimeoutMillis: 10_000, ...config });
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
}

/** The same server and credentials, another database (query options such as sslmode kept). */
function withDatabase(url: string, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${encodeURIComponent(database)}`;
  return copy.toString();
}

/**
 * Connects once to `url`; when its database does not exist, creates it from the `postgres` (or `template1`)
 * maintenance database. Returns whether it created it. Throws DatabaseSetupError for anything it cannot fix.
 */
export async function ensurePostgresDatabase(url: string): Promise<boolean> {
  const target = targetOf(url);
  const where = `PostgreSQL ${target.host}:${target.port} (DATABASE_URL)`;
  try {
    await (await connected({ connectionString: url })).end();
    return false;
  } catch (err) {
    // 3D000 invalid_catalog_name: the server answered and the database is missing. Anything else is not ours to fix.
    if (pgCode(err) !== '3D000') throw new DatabaseSetupError(`cannot connect to database "${target.database}" as role "${target.user}" on ${where}: ${reason(err)}`, { cause: err });
  }
  // Owned by the configured role: since PostgreSQL 15 only the owner may create tables in its public schema.
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const howTo =
    `create it with \`createdb -h ${target.host} -p ${target.port} -O ${target.user} ${target.database}\` ` +
    `or \`CREATE DATABASE ${quote(target.database)} OWNER ${quote(target.user)};\` as a role that may, then start again`;
  let admin: pg.Client | undefined;
  let lastError: unknown;
  for (const maintenance of ['postgres', 'template1']) {
    try {
      admin = await connected({ connectionString: withDatabase(url, maintenance) });
      break;
    } catch (err) {
      lastError = err;
    }
  }
  if (!admin) {
    throw new DatabaseSetupError(`database "${target.database}" does not exist on ${where} and role "${target.user}" cannot reach a maintenance database to create it (${reason(lastError)}): ${howTo}`, { cause: lastError });
  }
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(target.database)}`);
    return true;
  } catch (err) {
    // Another instance starting at the same moment created it first (42P04, or 23505 on the catalog index).
    if (pgCode(err) === '42P04' || pgCode(err) === '23505') return false;
    const why = pgCode(err) === '42501' ? 'may not create it (no CREATEDB privilege)' : `could not create it (${reason(err)})`;
    throw new DatabaseSetupError(`database "${target.database}" does not exist on ${where} and role "${target.user}" ${why}: ${howTo}`, { cause: err });
  } finally {
    await admin.end().catch(() => undefined);
  }
}
