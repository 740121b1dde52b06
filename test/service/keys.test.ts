// API keys: format, hashing at rest, bearer parsing, type checks, revocation seen by a running instance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerToken, generateKey, hashKey, KeyService } from '../../src/service/keys.ts';
import { ServiceError } from '../../src/service/errors.ts';
import { SpaceService } from '../../src/service/spaces.ts';
import { openStore } from '../../src/store/open.ts';
import { sqliteBackend } from '../store/backends.ts';

test('keys are random, typed by prefix, and only their SHA-256 is kept', () => {
  const a = generateKey('s', 'solver', '2026-01-01T00:00:00.000Z');
  const b = generateKey('s', 'management', '2026-01-01T00:00:00.000Z');
  assert.match(a.key, /^vsk_[A-Za-z0-9_-]{43}$/);
  assert.match(b.key, /^vmk_[A-Za-z0-9_-]{43}$/);
  assert.match(a.id, /^key_/);
  assert.notEqual(a.key, generateKey('s', 'solver', '').key);
  assert.equal(a.record.hash, hashKey(a.key));
  assert.equal(JSON.stringify(a.record).includes(a.key), false, 'the stored record never contains the key');
});

test('bearerToken reads only the Bearer scheme', () => {
  assert.equal(bearerToken('Bearer abc'), 'abc');
  assert.equal(bearerToken('bearer   abc  '), 'abc');
  assert.equal(bearerToken('Basic abc'), undefined);
  assert.equal(bearerToken('Bearer'), undefined);
  assert.equal(bearerToken('Bearer a b'), undefined);
  assert.equal(bearerToken(undefined), undefined);
});

test('authenticate: right type passes; wrong type, unknown and revoked fail; revocation by another process applies', async () => {
  const backend = sqliteBackend();
  const server = await openStore(backend.url, { listen: true });
  const cli = await openStore(backend.url);
  try {
    const clock = () => Date.now();
    const keys = new KeyService(server, clock);
    const created = await new SpaceService(server, clock).create('s');
    const principal = await keys.authenticate(`Bearer ${created.solverKey}`, 'solver');
    assert.deepEqual(principal, {
      keyId: created.solverKeyId, space: 's', type: 'solver', keyName: null, role: 'solver',
      actor: { kind: 'key', id: created.solverKeyId, name: created.solverKeyId },
    });
    const invalid = (promise: Promise<unknown>, kind: string, message?: string) =>
      assert.rejects(promise, (err: unknown) => err instanceof ServiceError && err.code === kind && (message === undefined || err.message === message));
    // A solver key on the management API says what it is (a management key on the solver API keeps the contract's
    // message, below: checked once the management key's cache state has been asserted).
    await invalid(keys.authenticate(`Bearer ${created.solverKey}`, 'management'), 'invalid-key', 'This is a solver key; the management API needs a management key');
    await invalid(keys.authenticate('Bearer vmk_unknown', 'management'), 'invalid-key', 'Invalid API key');
    await invalid(keys.authenticate('Bearer vsk_unknown', 'solver'), 'invalid-key');
    await invalid(keys.authenticate(undefined, 'solver'), 'unauthenticated');

    // The synchronous check answers from the cache only, with the same refusals.
    assert.deepEqual(keys.authenticateCached(`Bearer ${created.solverKey}`, 'solver'), principal);
    assert.equal(keys.authenticateCached(`Bearer ${created.managementKey}`, 'management'), undefined, 'not authenticated yet: not cached');
    await invalid(keys.authenticate(`Bearer ${created.managementKey}`, 'solver'), 'invalid-key', 'Invalid API key');
    assert.throws(() => keys.authenticateCached(`Bearer ${created.solverKey}`, 'management'), (err: unknown) => err instanceof ServiceError && err.code === 'invalid-key' && /solver key/.test(err.message));
    assert.throws(() => keys.authenticateCached('Basic abc', 'solver'), (err: unknown) => err instanceof ServiceError && err.code === 'unauthenticated');
    // A connection that presents the key it presented before; another header on it is checked afresh.
    const connection = {};
    assert.deepEqual(keys.authenticateCached(`Bearer ${created.solverKey}`, 'solver', connection), principal);
    assert.deepEqual(keys.authenticateCached(`Bearer ${created.solverKey}`, 'solver', connection), principal);
    assert.equal(keys.authenticateCached('Bearer vsk_unknown', 'solver', connection), undefined);
    assert.throws(() => keys.authenticateCached(`Bearer ${created.solverKey}`, 'management', connection), (err: unknown) => err instanceof ServiceError && err.code === 'invalid-key');

    // The key is cached now; a revocation written by another process (the CLI) must still apply: once the server's
    // feed polls SQLite's data_version (every 250 ms) and sees the other connection's commit. Nothing else empties
    // the cache, so the refusal coming at all is the proof; the guard only ends a wait for one that never comes.
    assert.equal(await new KeyService(cli, clock).revoke(created.solverKeyId), true);
    const guard = Date.now() + 60_000;
    for (;;) {
      try {
        await keys.authenticate(`Bearer ${created.solverKey}`, 'solver');
      } catch (err) {
        assert.ok(err instanceof ServiceError && err.code === 'invalid-key');
        assert.equal(keys.authenticateCached(`Bearer ${created.solverKey}`, 'solver'), undefined, 'the revoked key left the cache');
        assert.equal(keys.authenticateCached(`Bearer ${created.solverKey}`, 'solver', connection), undefined, 'and no connection still holds it');
        break;
      }
      assert.ok(Date.now() < guard, 'the revocation was never seen');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await cli.close();
    await server.close();
    await backend.cleanup();
  }
});
