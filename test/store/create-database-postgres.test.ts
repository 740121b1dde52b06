// DATABASE_URL names a PostgreSQL database that does not exist: a role that may create databases gets it created
// on first start; one that may not gets one line naming the database and how to create it, and a failing exit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { call } from '../http/harness.ts';
import { runCli, spawnServe } from '../http/process.ts';
import { POSTGRES_ADMIN_URL, postgresSkip } from './backends.ts';

const skip = await postgresSkip();

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return admin(async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

/** The admin URL with another role and database (trust or the same password applies). */
function urlFor(database: string, role?: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  if (role) url.username = role;
  return url.toString();
}

describe('PostgreSQL database named in DATABASE_URL does not exist', { skip }, () => {
  const database = `verdict_test_new_${randomBytes(6).toString('hex')}`;
  const role = `verdict_test_nocreatedb_${randomBytes(6).toString('hex')}`;

  before(async () => {
    await admin((client) => client.query(`CREATE ROLE ${role} LOGIN NOCREATEDB`));
  });
  after(async () => {
    await admin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await client.query(`DROP ROLE IF EXISTS ${role}`);
    });
  });

  test('a role that may create databases: serve creates it and serves; the CLI then uses it', { timeout: 60_000 }, async () => {
    assert.equal(await databaseExists(database), false);
    const server = await spawnServe({ DATABASE_URL: urlFor(database), VERDICT_SEED_EXAMPLES: 'false' });
    try {
      assert.equal((await call(server.url, 'GET', '/health/ready')).status, 200);
      assert.match(server.stdout(), new RegExp(`"database":"${database}","msg":"created the database named in DATABASE_URL"`));
    } finally {
      assert.equal(await server.stop(), 0);
    }
    assert.equal(await databaseExists(database), true);
    const created = await runCli(['space', 'create', 'second', '--json'], { DATABASE_URL: urlFor(database) });
    assert.equal(created.code, 0, created.stderr);
    assert.equal((JSON.parse(created.stdout) as { space: string }).space, 'second');
  });

  test('a role without CREATEDB: one line naming the database and how to create it, exit code 1', { timeout: 60_000 }, async () => {
    const missing = `verdict_test_missing_${randomBytes(6).toString('hex')}`;
    const result = await runCli(['serve', '--port', '0', '--host', '127.0.0.1'], { DATABASE_URL: urlFor(missing, role) });
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, new RegExp(`^verdict: database "${missing}" does not exist on PostgreSQL .* role "${role}" may not create it`));
    assert.match(lines[0]!, new RegExp(`createdb -h \\S+ -p \\d+ -O ${role} ${missing}`));
    assert.match(lines[0]!, new RegExp(`CREATE DATABASE "${missing}" OWNER "${role}"`));
    assert.doesNotMatch(result.stderr, /internal error/);
    assert.equal(await databaseExists(missing), false);

    // Following the advice is enough: created as told, the role without CREATEDB migrates and works in it.
    const advice = /`(CREATE DATABASE [^`]+);`/.exec(lines[0]!)![1]!;
    await admin((client) => client.query(advice));
    try {
      const created = await runCli(['space', 'create', 'after-advice', '--json'], { DATABASE_URL: urlFor(missing, role) });
      assert.equal(created.code, 0, created.stderr);
    } finally {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${missing} WITH (FORCE)`));
    }
  });
});
