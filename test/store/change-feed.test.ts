// Cross-process change delivery: a write through one store reaches another store's feed (LISTEN/NOTIFY on
// PostgreSQL, data_version polling on SQLite); a lost listener connection marks the feed not live and says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import { openStore } from '../../src/store/open.ts';
import { PostgresChangeFeed } from '../../src/store/postgres-change-feed.ts';
import type { ChangeEvent, Store } from '../../src/store/ports.ts';
import { postgresBackend, postgresSkip, sqliteBackend } from './backends.ts';

// A notification that never comes fails the test instead of stalling the suite: a wait for an event gives up after
// a minute, and each test has a time limit (a listener that loses its connection under heavy load misses
// notifications by design and says so with `all`). Both are guards, not the behaviour: what a test proves is which
// event arrives, never how soon; 120 s covers two stores opened and migrated at a load average of 8 on two cores.
function recorder(store: Store): { events: ChangeEvent[]; next: (match: (e: ChangeEvent) => boolean) => Promise<ChangeEvent> } {
  const events: ChangeEvent[] = [];
  const emitter = new EventEmitter();
  store.changes.subscribe((e) => {
    events.push(e);
    emitter.emit('event', e);
  });
  return {
    events,
    next: async (match) => {
      // Rejects when no such event comes (an error that lets the test's `finally` close the stores, whose open
      // connections would otherwise keep the test file running after its time limit).
      const signal = AbortSignal.timeout(60_000);
      for (;;) {
        const [event] = (await once(emitter, 'event', { signal })) as [ChangeEvent];
        if (match(event)) return event;
      }
    },
  };
}

const doc = { ruleId: 'r1', version: 1, name: 'R', ruleAlias: 'r', type: 'decision-table', status: 'published' };

// The event names the rule: only a notification carries that (a reconnect or SQLite's polling say `all`).
test('PostgreSQL: a rule write on one instance reaches the other through NOTIFY', { skip: await postgresSkip(), timeout: 120_000 }, async () => {
  const backend = await postgresBackend();
  const writer = await openStore(backend.url, { listen: true });
  const reader = await openStore(backend.url, { listen: true });
  try {
    assert.equal(reader.changes.live, true);
    await writer.spaces.create('s', []);
    const seen = recorder(reader);
    const arrival = seen.next((e) => e.kind === 'rule');
    await writer.rules.put('s', [doc]);
    assert.deepEqual(await arrival, { kind: 'rule', space: 's', ruleId: 'r1' });

    const keyEvent = seen.next((e) => e.kind === 'key');
    await writer.keys.insert({ id: 'k', space: 's', type: 'solver', hash: 'a'.repeat(64), createdAt: '2026-01-01T00:00:00.000Z', revokedAt: null });
    assert.deepEqual(await keyEvent, { kind: 'key', space: 's' });
  } finally {
    await writer.close();
    await reader.close();
    await backend.cleanup();
  }
});

test('PostgreSQL: a lost listener connection emits "all", turns the feed not live, and reconnects', { skip: await postgresSkip(), timeout: 120_000 }, async () => {
  const backend = await postgresBackend();
  const store = await openStore(backend.url, { listen: true });
  try {
    const feed = store.changes as PostgresChangeFeed;
    assert.ok(feed instanceof PostgresChangeFeed);
    const seen = recorder(store);
    const dropped = seen.next((e) => e.kind === 'all');
    feed.simulateConnectionLoss();
    await dropped;
    assert.equal(feed.live, false);
    await seen.next((e) => e.kind === 'all' && feed.live);
    assert.equal(feed.live, true);
  } finally {
    await store.close();
    await backend.cleanup();
  }
});

// A compile of a large table can hold the event loop for seconds; the ping's answer then waits on the socket while
// its timer has expired. That is not a lost connection: losing it would empty every cache of the process.
test('PostgreSQL: an event loop held past the ping timeout is not taken for a lost listener', { skip: await postgresSkip(), timeout: 120_000 }, async () => {
  const backend = await postgresBackend();
  // A ping every millisecond, so one is on the wire whenever the loop is held (the hold runs in the check phase,
  // right after a poll phase that did not wait, as a request's compile runs right after its socket was read).
  const feed = new PostgresChangeFeed(backend.url, undefined, 1, 300);
  const events: ChangeEvent[] = [];
  try {
    await feed.start();
    feed.subscribe((event) => events.push(event));
    for (let round = 0; round < 8 && events.length === 0; round++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await new Promise<void>((resolve) => setImmediate(() => {
        const until = Date.now() + 400;
        while (Date.now() < until);
        resolve();
      }));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(events, [], 'no "all": the listener was never dropped');
    assert.equal(feed.live, true);
  } finally {
    await feed.close();
    await backend.cleanup();
  }
});

// The server's store never writes here, so an event on its feed can only come from the other connection's commit.
test('SQLite: a write by another process (connection) is noticed through data_version', { timeout: 120_000 }, async () => {
  const backend = sqliteBackend();
  const server = await openStore(backend.url, { listen: true });
  const cli = await openStore(backend.url);
  try {
    const seen = recorder(server);
    await cli.spaces.create('s', []);
    const arrival = seen.next((e) => e.kind === 'all');
    await cli.rules.put('s', [doc]);
    assert.deepEqual(await arrival, { kind: 'all' });
  } finally {
    await cli.close();
    await server.close();
    await backend.cleanup();
  }
});
