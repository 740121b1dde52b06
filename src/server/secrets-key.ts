// The keys that seal stored secrets (docs/decisions/webhook-secrets-at-rest.md): SECRETS_KEY when set; otherwise,
// for an embedded SQLite database, a key generated once into `<database file>.key` (mode 600), so a copy of the
// database alone does not carry the secrets. A PostgreSQL store without SECRETS_KEY keeps them as they are. Once
// SECRETS_KEY is set beside an existing key file, the file's key becomes a previous key, so nothing is lost.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Config } from '../config.ts';
import type { SecretsKeys } from '../service/index.ts';
import { sqlitePath } from '../store/open.ts';

export interface ResolvedSecretsKeys extends SecretsKeys {
  /** Where the current key came from, for the start log. */
  source: 'SECRETS_KEY' | 'key file' | 'none';
  file?: string;
}

function readKeyFile(file: string): Buffer {
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) {
    throw new Error(`${file} is not a secrets key (64 hex digits); restore it, or set SECRETS_KEY to the key it held`);
  }
  return Buffer.from(text, 'hex');
}

/** The key file of the SQLite database of DATABASE_URL; undefined for PostgreSQL and in-memory SQLite. */
function keyFileOf(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const database = sqlitePath(databaseUrl);
  return database === ':memory:' ? undefined : `${database}.key`;
}

/** Call after the store is open (it creates the database's folder). */
export function resolveSecretsKeys(config: Pick<Config, 'secretsKey' | 'secretsKeysPrevious' | 'databaseUrl'>): ResolvedSecretsKeys {
  const file = keyFileOf(config.databaseUrl);
  if (config.secretsKey !== undefined) {
    const fileKey = file !== undefined && existsSync(file) ? [readKeyFile(file)] : [];
    return { current: config.secretsKey, previous: [...config.secretsKeysPrevious, ...fileKey], source: 'SECRETS_KEY' };
  }
  if (file === undefined) return { current: undefined, previous: [], source: 'none' };
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // An earlier start (or another process) made it: use that one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { current: readKeyFile(file), previous: config.secretsKeysPrevious, source: 'key file', file };
}
