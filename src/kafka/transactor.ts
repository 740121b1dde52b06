// Exactly-once mode (KAFKA_EXACTLY_ONCE=true): responses and the offsets of the requests they answer commit in one
// Kafka transaction, so a reader with isolation.level=read_committed sees each answer once, crash or not. Like the
// responder, batching is Nagle-style: while one transaction commits, new responses queue for the next one.
//
// A transaction only carries requests fetched in the consumer group's current generation from partitions this
// member still owns; the brokers check the generation too (the offsets are committed under it). Responses to other
// requests are dropped uncommitted: the partition's owner reads those requests again from the committed offset.
import { findErrorBy } from '@platformatic/kafka';
import type { Consumer, Message } from '@platformatic/kafka';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeKafkaError } from './connection.ts';
import type { ChannelLogger } from './handler.ts';
import { batchLength, messageBytes, toRecord } from './responder.ts';
import type { OutgoingMessage, ResponseProducer } from './responder.ts';

type RequestConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;
/** The fetched request message: the client commits `offset + 1` under the group generation in its metadata. */
export type FetchedRequest = Message<Buffer, Buffer, Buffer, Buffer>;

/** Where a response's request came from. */
export interface RequestOrigin {
  topic: string;
  partition: number;
  offset: bigint;
  /** The consumer group generation the request was fetched in. */
  generationId: number;
}

export interface Planned<O extends RequestOrigin = RequestOrigin> {
  origin: O;
  bytes: number;
}

export interface TransactionPlan<T extends Planned> {
  /** Responses to requests of an earlier generation or of a partition this member no longer owns. */
  stale: T[];
  /** Produce requests, in queue order, each within the broker's batch limits. */
  sends: T[][];
  /** Per request partition, the origin of its last request in the transaction: its offset + 1 is committed. */
  offsets: Array<T['origin']>;
}

/**
 * What one transaction writes. Responses of one partition are queued in offset order (lanes), so the last one
 * per partition carries the offset to commit; responses whose origin is not current any more are left out.
 */
export function planTransaction<T extends Planned>(entries: readonly T[], isCurrent: (origin: RequestOrigin) => boolean): TransactionPlan<T> {
  const stale: T[] = [];
  const kept: T[] = [];
  const last = new Map<string, T['origin']>();
  for (const entry of entries) {
    if (!isCurrent(entry.origin)) {
      stale.push(entry);
      continue;
    }
    kept.push(entry);
    const key = `${entry.origin.topic}:${entry.origin.partition}`;
    const previous = last.get(key);
    if (previous === undefined || previous.offset < entry.origin.offset) last.set(key, entry.origin);
  }
  const sends: T[][] = [];
  for (let i = 0; i < kept.length; ) {
    const count = batchLength(kept, i);
    sends.push(kept.slice(i, i + count));
    i += count;
  }
  return { stale, sends, offsets: [...last.values()] };
}

/** The group generation a fetched message carries in its metadata (set by the client at fetch time). */
export function generationOf(message: FetchedRequest): number | undefined {
  const consumer = message.metadata.consumer as { generationId?: unknown } | undefined;
  return typeof consumer?.generationId === 'number' ? consumer.generationId : undefined;
}

interface Entry extends Planned<RequestOrigin & { message: FetchedRequest }> {
  response: OutgoingMessage;
  resolve: (committed: boolean) => void;
}

export interface TransactorOptions {
  transactionalId: string;
  /** A new producer with the transactional id (a failed abort replaces the producer). */
  createProducer: () => ResponseProducer;
  consumer: RequestConsumer;
  /** Whether a request's response may still commit: fetched in the current generation, partition still owned. */
  isCurrent: (origin: RequestOrigin) => boolean;
  /** Another producer took over the transactional id: this instance must stop answering. */
  onFenced: (error: unknown) => void;
  log: ChannelLogger;
}

/** Most responses one transaction carries; the rest wait for the next one. */
const MAX_TRANSACTION_MESSAGES = 10_000;
const RETRY_DELAYS_MS = [100, 500, 1000, 2000, 5000];
/**
 * InitProducerId as a new producer (-1/-1): the client would otherwise send producer id 0, epoch 0, which the
 * broker reads as "I am producer 0" and refuses with PRODUCER_FENCED once the id belongs to another producer.
 */
const AS_NEW_PRODUCER = { producerId: -1n, producerEpoch: -1 };

export class Transactor {
  readonly #options: TransactorOptions;
  #producer: ResponseProducer;
  #queue: Entry[] = [];
  #inFlight: Promise<void> | undefined;
  #stopping = false;
  #fenced = false;
  #fenceReported = false;
  #committed = 0;
  #transactions = 0;

