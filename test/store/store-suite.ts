// The storage conformance suite: the same assertions on SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import { ConflictError } from '../../src/store/ports.ts';
import type { AuditRecord, ChangeEvent, EncodedAuditRecord, KeyRecord } from '../../src/store/ports.ts';
import { encodeAuditRecord } from '../../src/service/audit-writer.ts';
import { backendOf, postgresSkip } from './backends.ts';
import type { Backend } from './backends.ts';

function rule(ruleId: string, version: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ruleId,
    baseId: ruleId,
    version,
    name: `Rule ${ruleId}`,
    ruleAlias: `alias-${ruleId}`,
    type: 'decision-table',
    status: 'published',
    tags: ['t1'],
    inputSchema: {},
    outputSchema: {},
    decisionTable: { columns: [], rows: [] },
    ...extra,
  };
}

function key(id: string, space: string, type: 'solver' | 'management' = 'solver'): KeyRecord {
  return { id, space, type, hash: `${id}-hash`.padEnd(64, '0'), createdAt: '2026-01-01T00:00:00.000Z', revokedAt: null };
}

function audit(id: string, createdAt: string, extra: Partial<AuditRecord> = {}): EncodedAuditRecord {
  return encodeAuditRecord({
    id,
    space: 's1',
    correlationId: `corr-${id}`,
    ruleId: 'r1',
    ruleAlias: 'alias-r1',
    version: 1,
    ruleType: 'decision-table',
    strategy: 'STANDARD',
    input: { a: 1 },
    output: [{ b: 2 }],
    statusCode: 200,
    errorMessage: null,
    errorKind: null,
    executionTimeMs: 1.5,
    createdAt,
    expiresAt: '2026-02-01T00:00:00.000Z',
    debug: null,
    ...extra,
  });
}

