// Audit records are batched off the hot path: a full batch or the timer writes; a full queue drops and counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { AuditWriter } from '../../src/service/audit-writer.ts';
import { Metrics } from '../../src/service/metrics.ts';
import type { AuditRecord, AuditStore } from '../../src/store/ports.ts';

function record(id: string): AuditRecord {
  return {
    id, space: 's', correlationId: id, ruleId: 'r', ruleAlias: null, version: 1, ruleType: 'decision-table', strategy: 'STANDARD',
    input: {}, output: [], statusCode: 200, errorMessage: null, errorKind: null, executionTimeMs: 1, createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-15T00:00:00.000Z', debug: null,
  };
}

function fakeStore(fail = false): AuditStore & { batches: string[][]; inputs: string[]; written: Promise<void> } {
  const batches: string[][] = [];
  const inputs: string[] = [];
  let firstWrite!: () => void;
  return {
    batches,
    inputs,
    /** Resolves once a batch has been written. */
    written: new Promise<void>((resolve) => (firstWrite = resolve)),
    insertMany: (records) => {
      if (fail) return Promise.reject(new Error('disk full'));
      batches.push(records.map((r) => r.id));
      inputs.push(...records.map((r) => r.input));
      firstWrite();
      return Promise.resolve();
    },
    list: () => Promise.resolve({ items: [], nextCursor: null }),
    deleteExpired: () => Promise.resolve(0),
  };
}

const quiet = { error: () => undefined, warn: () => undefined };
const config = (env: Record<string, string>) => loadConfig(env).audit;

test('enqueue does not write; flush writes in batches of AUDIT_BATCH_SIZE', async () => {
  const store = fakeStore();
  const writer = new AuditWriter(store, config({ AUDIT_BATCH_SIZE: '2', AUDIT_FLUSH_MS: '100000' }), quiet, new Metrics({ defaultMetrics: false }));
  writer.enqueue(record('a'));
  assert.deepEqual(store.batches, [], 'nothing written on the solve path');
  writer.enqueue(record('b')); // a full batch triggers a write
  writer.enqueue(record('c'));
  await writer.flush();
  assert.deepEqual(store.batches, [['a', 'b'], ['c']]);
  assert.equal(writer.pending, 0);
});

test('the timer flushes; stop() flushes what is left', { timeout: 60_000 }, async () => {
  const store = fakeStore();
  const writer = new AuditWriter(store, config({ AUDIT_FLUSH_MS: '5' }), quiet, new Metrics({ defaultMetrics: false }));
  writer.start();
  writer.enqueue(record('t'));
  // Nothing but the timer writes here (no flush() call, the batch is far from full): wait for the write itself,
  // with a guard that fails the test when it never comes (the writer's timer is unref'd: it keeps nothing running).
  const guard = AbortSignal.timeout(30_000);
  await Promise.race([store.written, new Promise((_, reject) => guard.addEventListener('abort', () => reject(new Error('the timer never flushed'))))]);
  assert.deepEqual(store.batches, [['t']]);
  writer.enqueue(record('u'));
  await writer.stop();
  assert.deepEqual(store.batches, [['t'], ['u']]);
});

test('a full queue drops records and counts them; a failing store never throws into the solve path', async () => {
  const metrics = new Metrics({ defaultMetrics: false });
  const writer = new AuditWriter(fakeStore(true), config({ AUDIT_QUEUE_LIMIT: '2', AUDIT_BATCH_SIZE: '100', AUDIT_FLUSH_MS: '100000' }), quiet, metrics);
  writer.enqueue(record('1'));
  writer.enqueue(record('2'));
  writer.enqueue(record('3'));
  await writer.flush();
  const dropped = (await metrics.auditDropped.get()).values[0]?.value;
  assert.equal(dropped, 3, 'one dropped by the full queue, two by the failed write');
});

test('a record that cannot be serialised is dropped alone: the good records of its batch, of every space, are written', async () => {
  const metrics = new Metrics({ defaultMetrics: false });
  const store = fakeStore();
  const warnings: Array<Record<string, unknown>> = [];
  const log = { error: () => undefined, warn: (obj: object) => void warnings.push(obj as Record<string, unknown>) };
  const writer = new AuditWriter(store, config({ AUDIT_BATCH_SIZE: '500', AUDIT_FLUSH_MS: '100000' }), log, metrics);
  // The reproduction: `data` nested 10,000 levels deep parses, but JSON.stringify throws RangeError on it.
  let deep: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < 10_000; i++) deep = { a: deep };
  writer.enqueue({ ...record('good-1'), space: 'space-a' });
  writer.enqueue({ ...record('poisoned'), space: 'space-b', input: deep as never });
  writer.enqueue({ ...record('good-2'), space: 'space-c' });
  writer.enqueue({ ...record('bad-output'), space: 'space-a', output: [deep] as never });
  writer.enqueue({ ...record('bad-debug'), space: 'space-c', debug: deep as never });
  writer.enqueue({ ...record('good-5'), space: 'space-a' });
  await writer.flush();
  assert.deepEqual(store.batches, [['good-1', 'good-2', 'good-5']]);
  assert.deepEqual(store.inputs, ['{}', '{}', '{}'], 'records reach the store as JSON text');
  assert.equal((await metrics.auditDropped.get()).values[0]?.value, 3, 'each bad record counted once');
  assert.equal((await metrics.auditWritten.get()).values[0]?.value, 3);
  assert.deepEqual(warnings.map((w) => w.auditId), ['poisoned', 'bad-output', 'bad-debug']);
  assert.equal(warnings[0]!.space, 'space-b');
  assert.equal(writer.pending, 0);
});
