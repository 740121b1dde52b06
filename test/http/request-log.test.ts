// Fastify runs without a logger; the server's logger is used through request-log.ts. The lines are the ones the
// pino child Fastify would make: same bindings, same serialisers, only at enabled levels, for our lines and for
// Fastify's own (request-scoped and server-level).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { RequestLog, httpLog } from '../../src/http/request-log.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';

function capture(level: string): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level, base: { service: 'verdict' }, timestamp: false }, sink), lines };
}

type Loose = Record<'info' | 'error' | 'warn' | 'debug', (...args: unknown[]) => void>;

function writeSome(log: Loose): void {
  log.info({ method: 'POST', statusCode: 200 }, 'request');
  log.error({ err: new Error('boom') }, 'request failed');
  log.warn('plain %s', 'text');
  log.debug({ hidden: true }, 'below the level');
}

test('a request log writes the lines of the pino child with the correlation id', () => {
  const lazy = capture('info');
  const eager = capture('info');
  writeSome(new RequestLog(httpLog(lazy.logger), 'abc-1') as unknown as Loose);
  writeSome(httpLog(eager.logger).child({ correlationId: 'abc-1' }) as unknown as Loose);
  // Two Error objects made on different lines: their stacks differ by the line number.
  const comparable = (line: Record<string, unknown>) => (line.err === undefined ? line : { ...line, err: { ...(line.err as object), stack: '' } });
  assert.deepEqual(lazy.lines.map(comparable), eager.lines.map(comparable));
  assert.equal(lazy.lines.length, 3, 'debug is below the level');
  assert.ok(lazy.lines.every((line) => line.correlationId === 'abc-1' && line.service === 'verdict'));
  assert.equal((lazy.lines[1]!.err as { message: string; type: string }).message, 'boom', "pino's err serialiser");
});

test("levels follow the server logger's; nothing is written below it", () => {
  const { logger, lines } = capture('warn');
  const log = new RequestLog(logger, 'abc-2');
  assert.equal(log.level, 'warn');
  assert.equal(log.isLevelEnabled('info'), false);
  assert.equal(log.isLevelEnabled('error'), true);
  log.info({ a: 1 }, 'not written');
  log.error({ a: 2 }, 'written');
  assert.deepEqual(lines.map((l) => [l.msg, l.correlationId]), [['written', 'abc-2']]);
  assert.deepEqual(log.bindings(), { service: 'verdict', correlationId: 'abc-2' });
});

test("Fastify's req and res keep the shape Fastify's logger gave them", () => {
  const { logger, lines } = capture('info');
  const request = { method: 'GET', url: '/x', headers: { 'accept-version': '1' }, host: 'h', ip: '127.0.0.1', socket: { remotePort: 5 } };
  httpLog(logger).info({ req: request, res: { statusCode: 404 } }, 'line');
  assert.deepEqual(lines[0]!.req, { method: 'GET', url: '/x', version: '1', host: 'h', remoteAddress: '127.0.0.1', remotePort: 5 });
  assert.deepEqual(lines[0]!.res, { statusCode: 404 });
});

describe('a served request', () => {
  let backend: Backend;
  let server: TestServer;
  const routes = async (app: FastifyInstance): Promise<void> => {
    app.get('/test/fail', () => {
      throw new Error('boom');
    });
    app.get('/test/twice', (_request, reply) => {
      void reply.send({ one: 1 });
      void reply.send({ two: 2 });
    });
  };

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend, plugins: [routes] });
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  test('a fault of ours is logged at error with the correlation id and the error', async () => {
    const answer = await server.call('GET', '/test/fail', { headers: { 'x-correlation-id': 'fail-1' } });
    assert.equal(answer.status, 500);
    const line = server.logs.find((l) => l.correlationId === 'fail-1' && l.msg === 'request failed');
    assert.ok(line, 'the error line');
    assert.equal(line.level, 50);
    assert.equal((line.err as { message: string }).message, 'boom');
    assert.match((line.err as { stack: string }).stack, /boom/);
    const request = server.logs.find((l) => l.correlationId === 'fail-1' && l.msg === 'request');
    assert.deepEqual({ ...request, time: 0, pid: 0, hostname: '', ms: 0 }, { level: 30, time: 0, pid: 0, hostname: '', correlationId: 'fail-1', method: 'GET', url: '/test/fail', statusCode: 500, ms: 0, msg: 'request' });
  });

  test("Fastify's own request lines carry the correlation id", async () => {
    await server.call('GET', '/test/twice', { headers: { 'x-correlation-id': 'twice-1' } });
    const line = server.logs.find((l) => l.correlationId === 'twice-1' && l.level === 40);
    assert.ok(line, "Fastify's warning about a second reply");
    assert.equal((line.err as { code: string }).code, 'FST_ERR_REP_ALREADY_SENT');
  });

  test("Fastify's server lines are written by the server's logger", () => {
    assert.ok(server.logs.some((l) => typeof l.msg === 'string' && l.msg.startsWith('Server listening at http://127.0.0.1:') && l.level === 30));
  });
});