export function storeSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`store on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    let backend: Backend;
    let store: KyselyStore;
    const events: ChangeEvent[] = [];

    before(async () => {
      if (skip) return;
      backend = await backendOf(kind);
      store = await openStore(backend.url);
      store.changes.subscribe((e) => events.push(e));
      await store.spaces.create('s1', [key('k1', 's1'), key('k2', 's1', 'management')]);
      await store.spaces.create('s2', []);
    });
    after(async () => {
      if (skip) return;
      await store.close();
      await backend.cleanup();
    });

    test('migrations are idempotent: opening the same database again works', { skip }, async () => {
      const again = await openStore(backend.url);
      await again.ping();
      assert.equal((await again.spaces.list()).length, 2);
      await again.close();
    });

    test('a space is created once, with its keys, in one transaction', { skip }, async () => {
      assert.equal(await store.spaces.create('s1', [key('k9', 's1')]), false);
      assert.equal(await store.keys.get('k9'), undefined, 'no key written for a space that already existed');
      assert.deepEqual((await store.keys.list('s1')).map((k) => k.id).sort(), ['k1', 'k2']);
      assert.equal((await store.spaces.get('s1'))?.name, 's1');
      assert.equal(await store.spaces.get('nope'), undefined);
    });

    test('rules: put, get, versions, heads; columns follow the document', { skip }, async () => {
      await store.rules.put('s1', [rule('r1', 1), rule('r1', 2, { status: 'pending', locked: true, tags: ['x', 'y'] })]);
      const v2 = await store.rules.get('s1', 'r1', 2);
      assert.equal(v2?.status, 'pending');
      assert.equal(v2?.locked, true);
      assert.deepEqual(v2?.tags, ['x', 'y']);
      assert.equal(v2?.alias, 'alias-r1');
      assert.equal(v2?.document.name, 'Rule r1');
      assert.deepEqual((await store.rules.versions('s1', 'r1')).map((r) => r.version), [1, 2]);
      const heads = await store.rules.listHeads('s1');
      assert.deepEqual(heads.map((h) => [h.ruleId, h.version, h.status]), [['r1', 1, 'published'], ['r1', 2, 'pending']]);
      assert.equal('document' in heads[0]!, false, 'heads carry no document');
      assert.equal(await store.rules.get('s2', 'r1', 1), undefined, 'another space does not see the rule');
    });

    test('rules: put replaces an existing version; insert refuses one', { skip }, async () => {
      await store.rules.put('s1', [rule('r1', 1, { name: 'Renamed' })]);
      assert.equal((await store.rules.get('s1', 'r1', 1))?.name, 'Renamed');
      await assert.rejects(store.rules.insert('s1', rule('r1', 1)), ConflictError);
      const inserted = await store.rules.insert('s1', rule('r1', 3));
      assert.equal(inserted.version, 3);
    });

    test('rules: a batch put is atomic', { skip }, async () => {
      await assert.rejects(store.rules.put('s1', [rule('atomic', 1), { name: 'no id' }]));
      assert.equal(await store.rules.get('s1', 'atomic', 1), undefined);
    });

    test('rules: delete one version or all', { skip }, async () => {
      await store.rules.put('s1', [rule('gone', 1), rule('gone', 2), rule('gone', 3)]);
      assert.equal(await store.rules.delete('s1', 'gone', 2), 1);
      assert.deepEqual((await store.rules.versions('s1', 'gone')).map((r) => r.version), [1, 3]);
      assert.equal(await store.rules.delete('s1', 'gone'), 2);
      assert.deepEqual(await store.rules.versions('s1', 'gone'), []);
    });

    test('rule writes emit change events after commit', { skip }, async () => {
      events.length = 0;
      await store.rules.put('s2', [rule('ev', 1)]);
      await store.rules.delete('s2', 'ev');
      assert.deepEqual(events, [
        { kind: 'rule', space: 's2', ruleId: 'ev' },
        { kind: 'rule', space: 's2', ruleId: 'ev' },
      ]);
    });

    test('keys: find by hash, revoke once', { skip }, async () => {
      const found = await store.keys.findByHash(key('k1', 's1').hash);
      assert.equal(found?.id, 'k1');
      assert.equal(found?.type, 'solver');
      assert.equal(await store.keys.revoke('k1', '2026-01-02T00:00:00.000Z'), true);
      assert.equal(await store.keys.revoke('k1', '2026-01-03T00:00:00.000Z'), false);
      assert.equal((await store.keys.get('k1'))?.revokedAt, '2026-01-02T00:00:00.000Z');
      assert.equal(await store.keys.revoke('missing', '2026-01-02T00:00:00.000Z'), false);
      await store.keys.insert(key('k3', 's2'));
      assert.equal((await store.keys.list('s2')).length, 1);
    });

    test('audit: insert, filter, newest first, cursor pages, expired hidden and deleted', { skip }, async () => {
      await store.audits.insertMany([
        audit('a1', '2026-01-01T10:00:00.000Z'),
        audit('a2', '2026-01-01T11:00:00.000Z', { statusCode: 400, errorMessage: 'Unknown rule or rule version', output: null }),
        audit('a3', '2026-01-01T12:00:00.000Z', { ruleId: 'r2', ruleAlias: 'other' }),
        audit('a4', '2026-01-01T12:00:00.000Z', { expiresAt: '2026-01-01T13:00:00.000Z' }),
        audit('a5', '2026-01-01T09:00:00.000Z', { space: 's2' }),
      ]);
      const now = '2026-01-01T12:30:00.000Z';
      const all = await store.audits.list('s1', { limit: 10 }, now);
      assert.deepEqual(all.items.map((a) => a.id), ['a4', 'a3', 'a2', 'a1']);
      assert.deepEqual(all.items[0]!.input, { a: 1 });
      assert.deepEqual(all.items[3]!.output, [{ b: 2 }]);
      assert.equal(all.items[2]!.output, null);
      assert.equal(all.nextCursor, null);

      const page1 = await store.audits.list('s1', { limit: 2 }, now);
      assert.deepEqual(page1.items.map((a) => a.id), ['a4', 'a3']);
      assert.ok(page1.nextCursor);
      const page2 = await store.audits.list('s1', { limit: 2, cursor: page1.nextCursor }, now);
      assert.deepEqual(page2.items.map((a) => a.id), ['a2', 'a1']);
      assert.equal(page2.nextCursor, null);

      assert.deepEqual((await store.audits.list('s1', { limit: 10, statusCode: 400 }, now)).items.map((a) => a.id), ['a2']);
      assert.deepEqual((await store.audits.list('s1', { limit: 10, ruleId: 'other' }, now)).items.map((a) => a.id), ['a3']);
      assert.deepEqual((await store.audits.list('s1', { limit: 10, correlationId: 'corr-a1' }, now)).items.map((a) => a.id), ['a1']);
      assert.deepEqual(
        (await store.audits.list('s1', { limit: 10, from: '2026-01-01T10:30:00.000Z', to: '2026-01-01T11:30:00.000Z' }, now)).items.map((a) => a.id),
        ['a2'],
      );

      const later = '2026-01-01T13:30:00.000Z';
      assert.deepEqual((await store.audits.list('s1', { limit: 10 }, later)).items.map((a) => a.id), ['a3', 'a2', 'a1'], 'a4 expired');
      assert.equal(await store.audits.deleteExpired(later), 1);
      assert.equal(await store.audits.deleteExpired(later), 0);
      assert.equal(await store.audits.deleteExpired('2026-03-01T00:00:00.000Z'), 4);
    });

    test('kafka bindings: bind, list, find by request topic, unbind', { skip }, async () => {
      await store.kafka.bind({ space: 's1', company: 'acme', requestTopic: 'acme-1-request', responseTopic: 'acme-1-response', createdAt: '2026-01-01T00:00:00.000Z' });
      assert.equal((await store.kafka.findByRequestTopic('acme-1-request'))?.space, 's1');
      assert.equal(await store.kafka.findByRequestTopic('nope'), undefined);
      assert.equal((await store.kafka.list('s1')).length, 1);
      assert.equal((await store.kafka.list('s2')).length, 0);
      assert.equal(await store.kafka.unbind('acme-1-request'), true);
      assert.equal((await store.kafka.list()).length, 0);
    });
  });
}
