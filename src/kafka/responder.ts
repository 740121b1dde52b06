// Writes response messages through one idempotent producer (acks=all). Sends are batched Nagle-style: while
// one produce request is in flight, new responses queue up and go out together in the next one. Batches leave
// strictly one after another, so responses keep the order in which they were queued (per partition as well).
import { Producer, stringSerializer } from '@platformatic/kafka';
import type { ClientConnection } from './connection.ts';

export interface OutgoingMessage {
  topic: string;
  partition: number;
  key: Buffer | undefined;
  value: string;
  headers: Record<string, string>;
}

interface Pending {
  message: OutgoingMessage;
  bytes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Kafka limits a partition's record batch to message.max.bytes (about 1 MB by default): stay well below. */
const MAX_BATCH_BYTES = 512 * 1024;
const MAX_BATCH_MESSAGES = 2000;

export type ResponseProducer = Producer<Buffer, string, string, string>;

/** With a transactional id the producer writes in transactions (exactly-once mode, transactor.ts). */
export function createResponseProducer(connection: ClientConnection, transactionalId?: string): ResponseProducer {
  return new Producer<Buffer, string, string, string>({
    ...connection,
    // Idempotent implies acks=all and retries without duplicates or reordering (the client enforces both).
    idempotent: true,
    ...(transactionalId === undefined
      ? {}
      : {
          transactionalId,
          // The coordinator answers CONCURRENT_TRANSACTIONS to a transaction begun while the previous one's commit
          // markers are still being written (milliseconds); the client's default 1 s retry delay would idle the
          // channel for a second after every transaction. 40 x 25 ms: a second of retrying in all.
          retryDelay: 25,
          retries: 40,
        }),
    serializers: { value: stringSerializer, headerKey: stringSerializer, headerValue: stringSerializer },
  });
}

/** A message's size as counted against MAX_BATCH_BYTES: value, key, headers and a record's overhead. */
export function messageBytes(message: OutgoingMessage): number {
  let bytes = Buffer.byteLength(message.value) + (message.key?.length ?? 0) + 64;
  for (const [name, value] of Object.entries(message.headers)) bytes += name.length + Buffer.byteLength(value);
  return bytes;
}

/** The message as the client's send() takes it. */
export function toRecord(message: OutgoingMessage) {
  return { topic: message.topic, partition: message.partition, key: message.key, value: message.value, headers: message.headers };
}

export class Responder {
  readonly #producer: ResponseProducer;
  #queue: Pending[] = [];
  #inFlight: Promise<void> | undefined;

  constructor(producer: ResponseProducer) {
    this.#producer = producer;
  }

  get producer(): ResponseProducer {
    return this.#producer;
  }

  /** Resolves once the broker acknowledged the message (all in-sync replicas); rejects when it was refused. */
  send(message: OutgoingMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ message, bytes: messageBytes(message), resolve, reject });
      if (this.#inFlight === undefined) this.#inFlight = this.#drain();
    });
  }

  /** Resolves when every message queued so far has been acknowledged or refused. */
  async flush(): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight;
  }

  get queued(): number {
    return this.#queue.length;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#takeBatch();
        try {
          await this.#producer.send({ messages: batch.map(({ message }) => toRecord(message)) });
          for (const item of batch) item.resolve();
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.#inFlight = undefined;
    }
  }

  #takeBatch(): Pending[] {
    return this.#queue.splice(0, batchLength(this.#queue));
  }
}

/** How many of the first items fit one produce request (at least one, so an over-large message still goes). */
export function batchLength(items: ReadonlyArray<{ bytes: number }>, from = 0): number {
  let bytes = 0;
  let count = 0;
  while (from + count < items.length && count < MAX_BATCH_MESSAGES) {
    const next = items[from + count]!;
    if (count > 0 && bytes + next.bytes > MAX_BATCH_BYTES) break;
    bytes += next.bytes;
    count++;
  }
  return count;
}
