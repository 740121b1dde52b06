// Migration 2026_11_001_rule_history on a database made before it (SQLite and PostgreSQL): existing keys keep
// working with no name, and the history table starts empty and usable.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verdictMigrator } from '../../src/store/migrations.ts';
import { openStore } from '../../src/store/open.ts';
import { backendOf, postgresSkip, rawDatabase } from './backends.ts';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`migration 2026_11_001_rule_history on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    test('a database at 2026_06_001_management keeps its keys (name null) and gains an empty history', { skip }, async () => {
      const backend = await backendOf(kind);
      try {
        const db = rawDatabase(backend);
        const migrator = verdictMigrator(db);
        const { error } = await migrator.migrateTo('2026_06_001_management');
        assert.equal(error, undefined);
        await db.insertInto('spaces').values({ name: 'old', created_at: '2026-01-01T00:00:00.000Z' }).execute();
        await db.insertInto('api_keys').values({ id: 'k1', space: 'old', type: 'management', hash: 'c'.repeat(64), created_at: '2026-01-01T00:00:00.000Z', revoked_at: null }).execute();
        await db.destroy();

        const store = await openStore(backend.url);
        try {
          assert.deepEqual((await store.keys.list('old')).map((k) => [k.id, k.name]), [['k1', null]]);
          assert.deepEqual(await store.management.read('old', (tx) => tx.history('any')), []);
          await store.management.transaction('old', (tx) => tx.appendHistory([{ ruleId: 'r', version: 1, at: '2026-11-01T00:00:00.000Z', action: 'create', by: null }]));
          assert.equal((await store.management.read('old', (tx) => tx.history('r'))).length, 1);
        } finally {
          await store.close();
        }
      } finally {
        await backend.cleanup();
      }
    });
  });
}
