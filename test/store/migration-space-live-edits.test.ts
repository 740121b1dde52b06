// Migration 2026_11_026_space_live_edits on a database made before it (SQLite and PostgreSQL): existing spaces
// allow live edits (as before the setting existed), the setting can be changed, and the migration goes back down.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verdictMigrator } from '../../src/store/migrations.ts';
import { openStore } from '../../src/store/open.ts';
import { backendOf, postgresSkip, rawDatabase } from './backends.ts';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`migration 2026_11_026_space_live_edits on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    test('an existing space allows live edits, can forbid them, and the column goes away on the way down', { skip }, async () => {
      const backend = await backendOf(kind);
      const connect = () => rawDatabase(backend);
      try {
        const db = connect();
        assert.equal((await verdictMigrator(db).migrateTo('2026_11_018_audit_error_kind')).error, undefined);
        await db.insertInto('spaces').values({ name: 'old', created_at: '2026-01-01T00:00:00.000Z' }).execute();
        await db.destroy();

        const store = await openStore(backend.url);
        try {
          assert.deepEqual(await store.spaces.settings('old'), { liveEdits: 'allowed', approvals: false });
          assert.equal(await store.spaces.setLiveEdits('old', 'forbidden'), true);
          assert.deepEqual(await store.spaces.settings('old'), { liveEdits: 'forbidden', approvals: false });
          assert.equal(await store.spaces.setLiveEdits('missing', 'forbidden'), false);
          assert.equal(await store.spaces.settings('missing'), undefined);
        } finally {
          await store.close();
        }

        const down = connect();
        try {
          assert.equal((await verdictMigrator(down).migrateTo('2026_11_018_audit_error_kind')).error, undefined);
          assert.deepEqual(Object.keys(await down.selectFrom('spaces').selectAll().executeTakeFirstOrThrow()).sort(), ['created_at', 'name']);
        } finally {
          await down.destroy();
        }
      } finally {
        await backend.cleanup();
      }
    });
  });
}
