// Batch jobs in the store (docs/jobs.md): the job, its inputs in chunks that workers lease, and each chunk's results.
// Every instance works the same tables: a worker leases one chunk at a time (PostgreSQL: SELECT ... FOR UPDATE SKIP
// LOCKED, so two workers never wait on or take the same chunk; SQLite: one process, whose transactions Kysely runs one
// at a time). A chunk's results are written in the transaction that marks it done, and only while its worker still
// holds the lease, so a chunk redone after a lost lease is stored once. Transactions that change a job and its chunks
// lock the job row first, so completing the last chunk, sealing the upload and cancelling see each other's writes.
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { ChunkOutcome, JobRecord, JobState, JobStore, LeasedChunk, NewJob } from './ports.ts';

export interface JobsTable {
  id: string;
  space: string;
  rule_id: string;
  rule_alias: string;
  version: number;
  state: string;
  total: number;
  processed: number;
  failed: number;
  receiving: number;
  actor_kind: string;
  actor_id: string;
  actor_name: string;
  key_id: string;
  strategy: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
  error: string | null;
}

export interface JobChunksTable {
  job_id: string;
  seq: number;
  /** pending, leased, done (results stored) or dropped (the job ended first). */
  state: string;
  count: number;
  lease_owner: string | null;
  lease_until: string | null;
  attempts: number;
}

/**
 * A chunk's inputs in parts (service/jobs/text-parts.ts), the JSON text of each input on its own line; deleted once
 * the chunk is done.
 */
export interface JobInputPartsTable {
  job_id: string;
  seq: number;
  part: number;
  inputs: string;
}

export interface JobResultPartsTable {
  job_id: string;
  seq: number;
  part: number;
  /** NDJSON: one line per input, in input order, each ending in a newline. */
  lines: string;
}

export interface JobsDb {
  jobs: JobsTable;
  job_chunks: JobChunksTable;
  job_input_parts: JobInputPartsTable;
  job_result_parts: JobResultPartsTable;
}

/** Part rows per INSERT: SQLite bounds a statement's parameters. */
const PART_ROWS = 64;

const ACTIVE: JobState[] = ['Waiting', 'Running'];

function toJob(r: JobsTable): JobRecord {
  return {
    id: r.id,
    space: r.space,
    ruleId: r.rule_id,
    ruleAlias: r.rule_alias,
    version: Number(r.version),
    state: r.state as JobState,
    total: Number(r.total),
    processed: Number(r.processed),
    failed: Number(r.failed),
    receiving: Number(r.receiving) === 1,
    actor: { kind: r.actor_kind as JobRecord['actor']['kind'], id: r.actor_id, name: r.actor_name },
    keyId: r.key_id,
    strategy: r.strategy,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    expiresAt: r.expires_at,
    error: r.error,
  };
}

