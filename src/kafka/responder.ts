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

export function createResponseProducer(connection: ClientConnection): ResponseProducer {
  return new Producer<Buffer, string, string, string>({
    ...connection,
    // Idempotent implies acks=all and retries without duplicates or reordering (the client enforces both).
    idempotent: true,
    serializers: { value: stringSerializer, headerKey: stringSerializer, headerValue: stringSerializer },
  });
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
      let bytes = Buffer.byteLength(message.value) + (message.key?.length ?? 0) + 64;
      for (const [name, value] of Object.entries(message.headers)) bytes += name.length + Buffer.byteLength(value);
      this.#queue.push({ message, bytes, resolve, reject });
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
          await this.#producer.send({
            messages: batch.map(({ message }) => ({
              topic: message.topic,
              partition: message.partition,
              key: message.key,
              value: message.value,
              headers: message.headers,
            })),
          });
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
    let bytes = 0;
    let count = 0;
    while (count < this.#queue.length && count < MAX_BATCH_MESSAGES) {
      const next = this.#queue[count]!;
      if (count > 0 && bytes + next.bytes > MAX_BATCH_BYTES) break;
      bytes += next.bytes;
      count++;
    }
    return this.#queue.splice(0, count);
  }
}
