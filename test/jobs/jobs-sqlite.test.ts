// Jobs on one instance over SQLite (docs/jobs.md): JSON, NDJSON and CSV inputs give the solver's answers in input
// order; refused uploads name their line and leave no job; cancel mid-run; an expired result is gone; a job of
// another space is a 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { messageTable } from '../http/fixtures.ts';
import { startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';
import { LOAN_ALIAS, LOAN_INPUTS, expectedLines, jobIn, loanRule, ndjsonStream, readResult, startNdjsonJob } from './support.ts';

const DAY_MS = 86_400_000;

describe('jobs on SQLite', () => {
  let backend: Backend;
  let server: TestServer;
  let now = Date.now();
  let key: string;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend, clock: () => now, env: { JOBS_CHUNK_SIZE: '7', JOBS_POLL_INTERVAL_MS: '20' } });
    key = server.space.solverKey;
    await server.running.services.rulesIO.importContainer(server.space.space, [loanRule(), messageTable('rule-other', 'other', 1, 'hello')]);
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  async function lines(jobId: string): Promise<string[]> {
    const out: string[] = [];
    await readResult(server.url, key, jobId, (line) => out.push(line));
    return out;
  }

  test('a JSON array job answers every input in order with what the solver answers', async () => {
    const inputs = [...LOAN_INPUTS, { amount: 'not a number', nested: { deep: true } }];
    const bulk = await server.solve(`/rule/solve/${LOAN_ALIAS}`, { data: LOAN_INPUTS });
    const started = await server.call('POST', `/job/start/${LOAN_ALIAS}/1`, { key, body: inputs });
    assert.equal(started.status, 200, started.text);
    assert.equal(started.json.total, inputs.length);
    assert.equal(started.json.version, 1);
    const done = await jobIn(server.url, key, started.json.jobId, ['Completed']);
    assert.deepEqual([done.processed, done.total], [inputs.length, inputs.length]);
    assert.ok(done.rate > 0 && done.startedAt !== null && done.finishedAt !== null && done.expiresAt !== null);
    const got = await lines(started.json.jobId);
    assert.deepEqual(got.slice(0, LOAN_INPUTS.length), (bulk.json as unknown[]).map((r) => JSON.stringify(r)));
    const single = await server.solve(`/rule/solve/${LOAN_ALIAS}`, { data: inputs[inputs.length - 1] });
    assert.equal(got[got.length - 1], JSON.stringify(single.json), 'the last line is what a single solve answers');
  });

  test('NDJSON and CSV uploads give the same lines as the JSON body', async () => {
    const expected = await expectedLines(server.url, key);
    const ndjson = await startNdjsonJob(server.url, key, `/job/start/${LOAN_ALIAS}`, ndjsonStream(LOAN_INPUTS.length * 3, 10));
    assert.equal(ndjson.status, 200, JSON.stringify(ndjson.json));
    await jobIn(server.url, key, ndjson.json.jobId, ['Completed']);
    const fromNdjson = await lines(ndjson.json.jobId);
    assert.equal(fromNdjson.length, LOAN_INPUTS.length * 3);
    fromNdjson.forEach((line, i) => assert.equal(line, expected[i % LOAN_INPUTS.length], `line ${i}`));

    const allColumns = Object.keys(flat(LOAN_INPUTS[0]!));
    const csv = [allColumns.join(','), ...LOAN_INPUTS.map((input) => allColumns.map((c) => csvCell(flat(input)[c])).join(','))].join('\r\n');
    const fromCsv = await server.call('POST', `/job/start/${LOAN_ALIAS}/1`, { key, raw: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(fromCsv.status, 200, fromCsv.text);
    await jobIn(server.url, key, fromCsv.json.jobId, ['Completed']);
    assert.deepEqual(await lines(fromCsv.json.jobId), expected);
  });

  test('a refused upload names its line and leaves no job', async () => {
    const bad = `${JSON.stringify(LOAN_INPUTS[0])}\n\n{"amount": 1\n`;
    const reply = await server.call('POST', `/job/start/${LOAN_ALIAS}`, { key, raw: bad, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(reply.status, 400);
    assert.match(reply.json.error.message, /^NDJSON line 3 is not valid JSON/);
    const notObject = await server.call('POST', `/job/start/${LOAN_ALIAS}`, { key, body: [{}, 5] });
    assert.equal(notObject.status, 400);
    assert.equal(notObject.json.error.message, 'data[1] must be a JSON object (one input of the job)');
    const csv = await server.call('POST', `/job/start/${LOAN_ALIAS}`, { key, raw: 'a,b\n1,2\n3\n', headers: { 'content-type': 'text/csv' } });
    assert.equal(csv.status, 400);
    assert.match(csv.json.error.message, /^CSV line 3/);
    const unknown = await server.call('POST', '/job/start/no-such-rule', { key, body: [{}] });
    assert.deepEqual([unknown.status, unknown.json], [400, { error: { message: 'Unknown rule or rule version' } }]);
    for (const job of await server.running.services.jobs.list(server.space.space)) assert.notEqual(job.state, 'Waiting', 'no refused job is left');
  });

  test('a job canceled mid-run stops: its count stays below the total and it has no result', async () => {
    // The upload is still open when the job is canceled, so the job is certainly mid-run.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const encoder = new TextEncoder();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 70) await gate;
        if (sent >= 140) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(`${JSON.stringify(LOAN_INPUTS[sent % LOAN_INPUTS.length])}\n`));
        sent++;
      },
    });
    const starting = startNdjsonJob(server.url, key, `/job/start/${LOAN_ALIAS}`, body);
    const list = async () => (await server.call('GET', '/api/space/jobs', { key: server.space.managementKey })).json as any[];
    const running = await eventuallyJob(async () => (await list()).find((j) => j.processed > 0 && j.receiving));
    const canceled = await server.call('POST', `/job/cancel/${running.jobId}`, { key });
    assert.equal(canceled.status, 200, canceled.text);
    assert.ok(['Canceled', 'Cancelling'].includes(canceled.json.state));
    release();
    const started = await starting;
    assert.equal(started.status, 200);
    const settled = await jobIn(server.url, key, running.jobId, ['Canceled']);
    assert.ok(settled.processed < settled.total, `${settled.processed} of ${settled.total}`);
    const result = await server.call('GET', `/job/${running.jobId}/result`, { key });
    assert.equal(result.status, 409);
    assert.match(result.json.error.message, /is Canceled; results are available once it is Completed/);
    const again = await server.call('POST', `/job/cancel/${running.jobId}`, { key });
    assert.equal(again.status, 409);
    const activity = await server.running.services.activity.list(server.space.space, { limit: 50, action: 'job.canceled' });
    assert.equal(activity.items[0]?.detail?.jobId, running.jobId);
  });

  test('a job of another space is a 404 everywhere', async () => {
    const started = await server.call('POST', '/job/start/other', { key, body: [{}] });
    await jobIn(server.url, key, started.json.jobId, ['Completed']);
    const other = await server.running.services.spaces.create('jobs-other-space');
    for (const [method, path] of [['GET', `/job/${started.json.jobId}`], ['GET', `/job/${started.json.jobId}/result`], ['POST', `/job/cancel/${started.json.jobId}`]] as const) {
      const reply = await server.call(method, path, { key: other.solverKey });
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.match(reply.json.error.message, /does not exist in this space/);
    }
    const all = await server.call('POST', `/job/cancelAll/space/${server.space.space}`, { key: other.solverKey });
    assert.equal(all.status, 404);
    assert.deepEqual(await lines(started.json.jobId), ['[{"message":"hello"}]']);
  });

  test('a result is kept for JOBS_RESULTS_TTL (7 days) and then gone', async () => {
    const started = await server.call('POST', '/job/start/other/1', { key, body: [{}, {}] });
    const done = await jobIn(server.url, key, started.json.jobId, ['Completed']);
    assert.equal(Date.parse(done.expiresAt) - Date.parse(done.finishedAt), 7 * DAY_MS);
    now += 6 * DAY_MS;
    await server.running.services.jobs.sweep();
    assert.equal((await server.call('GET', `/job/${started.json.jobId}/result`, { key })).status, 200);
    now += 2 * DAY_MS;
    assert.ok((await server.running.services.jobs.sweep()) >= 1);
    const gone = await server.call('GET', `/job/${started.json.jobId}/result`, { key });
    assert.equal(gone.status, 404);
    assert.match(gone.json.error.message, /or its results expired: JOBS_RESULTS_TTL/);
    assert.equal((await server.call('GET', `/job/${started.json.jobId}`, { key })).status, 404);
  });
});

