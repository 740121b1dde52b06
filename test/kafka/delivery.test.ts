// Delivery mechanics without a broker: partition lanes (order, commit only after acknowledgement, duplicates),
// the offset committer, the batching responder, and what an exactly-once transaction carries.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ResponseError } from '@platformatic/kafka';
import { OffsetCommitter } from '../../src/kafka/committer.ts';
import type { CommitTarget } from '../../src/kafka/committer.ts';
import { PartitionLane } from '../../src/kafka/lane.ts';
import type { LaneContext, LaneMessage } from '../../src/kafka/lane.ts';
import { Responder } from '../../src/kafka/responder.ts';
import type { OutgoingMessage, ResponseProducer } from '../../src/kafka/responder.ts';
import { isFenced, planTransaction } from '../../src/kafka/transactor.ts';
import type { RequestOrigin } from '../../src/kafka/transactor.ts';

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const message = (offset: number): LaneMessage => ({ topic: 't', partition: 0, offset: BigInt(offset), leaderEpoch: 3, headers: [], value: Buffer.from(String(offset)) });
const outgoing = (value: string): OutgoingMessage => ({ topic: 'r', partition: 0, key: undefined, value, headers: {} });
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A lane context whose answers and acknowledgements the test releases by hand. */
function harness() {
  const answers = new Map<number, Deferred<OutgoingMessage>>();
  const acks = new Map<string, Deferred<boolean>>();
  const answered: number[] = [];
  const delivered: string[] = [];
  const marks: CommitTarget[] = [];
  let settled = 0;
  const context: LaneContext = {
    answer: (m) => {
      const d = deferred<OutgoingMessage>();
      answers.set(Number(m.offset), d);
      answered.push(Number(m.offset));
      return d.promise;
    },
    deliver: (r) => {
      const d = deferred<boolean>();
      acks.set(r.value, d);
      delivered.push(r.value);
      return d.promise;
    },
    mark: (target) => marks.push(target),
    settled: () => settled++,
  };
  return { context, answers, acks, answered, delivered, marks, settled: () => settled };
}

describe('PartitionLane', () => {
  test('answers one message at a time, in offset order, even when answers take different times', async () => {
    const h = harness();
    const lane = new PartitionLane('t', 0, h.context);
    for (const offset of [10, 11, 12]) lane.push(message(offset));
    await tick();
    assert.deepEqual(h.answered, [10], 'the second waits for the first answer');
    h.answers.get(10)!.resolve(outgoing('10'));
    await tick();
    assert.deepEqual(h.answered, [10, 11]);
    h.answers.get(11)!.resolve(outgoing('11'));
    await tick();
    h.answers.get(12)!.resolve(outgoing('12'));
    await tick();
    assert.deepEqual(h.delivered, ['10', '11', '12'], 'responses are handed to the producer in order');
  });

  test('commits only up to the last acknowledged response with nothing unacknowledged before it', async () => {
    const h = harness();
    const lane = new PartitionLane('t', 0, h.context);
    for (const offset of [0, 1, 2, 3]) lane.push(message(offset));
    for (const offset of [0, 1, 2, 3]) {
      await tick();
      h.answers.get(offset)!.resolve(outgoing(String(offset)));
    }
    await tick();
    h.acks.get('1')!.resolve(true);
    h.acks.get('2')!.resolve(true);
    await tick();
    assert.deepEqual(h.marks, [], 'offset 0 is not acknowledged yet: nothing may be committed');
    h.acks.get('0')!.resolve(true);
    await tick();
    assert.deepEqual(h.marks, [{ topic: 't', partition: 0, offset: 3n, leaderEpoch: 3 }], 'next offset after the acknowledged prefix 0..2');
    h.acks.get('3')!.resolve(false);
    await tick();
    assert.equal(h.marks.length, 1, 'a response that was given up on is never committed');
    assert.equal(h.settled(), 4);
    await lane.whenIdle();
  });

  test('a re-fetched message (after a rebalance) is not answered twice', async () => {
    const h = harness();
    const lane = new PartitionLane('t', 0, h.context);
    assert.equal(lane.push(message(5)), true);
    assert.equal(lane.push(message(6)), true);
    assert.equal(lane.push(message(5)), false);
    assert.equal(lane.push(message(6)), false);
    assert.equal(lane.push(message(7)), true);
    assert.equal(lane.outstanding, 3);
  });

  test('dropQueued drops what has not started; the dropped offsets are read again later, the started one is finished', async () => {
    const h = harness();
    const lane = new PartitionLane('t', 0, h.context);
    for (const offset of [0, 1, 2]) lane.push(message(offset));
    await tick();
    assert.equal(lane.dropQueued(), 2);
    assert.equal(h.settled(), 2);
    assert.equal(lane.push(message(1)), true, 'offset 1 was dropped, so a re-fetch of it is accepted');
    let idle = false;
    void lane.whenIdle().then(() => (idle = true));
    h.answers.get(0)!.resolve(outgoing('0'));
    await tick();
    h.acks.get('0')!.resolve(true);
    await tick();
    h.answers.get(1)!.resolve(outgoing('1'));
    await tick();
    h.acks.get('1')!.resolve(true);
    await tick();
    assert.equal(idle, true);
    assert.deepEqual(h.marks.map((m) => m.offset), [1n, 2n]);
  });
});

