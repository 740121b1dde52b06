// Two servers on one PostgreSQL database: a management write through one instance reaches the other's
// compiled-rule cache through LISTEN/NOTIFY, so the other solves the new content within a second.
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

  async function msUntil(path: string, expected: unknown): Promise<number> {
    const started = Date.now();
    await eventually(async () => (JSON.stringify(await solveOnB(path)) === JSON.stringify(expected) ? true : undefined), 3000);
    return Date.now() - started;
  }

  test('update, new version, status, delete and import through A are what B solves within a second', async () => {
    assert.equal((await api('POST', '/api/rule', asNew(messageTable('mi', 'mi', 1, 'v1'), ['ruleId', 'ruleAlias']))).status, 200);
    assert.deepEqual(await solveOnB('/rule/solve/mi'), [{ message: 'v1' }], 'B compiled and cached v1');

    await api('PUT', '/api/rule/mi/1', messageTable('mi', 'mi', 1, 'v1 edited'));
    assert.ok((await msUntil('/rule/solve/mi', [{ message: 'v1 edited' }])) < 1000);

    await api('POST', '/api/rule/mi/new-version', asNew(messageTable('x', 'x', 1, 'v2')));
    await api('PUT', '/api/rule/status/mi/published/2');
    assert.ok((await msUntil('/rule/solve/mi', [{ message: 'v2' }])) < 1000);

    await api('DELETE', '/api/rule/mi/2');
    assert.ok((await msUntil('/rule/solve/mi', [{ message: 'v1 edited' }])) < 1000);

    await api('DELETE', '/api/rule/mi');
    assert.ok((await msUntil('/rule/solve/mi', { error: { message: 'Unknown rule or rule version' } })) < 1000);

    const imported = await api('POST', '/api/folder/import', { export: { data: { rules: [messageTable('mi-2', 'mi-2', 1, 'imported')] } } });
    assert.equal(imported.status, 200, imported.text);
    assert.ok((await msUntil('/rule/solve/mi-2', [{ message: 'imported' }])) < 1000);
  });
});
