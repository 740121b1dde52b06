// Requests Node's HTTP parser refuses (issue: hostile input, item 7): raw bytes over a real TCP socket to a real
// listening server; the answer must be our error shape with a correlation id and Connection: close.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface RawReply {
  statusLine: string;
  headers: Map<string, string>;
  body: string;
}

/** Sends `bytes` as is and reads until the server closes the connection. */
function sendRaw(url: string, bytes: Buffer): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    // A guard for a server that never closes, not a limit: the refusal is answered at once, but not always within a
    // few seconds on a loaded machine.
    socket.setTimeout(60_000, () => socket.destroy(new Error('the server did not close the connection within a minute')));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ statusLine, headers, body });
    });
  });
}

function request(head: string, body = ''): Buffer {
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), Buffer.from(body, 'latin1')]);
}

function assertRefused(reply: RawReply, statusLine: string, message: string | RegExp): void {
  assert.equal(reply.statusLine, statusLine);
  assert.match(reply.headers.get('x-correlation-id') ?? '', UUID, 'a generated X-Correlation-Id');
  assert.equal(reply.headers.get('connection'), 'close');
  assert.equal(reply.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(Number(reply.headers.get('content-length')), Buffer.byteLength(reply.body));
  const parsed = JSON.parse(reply.body) as { error: { message: string } };
  assert.deepEqual(Object.keys(parsed), ['error']);
  assert.deepEqual(Object.keys(parsed.error), ['message']);
  if (typeof message === 'string') assert.equal(parsed.error.message, message);
  else assert.match(parsed.error.message, message);
}

describe('malformed HTTP requests are answered in the error shape', () => {
  let backend: Backend;
  let server: TestServer;
  const solve = (headers: string) => `POST /rule/solve/anything HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer x\r\nContent-Type: application/json\r\n${headers}`;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend });
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  test('duplicate Content-Length', async () => {
    const reply = await sendRaw(server.url, request(solve('Content-Length: 2\r\nContent-Length: 3'), '{}'));
    assertRefused(reply, 'HTTP/1.1 400 Bad Request', 'Malformed HTTP request: Content-Length is given more than once (Duplicate Content-Length)');
  });

  test('negative Content-Length', async () => {
    const reply = await sendRaw(server.url, request(solve('Content-Length: -1'), '{}'));
    assertRefused(reply, 'HTTP/1.1 400 Bad Request', 'Malformed HTTP request: Content-Length must be a non-negative integer (Invalid character in Content-Length)');
  });

  test('Transfer-Encoding together with Content-Length', async () => {
    const reply = await sendRaw(server.url, request(solve('Content-Length: 2\r\nTransfer-Encoding: chunked'), '2\r\n{}\r\n0\r\n\r\n'));
    assertRefused(reply, 'HTTP/1.1 400 Bad Request', /^Malformed HTTP request: Transfer-Encoding is invalid, or given together with Content-Length/);
  });

  test('a bad chunk size after the request has started', async () => {
    const reply = await sendRaw(server.url, request(solve('Transfer-Encoding: chunked'), 'zz\r\n{}\r\n0\r\n\r\n'));
    assertRefused(reply, 'HTTP/1.1 400 Bad Request', 'Malformed HTTP request: a chunk size of the chunked body is not a hexadecimal number (Invalid character in chunk size)');
  });

  test('a non-ASCII byte in a header name, and a control character in a value', async () => {
    let reply = await sendRaw(server.url, request(solve('X-F\u00e9e: 1\r\nContent-Length: 2'), '{}'));
    assertRefused(reply, 'HTTP/1.1 400 Bad Request', /^Malformed HTTP request: a header name or value contains a byte HTTP does not allow .*\(Invalid header token\)$/);
    reply = await sendRaw(server.url, request(solve('X-Fee: a\u0001b\r\nContent-Length: 2'), '{}'));
    assertRefused(reply, 'HTTP/1.1 400 Bad Request', /\(Invalid header value char\)$/);
  });

  test('headers over 16 KB: 431', async () => {
    const reply = await sendRaw(server.url, request(solve(`X-Big: ${'a'.repeat(17_000)}\r\nContent-Length: 2`), '{}'));
    assertRefused(reply, 'HTTP/1.1 431 Request Header Fields Too Large', 'Request headers exceed the limit of 16384 bytes');
  });

  test('the refusal is logged under its correlation id, and the server keeps serving', async () => {
    const reply = await sendRaw(server.url, request('G@T / HTTP/1.1\r\nHost: localhost'));
    assertRefused(reply, 'HTTP/1.1 400 Bad Request', 'Malformed HTTP request: the request method is not valid (Invalid method encountered)');
    const id = reply.headers.get('x-correlation-id');
    assert.ok(server.logs.some((line) => line.correlationId === id && line.code === 'HPE_INVALID_METHOD'), 'a log line with the same id');
    const health = await server.call('GET', '/health-check');
    assert.equal(health.status, 200);
    assert.deepEqual(server.logs.filter((line) => Number(line.level) >= 50), [], 'nothing logged as a fault of ours');
  });
});

