// Chunk leases in the store, on SQLite and PostgreSQL: a lease that passed is taken by another worker; the first
// worker's late completion writes nothing; the results hold the chunk once. Completing the last chunk after the
// upload is sealed completes the job; a released lease is free at once; two workers never hold one chunk.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import { backendOf, postgresSkip } from './backends.ts';
import type { Backend } from './backends.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
const skipPostgres = await postgresSkip();

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`job chunk leases on ${kind}`, { skip: kind === 'postgres' ? skipPostgres : false }, () => {
    let backend: Backend;
    let store: KyselyStore;

    before(async () => {
      backend = await backendOf(kind);
      store = await openStore(backend.url);
      await store.spaces.create('s', []);
    });
    after(async () => {
      await store?.close();
      await backend?.cleanup();
    });

    async function newJob(id: string, chunks: number): Promise<void> {
      await store.jobs.create({ id, space: 's', ruleId: 'r', ruleAlias: 'r', version: 1, actor: { kind: 'key', id: 'k', name: 'k' }, keyId: 'k', strategy: null, createdAt: at(0) });
      await store.jobs.addChunks(id, Array.from({ length: chunks }, (_, seq) => ({ seq, inputs: [`{"i":${seq}}`], count: 1 })));
    }

    test('an expired lease is taken over; the late first worker writes nothing; the result holds the chunk once', async () => {
      await newJob('j1', 2);
      const first = await store.jobs.claim('w1', at(1), at(3), 5);
      assert.deepEqual([first?.job.id, first?.seq, first?.attempts, first?.job.state], ['j1', 0, 1, 'Running']);
      assert.deepEqual(await store.jobs.inputParts('j1', 0, 0, 4), ['{"i":0}']);
      const second = await store.jobs.claim('w2', at(2), at(4), 5);
      assert.equal(second?.seq, 1, 'a live lease is not taken: the next chunk is');
      const taken = await store.jobs.claim('w2', at(5), at(7), 5);
      assert.deepEqual([taken?.seq, taken?.attempts], [0, 2], 'the passed lease of chunk 0 is taken by w2');
      assert.equal(await store.jobs.renew('w1', 'j1', 0, at(9)), false);
      assert.deepEqual(await store.jobs.complete('w1', 'j1', 0, ['late\n'], 0, at(6), at(100)), { kind: 'lost' });
      const stored = await store.jobs.complete('w2', 'j1', 0, ['zero\n'], 0, at(6), at(100));
      assert.equal(stored.kind, 'stored');
      assert.equal((await store.jobs.complete('w2', 'j1', 1, ['one\n', 'two\n'], 1, at(6), at(100))).kind, 'stored');
      assert.equal((await store.jobs.get('s', 'j1'))?.state, 'Running', 'still receiving: not complete');
      const sealed = await store.jobs.sealInputs('j1', at(7), at(100));
      assert.deepEqual([sealed?.state, sealed?.processed, sealed?.failed, sealed?.total, sealed?.expiresAt], ['Completed', 2, 1, 2, at(100)]);
      assert.deepEqual(await store.jobs.results('j1', 0, 10), [{ seq: 0, lines: 'zero\n' }, { seq: 1, lines: 'one\n' }, { seq: 1, lines: 'two\n' }]);
      assert.equal(await store.jobs.claim('w3', at(50), at(52), 5), undefined, 'nothing is left to lease');
    });

    test('a released lease is free at once; concurrent claims never share a chunk', async () => {
      await newJob('j2', 6);
      await store.jobs.sealInputs('j2', at(10), at(100));
      const held = await store.jobs.claim('w1', at(10), at(20), 5);
      assert.equal(await store.jobs.release('w1'), 1);
      const again = await store.jobs.claim('w2', at(10), at(20), 5);
      assert.equal(again?.seq, held?.seq);
      const claims = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((w) => store.jobs.claim(w, at(11), at(20), 5)));
      const seqs = claims.map((c) => c?.seq).filter((s) => s !== undefined);
      assert.equal(new Set(seqs).size, seqs.length, `no chunk leased twice: ${seqs.join(',')}`);
      assert.equal(seqs.length, 5);
    });

    test('cancel: a job with a chunk in hand is Cancelling until that chunk comes back, then Canceled; the sweeper deletes it', async () => {
      await newJob('j3', 2);
      await store.jobs.sealInputs('j3', at(20), at(100));
      const held = await store.jobs.claim('w1', at(20), at(30), 5);
      assert.equal(held?.job.id, 'j3');
      const [canceled] = await store.jobs.cancel('s', { jobId: 'j3' }, at(21), at(60));
      assert.equal(canceled?.state, 'Cancelling');
      const back = await store.jobs.complete('w1', 'j3', held!.seq, ['x\n'], 0, at(22), at(100));
      assert.deepEqual([back.kind, back.kind === 'lost' ? undefined : back.job.state], ['dropped', 'Canceled']);
      assert.deepEqual(await store.jobs.results('j3', 0, 10), []);
      assert.equal(await store.jobs.deleteExpired(at(59)), 0);
      assert.ok((await store.jobs.deleteExpired(at(60))) >= 1);
      assert.equal(await store.jobs.get('s', 'j3'), undefined);
    });
  });
}
