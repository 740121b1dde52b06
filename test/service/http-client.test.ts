// HTTP functions may call only allowlisted hosts, follow redirects only within the host, and are bounded.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { RuleError } from '../../src/engine/errors.ts';
import { AllowlistHttpClient, hostAllowed } from '../../src/service/http-client.ts';

test('hostAllowed: exact host (any port), host:port, *.domain', () => {
  const allow = ['api.example.com', 'localhost:9000', '*.partner.io'];
  assert.equal(hostAllowed(new URL('https://api.example.com/x'), allow), true);
  assert.equal(hostAllowed(new URL('http://api.example.com:8080/x'), allow), true);
  assert.equal(hostAllowed(new URL('http://localhost:9000/'), allow), true);
  assert.equal(hostAllowed(new URL('http://localhost:9001/'), allow), false);
  assert.equal(hostAllowed(new URL('https://eu.partner.io/'), allow), true);
  assert.equal(hostAllowed(new URL('https://partner.io/'), allow), false);
  assert.equal(hostAllowed(new URL('https://evilpartner.io/'), allow), false);
  assert.equal(hostAllowed(new URL('https://api.example.com.evil.net/'), allow), false);
  assert.equal(hostAllowed(new URL('http://169.254.169.254/'), []), false);
});

describe('AllowlistHttpClient against a local server', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/json') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true, method: req.method }));
      } else if (req.url === '/echo') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => res.end(body));
      } else if (req.url === '/same-host-redirect') {
        res.writeHead(302, { location: '/json' }).end();
      } else if (req.url === '/other-host-redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else if (req.url === '/big') {
        res.end('x'.repeat(5000));
      } else if (req.url === '/slow') {
        // Never answered (after() closes the connection): the client's limit is the only way this call ends.
      } else {
        res.writeHead(404).end('nope');
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  // A limit far above any answer of the local server, however loaded the machine: only /slow, which never answers,
  // meets a limit (its own client's).
  const client = (allow: string, timeoutMs = '60000') =>
    new AllowlistHttpClient({ ...loadConfig({ HTTP_FUNCTIONS_ALLOW: allow, HTTP_FUNCTIONS_TIMEOUT_MS: timeoutMs }).httpFunctions });

  test('no host is allowed by default', async () => {
    await assert.rejects(new AllowlistHttpClient(loadConfig({}).httpFunctions).request({ method: 'GET', url: `http://127.0.0.1:${port}/json` }), (err: Error) =>
      err instanceof RuleError && /not allowed.*HTTP_FUNCTIONS_ALLOW/.test(err.message));
  });

  test('an allowed host answers: JSON parsed, text kept, status passed through', async () => {
    const c = client('127.0.0.1');
    assert.deepEqual((await c.request({ method: 'GET', url: `http://127.0.0.1:${port}/json` })).body, { ok: true, method: 'GET' });
    const echoed = await c.request({ method: 'POST', url: `http://127.0.0.1:${port}/echo`, body: { a: 1 } });
    assert.deepEqual(echoed.body, { a: 1 });
    const missing = await c.request({ method: 'GET', url: `http://127.0.0.1:${port}/missing` });
    assert.equal(missing.status, 404);
    assert.equal(missing.body, 'nope');
  });

  test('redirects: followed within the host, refused to another host, bounded', async () => {
    const c = client('127.0.0.1');
    assert.deepEqual((await c.request({ method: 'GET', url: `http://127.0.0.1:${port}/same-host-redirect` })).body, { ok: true, method: 'GET' });
    await assert.rejects(c.request({ method: 'GET', url: `http://127.0.0.1:${port}/other-host-redirect` }), /redirected to another host/);
    await assert.rejects(c.request({ method: 'GET', url: `http://127.0.0.1:${port}/loop` }), /redirected more than 5 times/);
  });

  // The time limit is what ends the call to /slow: without it the test would wait for ever, so it has a guard.
  test('size and time limits', { timeout: 60_000 }, async () => {
    const c = client('127.0.0.1');
    await assert.rejects(c.request({ method: 'GET', url: `http://127.0.0.1:${port}/big` }), /exceeds the limit of 3000 bytes/);
    await assert.rejects(c.request({ method: 'POST', url: `http://127.0.0.1:${port}/echo`, body: 'y'.repeat(20000) }), /request body .* exceeds the limit of 10000 bytes/);
    await assert.rejects(client('127.0.0.1', '300').request({ method: 'GET', url: `http://127.0.0.1:${port}/slow` }), /longer than 300 ms/);
  });

  test('only http and https, only absolute URLs', async () => {
    const c = client('127.0.0.1');
    await assert.rejects(c.request({ method: 'GET', url: 'file:///etc/passwd' }), /only http and https/);
    await assert.rejects(c.request({ method: 'GET', url: '/relative' }), /not an absolute URL/);
  });
});