/** A raw connection: what the server sent so far, and whether (and when, in order of events) it closed. */
function openRaw(url: string): Promise<{ write(bytes: string): void; received(): string; closed: Promise<string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname);
    // A guard against a server that never closes (the behaviour under test), not a measure of its speed.
    socket.setTimeout(60_000, () => socket.destroy(new Error('the server did not close the connection within a minute')));
    const closed = new Promise<string>((done, fail) => {
      socket.on('error', fail);
      socket.on('close', () => done(text));
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.once('connect', () => resolve({ write: (bytes) => socket.write(bytes, 'latin1'), received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Resolves once `condition` holds for what the connection received (the order of events, not a time). */
async function receivedSoFar(connection: { received(): string }, condition: (text: string) => boolean): Promise<string> {
  while (!condition(connection.received())) await new Promise((resolve) => setTimeout(resolve, 20));
  return connection.received();
}

describe('a body that never arrives whole (BODY_TIMEOUT_MS)', () => {
  let backend: Backend;
  let server: TestServer;
  const head = (key: string, length: number) =>
    `POST /rule/solve/anything HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend, env: { BODY_TIMEOUT_MS: '400' } });
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  test('answered before its body (a refused key): the 401 comes at once and the connection is closed after the timeout', async () => {
    const connection = await openRaw(server.url);
    connection.write(`${head('not-a-key', 100)}{"data":`);
    // The 401 is on the wire while the connection is still open, waiting for the promised bytes.
    const answered = await receivedSoFar(connection, (text) => text.includes('\r\n\r\n{"error"'));
    assert.match(answered, /^HTTP\/1\.1 401 /);
    const all = await connection.closed;
    assert.equal(all, answered, 'nothing follows the 401: no second answer (408) for the same request');
    assert.ok(server.logs.some((line) => line.msg === 'closed a connection whose answered request never sent its whole body'));
  });

  test('a request whose body never comes whole is answered 408 in the error shape, then closed', async () => {
    const connection = await openRaw(server.url);
    connection.write(`${head(server.space.solverKey, 100)}{"data":`);
    const text = await connection.closed;
    assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(text, /\r\nconnection: close\r\n/i);
    assert.deepEqual(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)), { error: { message: 'The request was not received completely in time' } });
  });

  test('a body that does arrive whole after an early answer keeps the connection serving', async () => {
    const connection = await openRaw(server.url);
    const body = '{"data":{}}';
    connection.write(`${head('not-a-key', body.length)}${body.slice(0, 4)}`);
    await receivedSoFar(connection, (text) => text.includes('\r\n\r\n{"error"'));
    connection.write(body.slice(4));
    connection.write('GET /health-check HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const text = await connection.closed;
    assert.deepEqual(text.match(/HTTP\/1\.1 \d{3}/g), ['HTTP/1.1 401', 'HTTP/1.1 200'], JSON.stringify(text));
  });
});
