// Webhook signing secrets at rest (docs/decisions/webhook-secrets-at-rest.md): sealed with AES-256-GCM under the
// secrets key and bound to their webhook; earlier keys still open what they sealed and the start seals it again;
// the key comes from SECRETS_KEY, or from a key file made once beside an embedded SQLite database.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { resolveSecretsKeys } from '../../src/server/secrets-key.ts';
import { SecretBox, SecretUnreadableError } from '../../src/service/webhooks/secret-box.ts';

const SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

describe('the secret box', () => {
  const current = randomBytes(32);
  const earlier = randomBytes(32);

  test('a sealed secret opens with its key and webhook id, and does not show the secret', () => {
    const box = new SecretBox(current);
    const sealed = box.seal(SECRET, 'wh_1');
    assert.match(sealed, /^enc:v1:[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes(SECRET.slice(6)), 'the stored form does not carry the secret');
    assert.notEqual(box.seal(SECRET, 'wh_1'), sealed, 'a fresh IV each time');
    assert.equal(box.open(sealed, 'wh_1'), SECRET);
    assert.equal(box.resealed(sealed, 'wh_1'), undefined, 'already under the current key');
  });

  test('a sealed value copied onto another webhook, or read with another key, does not open', () => {
    const sealed = new SecretBox(current).seal(SECRET, 'wh_1');
    assert.throws(() => new SecretBox(current).open(sealed, 'wh_2'), SecretUnreadableError);
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'wh_1'), /encrypted under a key this instance does not have/);
    assert.throws(() => new SecretBox(undefined).open(sealed, 'wh_1'), /this instance has no SECRETS_KEY/);
    assert.throws(() => new SecretBox(current).open('enc:v1:AAAA', 'wh_1'), /damaged/);
  });

  test('an earlier key opens what it sealed, and resealing moves it under the current key', () => {
    const old = new SecretBox(earlier).seal(SECRET, 'wh_1');
    const rotated = new SecretBox(current, [earlier]);
    assert.equal(rotated.open(old, 'wh_1'), SECRET);
    const resealed = rotated.resealed(old, 'wh_1');
    assert.ok(resealed !== undefined);
    assert.equal(new SecretBox(current).open(resealed, 'wh_1'), SECRET, 'the current key alone opens it now');
  });

  test('without a key secrets stay as they are; a secret kept as it is gets sealed once a key exists', () => {
    assert.equal(new SecretBox(undefined).seal(SECRET, 'wh_1'), SECRET);
    assert.equal(new SecretBox(undefined).resealed(SECRET, 'wh_1'), undefined);
    const box = new SecretBox(current);
    assert.equal(box.open(SECRET, 'wh_1'), SECRET);
    assert.equal(box.open(box.resealed(SECRET, 'wh_1')!, 'wh_1'), SECRET);
  });
});

describe('the secrets key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-secrets-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('SECRETS_KEY and SECRETS_KEY_PREVIOUS take 32 bytes as hex or base64, and name the variable otherwise', () => {
    const key = randomBytes(32);
    assert.deepEqual(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey, key);
    assert.deepEqual(loadConfig({ SECRETS_KEY: key.toString('base64') }).secretsKey, key);
    assert.deepEqual(loadConfig({ SECRETS_KEY_PREVIOUS: `${key.toString('hex')}, ${key.toString('base64url')}` }).secretsKeysPrevious, [key, key]);
    assert.equal(loadConfig({}).secretsKey, undefined);
    assert.throws(() => loadConfig({ SECRETS_KEY: 'too-short' }), (e: unknown) => e instanceof ConfigError && e.variable === 'SECRETS_KEY' && /32 bytes/.test(e.message));
    assert.throws(() => loadConfig({ SECRETS_KEY_PREVIOUS: randomBytes(16).toString('hex') }), /SECRETS_KEY_PREVIOUS must be 32 bytes/);
  });

  test('an embedded SQLite database gets a key file once, readable by its owner only, and keeps it', () => {
    const databaseUrl = `sqlite:${join(dir, 'a.db')}`;
    const first = resolveSecretsKeys({ databaseUrl, secretsKey: undefined, secretsKeysPrevious: [] });
    assert.equal(first.source, 'key file');
    assert.equal(first.file, join(dir, 'a.db.key'));
    assert.equal(statSync(first.file).mode & 0o777, 0o600);
    const again = resolveSecretsKeys({ databaseUrl, secretsKey: undefined, secretsKeysPrevious: [] });
    assert.deepEqual(again.current, first.current, 'the same key on the next start');
    assert.equal(readFileSync(first.file, 'utf8').trim(), first.current!.toString('hex'));

    const configured = randomBytes(32);
    const withKey = resolveSecretsKeys({ databaseUrl, secretsKey: configured, secretsKeysPrevious: [] });
    assert.equal(withKey.source, 'SECRETS_KEY');
    assert.deepEqual([withKey.current, withKey.previous], [configured, [first.current]], 'the file key still opens what it sealed');
  });

  test('PostgreSQL and in-memory SQLite have no key file; a damaged key file is an error naming it', () => {
    assert.deepEqual(resolveSecretsKeys({ databaseUrl: 'postgres://x@127.0.0.1/db', secretsKey: undefined, secretsKeysPrevious: [] }).current, undefined);
    assert.deepEqual(resolveSecretsKeys({ databaseUrl: 'sqlite::memory:', secretsKey: undefined, secretsKeysPrevious: [] }).current, undefined);
    writeFileSync(join(dir, 'b.db.key'), 'not a key\n');
    assert.throws(() => resolveSecretsKeys({ databaseUrl: `sqlite:${join(dir, 'b.db')}`, secretsKey: undefined, secretsKeysPrevious: [] }), /b\.db\.key is not a secrets key/);
  });
});
