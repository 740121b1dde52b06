// Migration 2026_11_042_job_text_parts on a database with a job in flight (SQLite and PostgreSQL): its stored inputs
// and results move over as part 0, the job is worked and read as before, and the migration goes back down.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verdictMigrator } from '../../src/store/migrations.ts';
import { openStore } from '../../src/store/open.ts';
import { backendOf, postgresSkip, rawDatabase } from './backends.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, s)).toISOString();

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`migration 2026_11_042_job_text_parts on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    test('a job stored in single rows keeps its inputs and results, and the tables come back on the way down', { skip }, async () => {
      const backend = await backendOf(kind);
      const connect = () => rawDatabase(backend);
      try {
        const db = connect();
        assert.equal((await verdictMigrator(db).migrateTo('2026_11_041_webhooks')).error, undefined);
        await db.insertInto('spaces').values({ name: 's', created_at: at(0) }).execute();
        await db.insertInto('jobs').values({
          id: 'j', space: 's', rule_id: 'r', rule_alias: 'r', version: 1, state: 'Running', total: 4, processed: 2, failed: 0, receiving: 0,
          actor_kind: 'key', actor_id: 'k', actor_name: 'k', key_id: 'k', strategy: null, created_at: at(0), started_at: at(0),
          finished_at: null, expires_at: null, error: null,
        }).execute();
        await db.insertInto('job_chunks').values([
          { job_id: 'j', seq: 0, state: 'done', count: 2, lease_owner: null, lease_until: null, attempts: 1 },
          { job_id: 'j', seq: 1, state: 'pending', count: 2, lease_owner: null, lease_until: null, attempts: 0 },
        ]).execute();
        await db.insertInto('job_results').values({ job_id: 'j', seq: 0, lines: '[1]\n[2]\n' }).execute();
        await db.insertInto('job_inputs').values({ job_id: 'j', seq: 1, inputs: '{"i":3}\n{"i":4}' }).execute();
        await db.destroy();

        const store = await openStore(backend.url);
        try {
          const chunk = await store.jobs.claim('w', at(1), at(30), 5);
          assert.deepEqual([chunk?.job.id, chunk?.seq, chunk?.count], ['j', 1, 2]);
          assert.deepEqual(await store.jobs.inputParts('j', 1, 0, 4), ['{"i":3}\n{"i":4}']);
          const done = await store.jobs.complete('w', 'j', 1, ['[3]\n', '[4]\n'], 0, at(2), at(100));
          assert.equal(done.kind === 'stored' && done.job.state, 'Completed');
          const results = await store.jobs.results('j', 0, 10);
          assert.equal(results.map((r) => r.lines).join(''), '[1]\n[2]\n[3]\n[4]\n');
        } finally {
          await store.close();
        }

        const down = connect();
        try {
          assert.equal((await verdictMigrator(down).migrateTo('2026_11_041_webhooks')).error, undefined);
          assert.deepEqual(await down.selectFrom('job_inputs').selectAll().execute(), []);
          assert.deepEqual(await down.selectFrom('job_results').selectAll().execute(), []);
        } finally {
          await down.destroy();
        }
      } finally {
        await backend.cleanup();
      }
    });
  });
}
