// The dispatcher's schedule over a real (SQLite) store with a moved clock and a scripted sender (issue 27): a failed
// attempt is due again after the base delay, then after twice that, and so on; once the next attempt would fall past
// WEBHOOKS_RETRY_HOURS after the event the delivery is failed; a delivery that waited past its window (its webhook
// disabled) is failed without being sent and without counting against the webhook.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { WebhookDispatcher } from '../../src/service/webhooks/dispatcher.ts';
import type { SendRequest, SendResult } from '../../src/service/webhooks/sender.ts';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const HOUR = 3_600_000;
const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

let backend: Backend;
let store: KyselyStore;
let now = T0;
const sent: SendRequest[] = [];
let answer: SendResult = { statusCode: 500, error: 'the receiver answered HTTP 500', delivered: false };
let dispatcher: WebhookDispatcher;

before(async () => {
  backend = sqliteBackend();
  store = await openStore(backend.url);
  await store.spaces.create('s', []);
  const at = new Date(T0).toISOString();
  await store.webhooks.insert({ id: 'wh', space: 's', url: 'https://example.com/in', events: ['*'], secret: 'k', enabled: true, consecutiveFailures: 0, disabledReason: null, createdAt: at, updatedAt: at });
  const config = loadConfig({ WEBHOOKS_RETRY_BASE_MS: '60000', WEBHOOKS_RETRY_HOURS: '3', WEBHOOKS_DISABLE_AFTER: '1000' }).webhooks;
  dispatcher = new WebhookDispatcher({
    store: store.webhooks,
    clock: () => now,
    config,
    send: (request) => { sent.push(request); return Promise.resolve(answer); },
    log: silent,
  });
});

after(async () => {
  await store?.close();
  await backend?.cleanup();
});

async function only() {
  const [delivery] = (await store.webhooks.deliveries('s', { limit: 10 })).items;
  return delivery!;
}

test('failed attempts are due again after 1, 2, 4 ... minutes, at most an hour apart, until the retry window ends', async () => {
  await store.activity.append('s', [{ at: new Date(T0).toISOString(), actor: { kind: 'cli', id: 'cli', name: 'cli' }, action: 'key.create' }]);
  const gaps: number[] = [];
  for (let attempt = 1; attempt < 100; attempt++) {
    assert.equal(await dispatcher.dispatchOnce(), 1, `attempt ${attempt} is due`);
    const delivery = await only();
    if (delivery.status === 'failed') break;
    assert.equal(await dispatcher.dispatchOnce(), 0, 'not due again before its time');
    gaps.push((Date.parse(delivery.nextAt) - now) / 60_000);
    now = Date.parse(delivery.nextAt);
  }
  assert.deepEqual(gaps, [1, 2, 4, 8, 16, 32, 60], 'doubling from the base, capped at an hour; the next would fall past 3 hours after the event');
  const failed = await only();
  assert.deepEqual([failed.status, failed.attempts], ['failed', 8]);
  assert.equal(sent.length, 8);
  assert.equal(new Set(sent.map((s) => s.deliveryId)).size, 1);
});

test('a delivery that waited past its window while its webhook was disabled is failed unsent, not counted', async () => {
  await store.webhooks.update('s', 'wh', { enabled: false, updatedAt: new Date(now).toISOString() });
  await store.activity.append('s', [{ at: new Date(now).toISOString(), actor: { kind: 'cli', id: 'cli', name: 'cli' }, action: 'key.revoke' }]);
  // Disabled hooks get no new deliveries: this event has none. Re-enable, then write one and let it age.
  assert.equal((await store.webhooks.deliveries('s', { limit: 10 })).items.length, 1);
  await store.webhooks.update('s', 'wh', { enabled: true, updatedAt: new Date(now).toISOString() });
  await store.activity.append('s', [{ at: new Date(now).toISOString(), actor: { kind: 'cli', id: 'cli', name: 'cli' }, action: 'key.revoke' }]);
  await store.webhooks.update('s', 'wh', { enabled: false, updatedAt: new Date(now).toISOString() });
  now += 4 * HOUR;
  await store.webhooks.update('s', 'wh', { enabled: true, updatedAt: new Date(now).toISOString() });
  const before = sent.length;
  answer = { statusCode: 200, error: null, delivered: true };
  assert.equal(await dispatcher.dispatchOnce(), 1);
  assert.equal(sent.length, before, 'not sent');
  const [late] = (await store.webhooks.deliveries('s', { limit: 10 })).items.filter((d) => d.eventType === 'key.revoked');
  assert.equal(late!.status, 'failed');
  assert.match(late!.lastError ?? '', /retry window ended while the webhook was disabled/);
  assert.equal((await store.webhooks.get('s', 'wh'))!.consecutiveFailures, 0, 'no fault of the receiver');
});
