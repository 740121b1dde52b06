// Two server processes on one PostgreSQL database: a write through one instance is what the other solves next
// (LISTEN/NOTIFY invalidation of its compiled-rule cache); a revoked key stops working on both.
//
// Nothing but a notification (or a lost listener connection) ever empties the other instance's cache, which holds
// a compiled version for as long as the process runs: the other instance answering the new content at all is the
// proof. How fast it does is a benchmark's question; on a loaded machine it is no test's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PostgresChangeFeed } from '../../src/store/postgres-change-feed.ts';
import { postgresBackend, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { messageTable } from './fixtures.ts';
import { call, eventually, startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';
import { spawnServe } from './process.ts';
import type { ServeProcess } from './process.ts';

const skip = await postgresSkip();

describe('two instances on one PostgreSQL', { skip }, () => {
  let backend: Backend;
  let a: TestServer;
  let b: ServeProcess;

  before(async () => {
    backend = await postgresBackend();
    a = await startTestServer({ backend });
    await a.running.services.rulesIO.importContainer(a.space.space, [messageTable('rule-live', 'live', 1, 'v1')]);
    b = await spawnServe({ DATABASE_URL: backend.url });
  });
  after(async () => {
    await b?.stop();
    await a?.close();
    await backend?.cleanup();
  });

  const solveOn = async (url: string, path = '/rule/solve/live') =>
    (await call(url, 'POST', path, { key: a.space.solverKey, body: { data: {} } })).json;

  /** Solves on `url` until it answers `expected` (eventually's guard ends a wait for an answer that never comes). */
  async function until(url: string, expected: unknown, path?: string): Promise<void> {
    await eventually(async () => {
      const body = await solveOn(url, path);
      return JSON.stringify(body) === JSON.stringify(expected) ? true : undefined;
    });
  }

  test('a new published version written through one instance is solved by the other', async () => {
    assert.deepEqual(await solveOn(b.url), [{ message: 'v1' }], 'B compiled and cached v1');
    assert.deepEqual(await solveOn(b.url), [{ message: 'v1' }]);

    await a.running.store.rules.put(a.space.space, [messageTable('rule-live', 'live', 2, 'v2')]);
    assert.deepEqual(await solveOn(a.url), [{ message: 'v2' }], 'the writing instance sees its own write at once');
    await until(b.url, [{ message: 'v2' }]);
  });

  test('a pending version is not solved; publishing it is picked up', async () => {
    await a.running.store.rules.put(a.space.space, [messageTable('rule-live', 'live', 3, 'v3', 'pending')]);
    await until(b.url, { error: { message: 'Rule state is not published' } }, '/rule/solve/live/3');
    assert.deepEqual(await solveOn(b.url), [{ message: 'v2' }]);
    await a.running.store.rules.put(a.space.space, [messageTable('rule-live', 'live', 3, 'v3')]);
    await until(b.url, [{ message: 'v3' }]);
  });

  test('a key revoked through one instance is refused by the other', async () => {
    const extra = await a.running.services.keys.create(a.space.space, 'solver');
    const solveWith = () => call(b.url, 'POST', '/rule/solve/live', { key: extra.key, body: { data: {} } });
    assert.equal((await solveWith()).status, 200);
    await a.running.services.keys.revoke(extra.id);
    // B checked the key before and keeps it cached until a key change is notified.
    await eventually(async () => ((await solveWith()).status === 401 ? true : undefined));
  });
});

describe('lost LISTEN connection', { skip }, () => {
  let backend: Backend;
  let server: TestServer;

  before(async () => {
    backend = await postgresBackend();
    server = await startTestServer({ backend });
    await server.running.services.rulesIO.importContainer(server.space.space, [messageTable('rule-x', 'x', 1, 'cached')]);
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  test('drops the whole cache and keeps nothing until the listener is back; solving still works', async () => {
    const { cache } = server.running.services;
    const feed = server.running.store.changes as PostgresChangeFeed;
    assert.deepEqual((await server.solve('/rule/solve/x', { data: {} })).json, [{ message: 'cached' }]);
    assert.equal(cache.size, 1);

    feed.simulateConnectionLoss();
    assert.equal(cache.size, 0, 'the cache is emptied at once');
    assert.equal(feed.live, false);
    assert.deepEqual((await server.solve('/rule/solve/x', { data: {} })).json, [{ message: 'cached' }]);
    if (!feed.live) assert.equal(cache.size, 0, 'nothing retained while the listener is down');

    await eventually(async () => (feed.live ? true : undefined));
    await server.solve('/rule/solve/x', { data: {} });
    assert.equal(cache.size, 1, 'caching resumes once the listener is back');
  });
});
