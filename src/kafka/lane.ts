// One lane per assigned request partition: its messages are answered one after another, in offset order, while
// lanes of different partitions run concurrently. A request's offset is marked for commit only once its response
// (and every earlier one of the partition) has been acknowledged by the broker.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { CommitTarget } from './committer.ts';
import type { RequestMessage } from './handler.ts';
import type { OutgoingMessage } from './responder.ts';
import type { FetchedRequest } from './transactor.ts';

export interface LaneMessage extends RequestMessage {
  leaderEpoch: number;
  /** The message as fetched: exactly-once mode commits its offset in the transaction of its response. */
  fetched?: FetchedRequest;
}

export interface LaneContext {
  /** The response to a request; never rejects (failures are error responses). */
  answer(message: LaneMessage): Promise<OutgoingMessage>;
  /**
   * Queues the response with the producer synchronously (so responses keep the lane's order) and resolves true once
   * the broker acknowledged it (exactly once: committed it with the request's offset), false when it gave up.
   */
  deliver(response: OutgoingMessage, request: LaneMessage): Promise<boolean>;
  mark(target: CommitTarget): void;
  /** Called once per accepted message when it is done with (answered, given up, or dropped). */
  settled(): void;
}

interface Started {
  offset: bigint;
  leaderEpoch: number;
  done: boolean;
  acknowledged: boolean;
}

/** Give timers and sockets (heartbeats, fetches) a turn this often while a lane works through a backlog. */
const YIELD_EVERY = 64;

export class PartitionLane {
  readonly topic: string;
  readonly partition: number;
  readonly #context: LaneContext;
  #queue: LaneMessage[] = [];
  /** Everything below was accepted by this lane (queued, answered or in flight): a re-fetch of it is a duplicate. */
  #nextOffset: bigint | undefined;
  #started: Started[] = [];
  #running = false;
  #outstanding = 0;
  #idleWaiters: Array<() => void> = [];

  constructor(topic: string, partition: number, context: LaneContext) {
    this.topic = topic;
    this.partition = partition;
    this.#context = context;
  }

  /** Queues a message; false when it was already accepted earlier (a re-fetch after a rebalance). */
  push(message: LaneMessage): boolean {
    if (this.#nextOffset !== undefined && message.offset < this.#nextOffset) return false;
    this.#nextOffset = message.offset + 1n;
    this.#queue.push(message);
    this.#outstanding++;
    if (!this.#running) void this.#run();
    return true;
  }

  /** Messages accepted and not yet settled. */
  get outstanding(): number {
    return this.#outstanding;
  }

  /**
   * The partition left this member (rebalance) or the channel stops: drop what has not started (the partition's
   * next owner reads it again from the committed offset); what is in flight still finishes.
   */
  dropQueued(): number {
    const dropped = this.#queue.length;
    if (dropped > 0) {
      this.#nextOffset = this.#queue[0]!.offset;
      this.#queue = [];
      for (let i = 0; i < dropped; i++) this.#settle();
    }
    return dropped;
  }

  whenIdle(): Promise<void> {
    if (this.#outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      let count = 0;
      while (this.#queue.length > 0) {
        if (++count % YIELD_EVERY === 0) await yieldToEventLoop();
        const message = this.#queue.shift();
        if (message === undefined) break;
        const started: Started = { offset: message.offset, leaderEpoch: message.leaderEpoch, done: false, acknowledged: false };
        this.#started.push(started);
        // Answers are computed in order; acknowledgements are awaited concurrently so that responses batch.
        let response: OutgoingMessage;
        try {
          response = await this.#context.answer(message);
        } catch {
          // Not answerable here (the topic was unbound meanwhile): leave it uncommitted for whoever reads it next.
          this.#finish(started, false);
          continue;
        }
        void this.#context.deliver(response, message).then(
          (ok) => this.#finish(started, ok),
          () => this.#finish(started, false),
        );
      }
    } finally {
      this.#running = false;
    }
  }

  #finish(started: Started, acknowledged: boolean): void {
    started.done = true;
    started.acknowledged = acknowledged;
    // Commit up to the first message that is not acknowledged: nothing unanswered may be skipped.
    let last: Started | undefined;
    while (this.#started.length > 0 && this.#started[0]!.done && this.#started[0]!.acknowledged) last = this.#started.shift();
    if (last !== undefined) {
      this.#context.mark({ topic: this.topic, partition: this.partition, offset: last.offset + 1n, leaderEpoch: last.leaderEpoch });
    }
    this.#settle();
  }

  #settle(): void {
    this.#outstanding--;
    this.#context.settled();
    if (this.#outstanding === 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}
