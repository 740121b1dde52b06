// Browser hardening of the HTTP answers (issue 32 item 8, docs/decisions/browser-hardening.md): every answer of a
// route that needs management credentials says Cache-Control: no-store, successes and refusals alike, taken from
// the management OpenAPI document so that no route is left out; the admin API, the audit log and MCP too; the
// solver's answers are left alone. The API docs pages carry the strict Content-Security-Policy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SWAGGER_UI_STYLE } from '../../src/http/csp.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { messageTable } from './fixtures.ts';
import { startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';

const ADMIN_TOKEN = 'admin-token-for-the-hardening-test';
const DOCS_CSP = `default-src 'self'; script-src 'self'; style-src 'self' ${SWAGGER_UI_STYLE}; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

describe('Cache-Control and CSP on HTTP answers', () => {
  let backend: Backend;
  let server: TestServer;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend, env: { VERDICT_ADMIN_TOKEN: ADMIN_TOKEN } });
    const created = await server.call('POST', '/api/rule', { key: server.space.managementKey, body: messageTable('hard-rule', 'hard-rule', 1, 'hi') });
    assert.equal(created.status, 200, created.text);
  });
  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  test('every management route answers no-store, with the key and without it', async () => {
    const paths = (await server.call('GET', '/api/docs/json')).json.paths as Record<string, Record<string, unknown>>;
    let checked = 0;
    for (const [template, operations] of Object.entries(paths)) {
      // Path parameters name the rule made above (or any text where it is something else): the status does not matter.
      const path = template.replace(/\{[^}]+\}/g, (p) => (/version/i.test(p) ? '1' : 'hard-rule'));
      for (const method of METHODS.filter((m) => m in operations)) {
        const body = method === 'get' || method === 'delete' ? undefined : {};
        for (const key of [server.space.managementKey, undefined]) {
          const reply = await server.call(method.toUpperCase(), path, { key, body });
          assert.equal(reply.headers.get('cache-control'), 'no-store', `${method.toUpperCase()} ${path} ${key ? 'with' : 'without'} the key: ${reply.status}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 80, `all management routes were tried (${checked} answers)`);
  });

  test('the audit log, MCP and the admin API answer no-store; the solver does not', async () => {
    const audit = await server.call('GET', '/api/audit', { key: server.space.managementKey });
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.headers.get('cache-control'), 'no-store');
    const mcp = await server.call('POST', '/mcp', {
      key: server.space.managementKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
    });
    assert.equal(mcp.status, 200, mcp.text);
    assert.equal(mcp.headers.get('cache-control'), 'no-store');
    for (const token of [ADMIN_TOKEN, 'wrong']) {
      const admin = await server.call('GET', '/admin/spaces', { key: token });
      assert.equal(admin.status, token === ADMIN_TOKEN ? 200 : 401);
      assert.equal(admin.headers.get('cache-control'), 'no-store', `admin with the ${token === ADMIN_TOKEN ? 'right' : 'wrong'} token`);
    }
    // Its own rule: the route walk above may have deleted or changed hard-rule.
    assert.equal((await server.call('POST', '/api/rule', { key: server.space.managementKey, body: messageTable('solve-me', 'solve-me', 1, 'hi') })).status, 200);
    const solved = await server.solve('/rule/solve/solve-me', { data: { any: 1 } });
    assert.equal(solved.status, 200, solved.text);
    assert.equal(solved.headers.get('cache-control'), null, 'the solver hot path sets no header (docs/decisions/browser-hardening.md)');
  });

  test('the API docs pages load with the strict CSP (one style element allowed by hash): HTML, their files, no inline script', async () => {
    for (const docs of ['/api/docs', '/api/solver/docs']) {
      const page = await server.call('GET', `${docs}/`);
      assert.equal(page.status, 200, docs);
      assert.equal(page.headers.get('content-security-policy'), DOCS_CSP, docs);
      assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)[^>]*>/, `${docs}: every script is a file`);
      assert.doesNotMatch(page.text, /<style/, `${docs}: no inline style element`);
      for (const asset of page.text.match(/(?:src|href)="\.\/static\/[^"]+"/g) ?? []) {
        const file = await server.call('GET', `${docs}/${asset.replace(/^(?:src|href)="\.\//, '').replace(/"$/, '')}`);
        assert.equal(file.status, 200, `${docs}: ${asset}`);
      }
    }
  });
});