function flat(value: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) flat(v as Record<string, unknown>, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

function csvCell(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return `"${value.replaceAll('"', '""')}"`;
  return String(value);
}

async function eventuallyJob(probe: () => Promise<any>): Promise<any> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('no such job appeared');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('jobs without a worker, and JOBS_ONLY', () => {
  let backend: Backend;
  let server: TestServer;
  let only: TestServer;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend, env: { JOBS_ENABLED: 'false', JOBS_POLL_INTERVAL_MS: '20' } });
    await server.running.services.rulesIO.importContainer(server.space.space, [messageTable('rule-gone', 'gone', 1, 'hi'), messageTable('rule-keep', 'keep', 1, 'kept')]);
  });
  after(async () => {
    await only?.close();
    await server?.close();
    await backend?.cleanup();
  });

  test('JOBS_ENABLED=false stores jobs without solving them; an input that fails gets the solver\'s error line', async () => {
    const key = server.space.solverKey;
    const started = await server.call('POST', '/job/start/gone/1', { key, body: [{}, {}] });
    assert.equal(started.status, 200, started.text);
    assert.equal((await server.call('GET', `/job/${started.json.jobId}`, { key })).json.state, 'Waiting');
    // cancelAll by rule version cancels that rule's active jobs only.
    const kept = await Promise.all([1, 2].map(() => server.call('POST', '/job/start/keep/1', { key, body: [{}] })));
    const canceled = await server.call('POST', '/job/cancelAll/rule/keep/1', { key });
    assert.equal(canceled.status, 200, canceled.text);
    assert.deepEqual(canceled.json.map((j: any) => [j.jobId, j.state]).sort(), kept.map((k) => [k.json.jobId, 'Canceled']).sort());
    assert.equal((await server.call('GET', `/job/${started.json.jobId}`, { key })).json.state, 'Waiting');
    // The rule goes before any instance solved the job: each input is answered with the solver's refusal.
    await server.running.store.rules.delete(server.space.space, 'rule-gone');
    const solved = await server.solve('/rule/solve/gone/1', { data: {} });
    assert.equal(solved.status, 400);
    server.running.services.jobs.worker.start();
    const done = await jobIn(server.url, key, started.json.jobId, ['Completed']);
    assert.deepEqual([done.processed, done.failed], [2, 2]);
    const got: string[] = [];
    await readResult(server.url, key, started.json.jobId, (line) => got.push(line));
    assert.deepEqual(got, [JSON.stringify(solved.json), JSON.stringify(solved.json)]);
    const finished = await server.running.services.activity.list(server.space.space, { limit: 10, action: 'job.finished' });
    assert.deepEqual(finished.items[0]?.detail, { jobId: started.json.jobId, rule: 'rule-gone', version: 1, total: 2, processed: 2, failed: 2 });
  });

  test('JOBS_ONLY=true serves the job routes and health only', async () => {
    only = await startTestServer({ backend, env: { JOBS_ONLY: 'true' } });
    const key = server.space.solverKey;
    assert.equal((await only.call('GET', '/health/ready')).status, 200);
    assert.equal((await only.call('POST', '/rule/solve/gone', { key, body: { data: {} } })).status, 404);
    assert.equal((await only.call('GET', '/api/space/jobs', { key: server.space.managementKey })).status, 404);
    const unknown = await only.call('GET', '/job/nope', { key });
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.error.message, /^Job nope does not exist in this space/);
  });
});