export function jobStore(db: Kysely<JobsDb>, dialect: 'sqlite' | 'postgres'): JobStore {
  const postgres = dialect === 'postgres';

  /** The job row, locked until the transaction ends on PostgreSQL (SQLite transactions are exclusive already). */
  async function lockedJob(trx: Transaction<JobsDb>, jobId: string): Promise<JobsTable | undefined> {
    let query = trx.selectFrom('jobs').selectAll().where('id', '=', jobId);
    if (postgres) query = query.forUpdate();
    return query.executeTakeFirst();
  }

  async function getJob(trx: Kysely<JobsDb>, jobId: string): Promise<JobRecord> {
    return toJob(await trx.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow());
  }

  async function count(query: SelectQueryBuilder<JobsDb, 'job_chunks', object>): Promise<number> {
    const row = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Chunks of the job being solved under a live lease. */
  function liveLeases(trx: Kysely<JobsDb>, jobId: string, now: string) {
    return count(trx.selectFrom('job_chunks').where('job_id', '=', jobId).where('state', '=', 'leased').where('lease_until', '>=', now));
  }

  /** Completed when the upload is sealed and no chunk is left to solve. */
  async function completeIfDone(trx: Transaction<JobsDb>, job: JobsTable, now: string, expiresAt: string): Promise<void> {
    if (Number(job.receiving) === 1 || !ACTIVE.includes(job.state as JobState)) return;
    const left = await count(trx.selectFrom('job_chunks').where('job_id', '=', job.id).where('state', '!=', 'done'));
    if (left > 0) return;
    await trx
      .updateTable('jobs')
      .set({ state: 'Completed', finished_at: now, expires_at: expiresAt, started_at: job.started_at ?? now })
      .where('id', '=', job.id)
      .execute();
  }

  return {
    create: async (job: NewJob) => {
      await db
        .insertInto('jobs')
        .values({
          id: job.id,
          space: job.space,
          rule_id: job.ruleId,
          rule_alias: job.ruleAlias,
          version: job.version,
          state: 'Waiting',
          total: 0,
          processed: 0,
          failed: 0,
          receiving: 1,
          actor_kind: job.actor.kind,
          actor_id: job.actor.id,
          actor_name: job.actor.name,
          key_id: job.keyId,
          strategy: job.strategy,
          created_at: job.createdAt,
          started_at: null,
          finished_at: null,
          expires_at: null,
          error: null,
        })
        .execute();
    },

    addChunks: async (jobId, chunks) => {
      if (chunks.length === 0) return;
      const inputs = chunks.reduce((sum, c) => sum + c.count, 0);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('jobs').set((eb) => ({ total: eb('total', '+', inputs) })).where('id', '=', jobId).execute();
        const rows = chunks.map((c): JobChunksTable => ({
          job_id: jobId, seq: c.seq, state: 'pending', count: c.count, lease_owner: null, lease_until: null, attempts: 0,
        }));
        for (let i = 0; i < rows.length; i += PART_ROWS) await trx.insertInto('job_chunks').values(rows.slice(i, i + PART_ROWS)).execute();
        const parts = chunks.flatMap((c) => c.inputs.map((inputs, part) => ({ job_id: jobId, seq: c.seq, part: (c.firstPart ?? 0) + part, inputs })));
        for (let i = 0; i < parts.length; i += PART_ROWS) await trx.insertInto('job_input_parts').values(parts.slice(i, i + PART_ROWS)).execute();
      });
    },

    addInputParts: async (jobId, seq, firstPart, parts) => {
      const rows = parts.map((inputs, part) => ({ job_id: jobId, seq, part: firstPart + part, inputs }));
      for (let i = 0; i < rows.length; i += PART_ROWS) await db.insertInto('job_input_parts').values(rows.slice(i, i + PART_ROWS)).execute();
    },

    sealInputs: async (jobId, now, expiresAt) => {
      return db.transaction().execute(async (trx) => {
        const job = await lockedJob(trx, jobId);
        if (job === undefined) return undefined;
        await trx.updateTable('jobs').set({ receiving: 0 }).where('id', '=', jobId).execute();
        await completeIfDone(trx, { ...job, receiving: 0 }, now, expiresAt);
        return getJob(trx, jobId);
      });
    },

    delete: async (jobId) => {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('job_result_parts').where('job_id', '=', jobId).execute();
        await trx.deleteFrom('job_input_parts').where('job_id', '=', jobId).execute();
        await trx.deleteFrom('job_chunks').where('job_id', '=', jobId).execute();
        await trx.deleteFrom('jobs').where('id', '=', jobId).execute();
      });
    },

    get: async (space, jobId) => {
      const row = await db.selectFrom('jobs').selectAll().where('space', '=', space).where('id', '=', jobId).executeTakeFirst();
      return row === undefined ? undefined : toJob(row);
    },

    list: async (space, limit) => {
      const rows = await db.selectFrom('jobs').selectAll().where('space', '=', space).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toJob);
    },

    claim: async (owner, now, leaseUntil) => {
      return db.transaction().execute(async (trx): Promise<LeasedChunk | undefined> => {
        let pick = trx
          .selectFrom('job_chunks as c')
          .innerJoin('jobs as j', 'j.id', 'c.job_id')
          .select(['c.job_id', 'c.seq'])
          .where('j.state', 'in', ACTIVE)
          .where((eb) => eb.or([eb('c.state', '=', 'pending'), eb.and([eb('c.state', '=', 'leased'), eb('c.lease_until', '<', now)])]))
          .orderBy('j.created_at')
          .orderBy('c.job_id')
          .orderBy('c.seq')
          .limit(1);
        if (postgres) pick = pick.forUpdate('c').skipLocked();
        const picked = await pick.executeTakeFirst();
        if (picked === undefined) return undefined;
        const chunk = await trx
          .updateTable('job_chunks')
          .set((eb) => ({ state: 'leased', lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
          .where('job_id', '=', picked.job_id)
          .where('seq', '=', picked.seq)
          .returning(['seq', 'count', 'attempts'])
          .executeTakeFirstOrThrow();
        let job = await getJob(trx, picked.job_id);
        if (job.state === 'Waiting') {
          await trx.updateTable('jobs').set({ state: 'Running', started_at: now }).where('id', '=', job.id).where('state', '=', 'Waiting').execute();
          job = { ...job, state: 'Running', startedAt: now };
        }
        return { job, seq: Number(chunk.seq), count: Number(chunk.count), attempts: Number(chunk.attempts) };
      });
    },

    inputParts: async (jobId, seq, fromPart, limit) => {
      const rows = await db
        .selectFrom('job_input_parts')
        .select('inputs')
        .where('job_id', '=', jobId)
        .where('seq', '=', seq)
        .where('part', '>=', fromPart)
        .orderBy('part')
        .limit(limit)
        .execute();
      return rows.map((r) => r.inputs);
    },

    renew: async (owner, jobId, seq, leaseUntil) => {
      const result = await db
        .updateTable('job_chunks')
        .set({ lease_until: leaseUntil })
        .where('job_id', '=', jobId)
        .where('seq', '=', seq)
        .where('state', '=', 'leased')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    complete: async (owner, jobId, seq, lines, failed, now, expiresAt) => {
      return db.transaction().execute(async (trx): Promise<ChunkOutcome> => {
        const job = await lockedJob(trx, jobId);
        if (job === undefined) return { kind: 'lost' };
        const active = ACTIVE.includes(job.state as JobState);
        const taken = await trx
          .updateTable('job_chunks')
          .set({ state: active ? 'done' : 'dropped', lease_owner: null, lease_until: null })
          .where('job_id', '=', jobId)
          .where('seq', '=', seq)
          .where('state', '=', 'leased')
          .where('lease_owner', '=', owner)
          .returning(['count'])
          .executeTakeFirst();
        if (taken === undefined) return { kind: 'lost' };
        await trx.deleteFrom('job_input_parts').where('job_id', '=', jobId).where('seq', '=', seq).execute();
        if (!active) {
          if (job.state === 'Cancelling' && (await liveLeases(trx, jobId, now)) === 0) {
            await trx.updateTable('jobs').set({ state: 'Canceled' }).where('id', '=', jobId).execute();
          }
          return { kind: 'dropped', job: await getJob(trx, jobId) };
        }
        const parts = lines.map((text, part) => ({ job_id: jobId, seq, part, lines: text }));
        for (let i = 0; i < parts.length; i += PART_ROWS) await trx.insertInto('job_result_parts').values(parts.slice(i, i + PART_ROWS)).execute();
        const processed = Number(taken.count);
        await trx
          .updateTable('jobs')
          .set((eb) => ({ processed: eb('processed', '+', processed), failed: eb('failed', '+', failed) }))
          .where('id', '=', jobId)
          .execute();
        await completeIfDone(trx, job, now, expiresAt);
        return { kind: 'stored', job: await getJob(trx, jobId) };
      });
    },

    release: async (owner) => {
      const result = await db
        .updateTable('job_chunks')
        .set({ state: 'pending', lease_owner: null, lease_until: null })
        .where('state', '=', 'leased')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    cancel: async (space, filter, now, expiresAt) => {
      return db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('jobs').selectAll().where('space', '=', space).where('state', 'in', ACTIVE);
        if (filter.jobId !== undefined) query = query.where('id', '=', filter.jobId);
        const rule = filter.rule;
        if (rule !== undefined) query = query.where((eb) => eb.or([eb('rule_id', '=', rule), eb('rule_alias', '=', rule)]));
        if (filter.version !== undefined) query = query.where('version', '=', filter.version);
        if (postgres) query = query.forUpdate();
        const rows = await query.orderBy('created_at').execute();
        const changed: JobRecord[] = [];
        for (const row of rows) {
          const state: JobState = (await liveLeases(trx, row.id, now)) > 0 ? 'Cancelling' : 'Canceled';
          await trx.updateTable('jobs').set({ state, finished_at: now, expires_at: expiresAt }).where('id', '=', row.id).execute();
          changed.push(toJob({ ...row, state, finished_at: now, expires_at: expiresAt }));
        }
        return changed;
      });
    },

    fail: async (jobId, message, now, expiresAt) => {
      return db.transaction().execute(async (trx) => {
        const job = await lockedJob(trx, jobId);
        if (job === undefined || !ACTIVE.includes(job.state as JobState)) return undefined;
        await trx.updateTable('jobs').set({ state: 'Error', error: message, finished_at: now, expires_at: expiresAt }).where('id', '=', jobId).execute();
        return getJob(trx, jobId);
      });
    },

    results: async (jobId, fromSeq, limit) => {
      const rows = await db
        .selectFrom('job_result_parts')
        .select(['seq', 'lines'])
        .where('job_id', '=', jobId)
        .where('seq', '>=', fromSeq)
        .where('seq', '<', fromSeq + limit)
        .orderBy('seq')
        .orderBy('part')
        .execute();
      return rows.map((r) => ({ seq: Number(r.seq), lines: r.lines }));
    },

    settleCancelling: async (now) => {
      const rows = await db.selectFrom('jobs').select('id').where('state', '=', 'Cancelling').execute();
      let settled = 0;
      for (const { id } of rows) {
        const done = await db.transaction().execute(async (trx) => {
          const job = await lockedJob(trx, id);
          if (job?.state !== 'Cancelling' || (await liveLeases(trx, id, now)) > 0) return false;
          await trx.updateTable('jobs').set({ state: 'Canceled' }).where('id', '=', id).execute();
          return true;
        });
        if (done) settled++;
      }
      return settled;
    },

    deleteExpired: async (now) => {
      const expired = await db.selectFrom('jobs').select('id').where('expires_at', '<=', now).execute();
      for (const { id } of expired) {
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('job_result_parts').where('job_id', '=', id).execute();
          await trx.deleteFrom('job_input_parts').where('job_id', '=', id).execute();
          await trx.deleteFrom('job_chunks').where('job_id', '=', id).execute();
          await trx.deleteFrom('jobs').where('id', '=', id).execute();
        });
      }
      return expired.length;
    },
  };
}
