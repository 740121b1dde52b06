// Two servers on one PostgreSQL database: a management write through one instance reaches the other's
// compiled-rule cache through LISTEN/NOTIFY, so the other solves the new content. Only a notification (or a lost
// listener connection) empties B's cache, so B answering the new content at all is the proof; how fast is a
// benchmark's question, not a test's on a loaded machine.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postgresBackend, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { messageTable } from '../http/fixtures.ts';
import { call, eventually, startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';
import { apiFor, asNew } from './helpers.ts';
import type { Api } from './helpers.ts';

const skip = await postgresSkip();

describe('management writes on one instance reach the other instance (PostgreSQL)', { skip }, () => {
  let backend: Backend;
  let a: TestServer;
  let b: TestServer;
  let api: Api;

  before(async () => {
    backend = await postgresBackend();
    a = await startTestServer({ backend });
    b = await startTestServer({ backend });
    api = apiFor(a, a.space.managementKey);
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await backend?.cleanup();
  });

  const solveOnB = async (path: string) => (await call(b.url, 'POST', path, { key: a.space.solverKey, body: { data: {} } })).json;

  /** Solves on B until it answers `expected` (eventually's guard ends a wait for an answer that never comes). */
  async function until(path: string, expected: unknown): Promise<void> {
    await eventually(async () => (JSON.stringify(await solveOnB(path)) === JSON.stringify(expected) ? true : undefined));
  }

  test('update, new version, status, delete and import through A are what B solves next', async () => {
    assert.equal((await api('POST', '/api/rule', asNew(messageTable('mi', 'mi', 1, 'v1'), ['ruleId', 'ruleAlias']))).status, 200);
    assert.deepEqual(await solveOnB('/rule/solve/mi'), [{ message: 'v1' }], 'B compiled and cached v1');

    await api('PUT', '/api/rule/mi/1', messageTable('mi', 'mi', 1, 'v1 edited'));
    await until('/rule/solve/mi', [{ message: 'v1 edited' }]);

    await api('POST', '/api/rule/mi/new-version', asNew(messageTable('x', 'x', 1, 'v2')));
    await api('PUT', '/api/rule/status/mi/published/2');
    await until('/rule/solve/mi', [{ message: 'v2' }]);

    await api('DELETE', '/api/rule/mi/2');
    await until('/rule/solve/mi', [{ message: 'v1 edited' }]);

    await api('DELETE', '/api/rule/mi');
    await until('/rule/solve/mi', { error: { message: 'Unknown rule or rule version' } });

    const imported = await api('POST', '/api/folder/import', { export: { data: { rules: [messageTable('mi-2', 'mi-2', 1, 'imported')] } } });
    assert.equal(imported.status, 200, imported.text);
    await until('/rule/solve/mi-2', [{ message: 'imported' }]);
  });
});