describe('OffsetCommitter', () => {
  function port(fail = false) {
    const commits: CommitTarget[][] = [];
    return {
      commits,
      fail,
      port: {
        commit: (options: { offsets: CommitTarget[] }) => {
          commits.push(options.offsets);
          return fail ? Promise.reject(new Error('coordinator moved')) : Promise.resolve();
        },
        isActive: () => true,
      },
    };
  }
  const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };
  const target = (partition: number, offset: number): CommitTarget => ({ topic: 't', partition, offset: BigInt(offset), leaderEpoch: 0 });

  test('keeps the highest mark per partition and commits them together, once', async () => {
    const p = port();
    const committer = new OffsetCommitter(p.port, quiet, () => true);
    committer.mark(target(0, 5));
    committer.mark(target(0, 9));
    committer.mark(target(0, 7));
    committer.mark(target(1, 2));
    await committer.flush();
    assert.deepEqual(p.commits, [[target(0, 9), target(1, 2)]]);
    await committer.flush();
    assert.equal(p.commits.length, 1, 'nothing new, no commit');
    assert.equal(committer.committed('t', 0), 9n);
  });

  test('a failed commit keeps its marks for the next flush', async () => {
    const p = port(true);
    const committer = new OffsetCommitter(p.port, quiet, () => true);
    committer.mark(target(0, 4));
    await committer.flush();
    assert.equal(committer.committed('t', 0), undefined);
    await committer.flush();
    assert.equal(p.commits.length, 2, 'retried');
  });

  test('partitions this member no longer owns are not committed', async () => {
    const p = port();
    const committer = new OffsetCommitter(p.port, quiet, (_topic, partition) => partition !== 1);
    committer.mark(target(0, 4));
    committer.mark(target(1, 4));
    await committer.flush();
    assert.deepEqual(p.commits, [[target(0, 4)]]);
  });
});

describe('Responder', () => {
  test('batches responses queued while a send is in flight, keeps their order, acknowledges each', async () => {
    const sends: string[][] = [];
    const gates: Array<Deferred<void>> = [];
    const producer = {
      send: (options: { messages: Array<{ value: string }> }) => {
        sends.push(options.messages.map((m) => m.value));
        const gate = deferred<void>();
        gates.push(gate);
        return gate.promise;
      },
    } as unknown as ResponseProducer;
    const responder = new Responder(producer);
    const acked: string[] = [];
    const track = (value: string) => responder.send(outgoing(value)).then(() => acked.push(value));
    const all = [track('a'), track('b'), track('c')];
    await tick();
    assert.deepEqual(sends, [['a'], ]);
    gates[0]!.resolve();
    await tick();
    assert.deepEqual(sends, [['a'], ['b', 'c']], 'b and c waited for a and then went together');
    gates[1]!.resolve();
    await Promise.all(all);
    assert.deepEqual(acked, ['a', 'b', 'c']);
    await responder.flush();
  });

  test('a refused batch rejects each of its messages', async () => {
    const producer = { send: () => Promise.reject(new Error('MESSAGE_TOO_LARGE')) } as unknown as ResponseProducer;
    const responder = new Responder(producer);
    await assert.rejects(responder.send(outgoing('x')), /MESSAGE_TOO_LARGE/);
  });
});

describe('planTransaction (exactly-once mode)', () => {
  const entry = (partition: number, offset: number, generationId = 7, bytes = 100) => ({
    origin: { topic: 't', partition, offset: BigInt(offset), generationId },
    bytes,
  });
  const current = (origin: RequestOrigin) => origin.generationId === 7 && origin.partition !== 2;

  test('commits, per partition, the offset of its last request in the transaction', () => {
    const entries = [entry(0, 10), entry(1, 3), entry(0, 11), entry(0, 12), entry(1, 4)];
    const plan = planTransaction(entries, current);
    assert.deepEqual(plan.stale, []);
    assert.deepEqual(plan.sends, [entries], 'all in one produce request, in queue order');
    assert.deepEqual(plan.offsets.map((o) => [o.partition, o.offset]), [[0, 12n], [1, 4n]]);
  });

  test('leaves out requests of an earlier generation and of partitions no longer owned, and their offsets', () => {
    const old = entry(0, 9, 6);
    const moved = entry(2, 40);
    const kept = entry(0, 10);
    const plan = planTransaction([old, moved, kept], current);
    assert.deepEqual(plan.stale, [old, moved]);
    assert.deepEqual(plan.sends, [[kept]]);
    assert.deepEqual(plan.offsets.map((o) => [o.partition, o.offset]), [[0, 10n]]);
  });

  test('splits the responses into produce requests within the batch limits', () => {
    const big = Array.from({ length: 5 }, (_, i) => entry(0, i, 7, 200 * 1024));
    const plan = planTransaction(big, current);
    assert.deepEqual(plan.sends.map((send) => send.length), [2, 2, 1], '512 KiB per produce request');
    assert.equal(plan.offsets[0]!.offset, 4n, 'one offset for the whole transaction');
    const many = Array.from({ length: 4500 }, (_, i) => entry(1, i, 7, 10));
    assert.deepEqual(planTransaction(many, current).sends.map((send) => send.length), [2000, 2000, 500]);
  });

  test('nothing current: nothing to send or commit', () => {
    const plan = planTransaction([entry(2, 1), entry(0, 1, 3)], current);
    assert.equal(plan.stale.length, 2);
    assert.deepEqual(plan.sends, []);
    assert.deepEqual(plan.offsets, []);
  });

  test('a producer fenced by a newer one with the same transactional id is recognised in nested client errors', () => {
    // What the client raises for a broker's error code 90 (PRODUCER_FENCED) to InitProducerId (API key 22).
    assert.equal(isFenced(new ResponseError(22, 5, { '/': [90, 'newer producer'] }, {})), true);
    assert.equal(isFenced(new ResponseError(22, 5, { '/': [51, 'busy'] }, {})), false, 'CONCURRENT_TRANSACTIONS is retried');
    assert.equal(isFenced(new Error('PRODUCER_FENCED')), false);
  });
});