  constructor(options: TransactorOptions) {
    this.#options = options;
    this.#producer = options.createProducer();
  }

  get producer(): ResponseProducer {
    return this.#producer;
  }

  /** Transactions and responses committed since start. */
  get stats(): { transactions: number; responses: number } {
    return { transactions: this.#transactions, responses: this.#committed };
  }

  /**
   * Registers the transactional id with its coordinator. This fences an earlier producer with the same id (the
   * instance's predecessor) and aborts the transaction it left open; do it before the consumer reads offsets.
   */
  async init(): Promise<void> {
    const transaction = await this.#producer.beginTransaction(AS_NEW_PRODUCER);
    await transaction.cancel();
  }

  /** Resolves true once the response and its request's offset are committed, false when they never will be. */
  send(response: OutgoingMessage, request: FetchedRequest): Promise<boolean> {
    if (this.#fenced || this.#stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const generationId = generationOf(request) ?? -1;
      const origin = { topic: request.topic, partition: request.partition, offset: request.offset, generationId, message: request };
      this.#queue.push({ response, origin, bytes: messageBytes(response), resolve });
      this.#inFlight ??= this.#drain();
    });
  }

  /** Resolves when everything queued so far is committed or given up. */
  async flush(): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight;
  }

  /** From now on a failed transaction is given up instead of retried (shutdown). */
  stop(): void {
    this.#stopping = true;
  }

  async close(): Promise<void> {
    await this.#producer.close().catch(() => undefined);
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, MAX_TRANSACTION_MESSAGES));
    } finally {
      this.#inFlight = undefined;
    }
  }

  /** Commits the entries in one transaction, retrying until done, fenced, or stopping. */
  async #commit(entries: Entry[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const plan = planTransaction(entries, this.#options.isCurrent);
      for (const entry of plan.stale) entry.resolve(false);
      entries = plan.sends.flat();
      if (entries.length === 0) return;
      try {
        await this.#transaction(plan);
        this.#transactions++;
        this.#committed += entries.length;
        for (const entry of entries) entry.resolve(true);
        return;
      } catch (err) {
        if (isFenced(err)) this.#fenced = true;
        else await this.#abort();
        if (this.#fenced || this.#stopping) {
          for (const entry of entries) entry.resolve(false);
          if (this.#fenced) this.#reportFenced(err);
          return;
        }
        this.#options.log.warn(
          { err: describeKafkaError(err), responses: entries.length, attempt, transactionalId: this.#options.transactionalId },
          'kafka transaction failed and was aborted; retrying',
        );
        await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]);
      }
    }
  }

  #reportFenced(err: unknown): void {
    if (this.#fenceReported) return;
    this.#fenceReported = true;
    for (const entry of this.#queue.splice(0)) entry.resolve(false);
    this.#options.onFenced(err);
  }

  async #transaction(plan: TransactionPlan<Entry>): Promise<void> {
    const transaction = await this.#producer.beginTransaction(AS_NEW_PRODUCER);
    // One produce request at a time: the idempotent producer's sequence numbers keep them in order.
    for (const send of plan.sends) await transaction.send({ messages: send.map((entry) => toRecord(entry.response)) });
    await transaction.addConsumer(this.#options.consumer);
    // One at a time too: the client merges concurrent offset commits of a producer into one call.
    for (const origin of plan.offsets) await transaction.addOffset(origin.message);
    await transaction.commit();
  }

  /** Aborts the open transaction; when that fails, a new producer with the same id fences this one and aborts it. */
  async #abort(): Promise<void> {
    const transaction = this.#producer.transaction;
    if (transaction === undefined) return;
    try {
      await transaction.abort();
      return;
    } catch (err) {
      if (isFenced(err)) {
        this.#fenced = true;
        return;
      }
      this.#options.log.warn({ err: describeKafkaError(err) }, 'kafka transaction abort failed; replacing the producer');
    }
    const previous = this.#producer;
    this.#producer = this.#options.createProducer();
    await previous.close().catch(() => undefined);
    try {
      await this.init();
    } catch (err) {
      if (isFenced(err)) this.#fenced = true;
      // Otherwise the next attempt's beginTransaction initialises it again.
    }
  }
}

/** Another producer registered the same transactional id after this one (or the id is not authorised). */
export function isFenced(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    findErrorBy(error, 'apiId', 'PRODUCER_FENCED') !== null ||
    findErrorBy(error, 'apiId', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED') !== null
  );
}
