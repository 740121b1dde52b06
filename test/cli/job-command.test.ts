// `verdict job start|status|result|cancel` against a running server: a file streamed in, the job followed, its
// results written in input order; refusals are one line on stderr with exit code 1 or 2.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { messageTable } from '../http/fixtures.ts';
import { eventually, startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';
import { runCli } from '../http/process.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

describe('verdict job', () => {
  let backend: Backend;
  let server: TestServer;
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend });
    await server.running.services.rulesIO.importContainer(server.space.space, [messageTable('rule-hello', 'hello', 1, 'hi')]);
    dir = mkdtempSync(join(tmpdir(), 'verdict-job-cli-'));
    env = { VERDICT_URL: server.url, VERDICT_SOLVER_KEY: server.space.solverKey };
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('start streams the file; status follows the job; result writes one line per input', async () => {
    const file = join(dir, 'inputs.ndjson');
    writeFileSync(file, '{"a": 1}\n{"a": 2}\n{"a": 3}\n');
    const started = await runCli(['job', 'start', 'hello', file, '--version', '1'], env);
    assert.equal(started.code, 0, started.stderr);
    const job = JSON.parse(started.stdout) as { jobId: string; total: number };
    assert.equal(job.total, 3);
    await eventually(async () => ((await server.running.services.jobs.get(server.space.space, job.jobId)).state === 'Completed' ? true : undefined));
    const status = await runCli(['job', 'status', job.jobId], env);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).state, 'Completed');
    const out = join(dir, 'out.ndjson');
    const result = await runCli(['job', 'result', job.jobId, '--out', out], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(out, 'utf8'), '[{"message":"hi"}]\n'.repeat(3));
  });

  test('refusals: an ended job cannot be canceled, an unknown job, no key, an unreachable server', async () => {
    const file = join(dir, 'one.csv');
    writeFileSync(file, 'a\n1\n');
    const started = await runCli(['job', 'start', 'hello', file], env);
    assert.equal(started.code, 0, started.stderr);
    const { jobId } = JSON.parse(started.stdout) as { jobId: string };
    await eventually(async () => ((await server.running.services.jobs.get(server.space.space, jobId)).state === 'Completed' ? true : undefined));
    const cancel = await runCli(['job', 'cancel', jobId], env);
    assert.equal(cancel.code, 1);
    assert.match(cancel.stderr, /^verdict: POST \/job\/cancel\/\S+: 409 Job \S+ is Completed; only a Waiting or Running job can be canceled\n$/);
    const unknown = await runCli(['job', 'status', 'no-such-job'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /404 Job no-such-job does not exist in this space/);
    const noKey = await runCli(['job', 'status', jobId], { VERDICT_URL: server.url });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /a solver key is needed/);
    const away = await runCli(['job', 'status', jobId, '--url', 'http://127.0.0.1:9'], env);
    assert.equal(away.code, 1);
    assert.match(away.stderr, /^verdict: cannot reach the server at http:\/\/127\.0\.0\.1:9/);
  });
});
