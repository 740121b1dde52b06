// The webhook outbox in the store (issue 27), on SQLite and PostgreSQL: a delivery commits with its event or not at
// all (a management transaction that fails leaves neither); two stores leasing at once (two instances) never get
// the same delivery; a lease that ran out is leased again (an instance that died mid-send); finished deliveries
// are purged, pending ones kept.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import type { ActivityEntry } from '../../src/store/ports.ts';
import { backendOf, postgresSkip } from './backends.ts';
import type { Backend } from './backends.ts';

const actor = { kind: 'cli', id: 'cli', name: 'cli' } as const;
const entry = (action: string, at = new Date().toISOString()): ActivityEntry => ({ at, actor, action });
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`webhook outbox on ${kind}`, { skip: kind === 'postgres' ? await postgresSkip() : false }, () => {
    let backend: Backend;
    let a: KyselyStore;
    let b: KyselyStore;

    before(async () => {
      backend = await backendOf(kind);
      a = await openStore(backend.url);
      b = await openStore(backend.url);
      assert.equal(await a.spaces.create('hooks', []), true);
      const now = new Date().toISOString();
      await a.webhooks.insert({ id: 'wh_all', space: 'hooks', url: 'https://example.com/a', events: ['*'], secret: 's', enabled: true, consecutiveFailures: 0, disabledReason: null, createdAt: now, updatedAt: now });
      await a.webhooks.insert({ id: 'wh_keys', space: 'hooks', url: 'https://example.com/k', events: ['key.created'], secret: 's', enabled: true, consecutiveFailures: 0, disabledReason: null, createdAt: now, updatedAt: now });
    });

    after(async () => {
      await a?.close();
      await b?.close();
      await backend?.cleanup();
    });

    async function pending(): Promise<Array<{ webhookId: string; eventType: string }>> {
      return (await a.webhooks.deliveries('hooks', { limit: 500 })).items.filter((d) => d.status === 'pending');
    }

    test('a delivery per subscribed webhook commits with its event, and a failed transaction leaves neither', async () => {
      await a.activity.append('hooks', [entry('key.create'), entry('settings.update')]);
      const rows = await pending();
      assert.deepEqual(rows.map((d) => `${d.webhookId}:${d.eventType}`).sort(), ['wh_all:key.created', 'wh_all:settings.updated', 'wh_keys:key.created']);

      await assert.rejects(a.management.transaction('hooks', async (tx) => {
        await tx.appendActivity([entry('rule.publish')]);
        throw new Error('the write fails after its event');
      }), /the write fails/);
      assert.equal((await a.activity.list('hooks', { limit: 50, action: 'rule.publish' })).items.length, 0);
      assert.equal((await pending()).length, 3, 'no delivery of the rolled-back event');
    });

    test('two instances leasing at once get disjoint deliveries; an expired lease is leased again', async () => {
      await a.activity.append('hooks', Array.from({ length: 20 }, () => entry('member.add')));
      const due = later(1000);
      const [first, second] = await Promise.all([a.webhooks.lease(due, later(60_000), 15), b.webhooks.lease(due, later(60_000), 15)]);
      const ids = [...first, ...second].map((l) => l.delivery.id);
      assert.equal(new Set(ids).size, ids.length, 'no delivery leased twice');
      assert.equal(ids.length, 23, 'every due delivery leased by one of them');
      assert.equal((await a.webhooks.lease(due, later(60_000), 50)).length, 0, 'leased rows are not due for anyone else');

      const afterExpiry = await b.webhooks.lease(later(120_000), later(180_000), 50);
      assert.equal(afterExpiry.length, 23, 'once their leases ran out, the rows are leased again');
    });

    test('finished deliveries are purged with their attempts; pending ones stay', async () => {
      const [one] = await a.webhooks.lease(later(300_000), later(360_000), 1);
      await a.webhooks.finish('hooks', one!.delivery.id, { at: new Date().toISOString(), statusCode: 200, error: null, delivered: true, nextAt: null, disableAfter: 10 });
      assert.equal((await a.webhooks.attempts('hooks', one!.delivery.id)).length, 1);
      const before = (await a.webhooks.deliveries('hooks', { limit: 500 })).items.length;
      assert.equal(await a.webhooks.purge(later(1000)), 1);
      assert.equal((await a.webhooks.deliveries('hooks', { limit: 500 })).items.length, before - 1);
      assert.equal((await a.webhooks.attempts('hooks', one!.delivery.id)).length, 0);
    });
  });
}
