// The lazy per-request logger writes exactly the lines Fastify's pino child would, and only at enabled levels.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { RequestLogger, httpLogger, requestLoggerFactory } from '../../src/http/request-logger.ts';

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

const comparable = (line: Record<string, unknown>) => ({ ...line, pid: 0, hostname: '', err: line.err === undefined ? undefined : { ...(line.err as object), stack: '' } });

test('a request logger writes the lines of the pino child Fastify would make', () => {
  const lazy = capture('info');
  const eager = capture('info');
  writeSome(new RequestLogger(httpLogger(lazy.logger), { correlationId: 'abc-1' }, {}) as unknown as Loose);
  writeSome(httpLogger(eager.logger).child({ correlationId: 'abc-1' }, {}) as unknown as Loose);
  assert.deepEqual(lazy.lines.map(comparable), eager.lines.map(comparable));
  assert.equal(lazy.lines.length, 3, 'debug is below the level');
  assert.ok(lazy.lines.every((line) => line.correlationId === 'abc-1' && line.service === 'verdict'));
  assert.equal((lazy.lines[1]!.err as { message: string }).message, 'boom', "Fastify's err serialiser");
});

test("levels follow the server logger's; nothing is written below it", () => {
  const { logger, lines } = capture('warn');
  const log = new RequestLogger(logger, { correlationId: 'abc-2' }, {});
  assert.equal(log.level, 'warn');
  assert.equal(log.isLevelEnabled('info'), false);
  assert.equal(log.isLevelEnabled('error'), true);
  log.info({ a: 1 }, 'not written');
  log.error({ a: 2 }, 'written');
  assert.deepEqual(lines.map((l) => [l.msg, l.correlationId]), [['written', 'abc-2']]);
});

test('a route with its own level gets a pino child at once', () => {
  const { logger, lines } = capture('warn');
  const log = requestLoggerFactory(logger)(pino({ enabled: false }), { correlationId: 'abc-3' }, { level: 'debug' });
  assert.ok(!(log instanceof RequestLogger));
  log.debug({}, 'route level');
  assert.deepEqual(lines.map((l) => [l.msg, l.correlationId]), [['route level', 'abc-3']]);
});
