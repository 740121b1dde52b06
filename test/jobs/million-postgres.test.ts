// A 1,000,000-input job on PostgreSQL shared by two `verdict serve` processes: both lease its chunks; one is
// SIGKILLed while it holds a lease, the other takes that chunk once the lease has passed, and the job completes with
// every input answered exactly once, in input order. The surviving server's resident memory grows by less than
// 200 MB while the inputs stream in and the results stream out (docs/jobs.md).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { spawnServe } from '../http/process.ts';
import type { ServeProcess } from '../http/process.ts';
import { postgresBackend, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { eventually } from '../http/harness.ts';
import { bannerKeys, checkRotatingResult, createLoanRule, expectedLines, jobIn, LOAN_ALIAS, ndjsonStream, rssOf, sampleRss, startNdjsonJob } from './support.ts';

const INPUTS = 1_000_000;
const MB = 1024 * 1024;
const skip = await postgresSkip();

let backend: Backend;
let a: ServeProcess;
let b: ServeProcess;
let client: pg.Client;

const ENV = { VERDICT_SEED_EXAMPLES: 'false', BODY_TIMEOUT_MS: '600000', JOBS_LEASE_MS: '2000', JOBS_POLL_INTERVAL_MS: '50' };

before(async () => {
  if (skip) return;
  backend = await postgresBackend();
  a = await spawnServe({ DATABASE_URL: backend.url, ...ENV });
  b = await spawnServe({ DATABASE_URL: backend.url, ...ENV });
  client = new pg.Client({ connectionString: backend.url });
  await client.connect();
});
after(async () => {
  await client?.end();
  await b?.stop();
  await a?.stop();
  await backend?.cleanup();
});

test('two instances share a 1,000,000-input job; one is killed mid-job and every input is still answered once, in order', { skip }, async () => {
  const { solverKey, managementKey } = bannerKeys(a.stdout());
  await createLoanRule(a.url, managementKey);
  const expected = await expectedLines(a.url, solverKey);
  const warmUp = await startNdjsonJob(a.url, solverKey, `/job/start/${LOAN_ALIAS}/1`, ndjsonStream(50_000));
  await jobIn(a.url, solverKey, warmUp.json.jobId, ['Completed']);
  await checkRotatingResult(a.url, solverKey, warmUp.json.jobId, expected);
  const baseline = rssOf(a.child.pid!);
  const rss = sampleRss(a.child.pid!);
  const began = performance.now();

  const starting = startNdjsonJob(a.url, solverKey, `/job/start/${LOAN_ALIAS}/1`, ndjsonStream(INPUTS));
  // Once both instances have stored results of the job, and B holds a lease on a chunk of it: kill B there. B is
  // frozen (SIGSTOP) before its leases are read, so it cannot finish the chunk between the look and the kill: a
  // transaction it had begun is rolled back when its connection dies. Not holding one, it is let go and looked at
  // again.
  const held = await eventually(async () => {
    b.child.kill('SIGSTOP');
    const { rows } = await client.query<{ job_id: string; seq: number }>(
      `SELECT c.job_id, c.seq FROM job_chunks c
        WHERE c.state = 'leased' AND c.lease_owner LIKE $1 AND c.job_id <> $2
          AND (SELECT count(DISTINCT r.seq) FROM job_result_parts r WHERE r.job_id = c.job_id) >= 10`,
      [`%:${b.child.pid}:%`, warmUp.json.jobId],
    );
    if (rows[0] === undefined) b.child.kill('SIGCONT');
    return rows[0];
  });
  b.child.kill('SIGKILL');
  const byB = await client.query<{ n: string }>("SELECT count(DISTINCT seq) AS n FROM job_result_parts WHERE job_id = $1", [held.job_id]);

  const started = await starting;
  const peakUploading = rss.peak();
  assert.equal(started.status, 200, JSON.stringify(started.json));
  assert.equal(started.json.total, INPUTS);
  const done = await jobIn(a.url, solverKey, started.json.jobId, ['Completed', 'Error']);
  assert.equal(done.state, 'Completed', done.error);
  const solved = performance.now();
  const peakSolving = rss.peak();
  assert.deepEqual([done.processed, done.failed], [INPUTS, 0]);

  const chunk = await client.query<{ state: string; attempts: number; lease_owner: string | null }>(
    'SELECT state, attempts, lease_owner FROM job_chunks WHERE job_id = $1 AND seq = $2',
    [held.job_id, held.seq],
  );
  const redone = await client.query<{ n: string }>('SELECT count(*) AS n FROM job_chunks WHERE job_id = $1 AND attempts > 1', [held.job_id]);
  assert.equal(chunk.rows[0]!.state, 'done');

  const lines = await checkRotatingResult(a.url, solverKey, started.json.jobId, expected);
  rss.stop();
  assert.equal(lines, INPUTS);
  const growth = rss.peak() - baseline;
  console.log(`1M-input job on PostgreSQL, 2 instances: B killed holding chunk ${held.seq} (${byB.rows[0]!.n} chunks stored by then), that chunk leased ${chunk.rows[0]!.attempts} times, ${redone.rows[0]!.n} chunks redone; completed after ${((solved - began) / 1000).toFixed(1)} s, result read ${((performance.now() - solved) / 1000).toFixed(1)} s; job rate ${done.rate}/s; RSS of A ${Math.round(baseline / MB)} MB after a warm-up job, peak ${Math.round(peakUploading / MB)} MB uploading, ${Math.round(peakSolving / MB)} MB solving, ${Math.round(rss.peak() / MB)} MB reading`);
  assert.ok(Number(redone.rows[0]!.n) >= 1, 'the chunk the killed instance held was solved again');
  assert.ok(growth < 200 * MB, `RSS grew by ${Math.round(growth / MB)} MB`);
});
