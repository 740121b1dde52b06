// A Kafka load generator: writes request messages to a request topic with at most `window` unanswered at a time,
// reads the answers from the response topic, and reports end-to-end messages/s and latency percentiles. The
// same generator drives Verdict's channel and the raw pipe, so the two differ only in what sits between topics.
import { Consumer, ProduceAcks, Producer, stringDeserializers, stringSerializers } from '@platformatic/kafka';
import type { Message, MessagesStream } from '@platformatic/kafka';
import { performance } from 'node:perf_hooks';

export interface KafkaRunOptions {
  requestTopic: string;
  headers: Record<string, string>;
  value: string;
  total: number;
  /** Most requests sent and not yet answered. */
  window: number;
  timeoutMs: number;
}

export interface KafkaRunResult {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  received: number;
  /** Responses whose body carried an `errors` list. */
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

type LoadProducer = Producer<string, string, string, string>;
type LoadConsumer = Consumer<string, string, string, string>;
type LoadStream = MessagesStream<string, string, string, string>;
type Pending = { sentAt: number; onAnswer?: (value: string) => void };

export class KafkaLoadClient {
  readonly #producer: LoadProducer;
  readonly #consumer: LoadConsumer;
  readonly #stream: LoadStream;
  readonly #pending = new Map<string, Pending>();
  readonly #waiters: Array<() => void> = [];
  readonly #latencies: number[] = [];
  #errors = 0;
  #sequence = 0;
  readonly #prefix = `bench-${process.pid}-${Date.now()}-`;

  private constructor(producer: LoadProducer, consumer: LoadConsumer, stream: LoadStream) {
    this.#producer = producer;
    this.#consumer = consumer;
    this.#stream = stream;
    stream.on('data', (message: Message<string, string, string, string>) => this.#onResponse(message));
  }

  /** Starts reading `responseTopic` from its end (responses to earlier runs are not ours). */
  static async open(brokers: string[], responseTopic: string): Promise<KafkaLoadClient> {
    const id = `bench-load-${process.pid}-${Date.now()}`;
    const producer = new Producer({ clientId: `${id}-producer`, bootstrapBrokers: brokers, serializers: stringSerializers });
    const consumer = new Consumer({ clientId: `${id}-consumer`, groupId: id, bootstrapBrokers: brokers, deserializers: stringDeserializers, maxWaitTime: 50 });
    const stream = await consumer.consume({ topics: [responseTopic], mode: 'latest', autocommit: false });
    return new KafkaLoadClient(producer, consumer, stream);
  }

  #onResponse(message: Message<string, string, string, string>): void {
    const id = message.headers.get('x-correlation-id');
    if (id === undefined) return;
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    this.#latencies.push(performance.now() - pending.sentAt);
    if (message.value.includes('"errors"')) this.#errors++;
    pending.onAnswer?.(message.value);
    const waiter = this.#waiters.shift();
    if (waiter) waiter();
  }

  #nextResponse(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = this.#waiters.indexOf(done);
        if (i >= 0) this.#waiters.splice(i, 1);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#waiters.push(done);
    });
  }

  /**
   * Sends single probe requests until one is answered: the consumer has its partitions, the target is up and warm.
   * Returns the answer's value.
   */
  async probe(options: Pick<KafkaRunOptions, 'requestTopic' | 'headers' | 'value'>, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    try {
      while (Date.now() < deadline) {
        const id = `${this.#prefix}probe-${this.#sequence++}`;
        const answered = new Promise<string | undefined>((resolve) => {
          const timer = setTimeout(() => resolve(undefined), 2000);
          this.#pending.set(id, { sentAt: performance.now(), onAnswer: (value) => (clearTimeout(timer), resolve(value)) });
        });
        await this.#producer.send({ messages: [{ topic: options.requestTopic, value: options.value, headers: { ...options.headers, 'x-correlation-id': id } }], acks: ProduceAcks.LEADER });
        const answer = await answered;
        if (answer !== undefined) return answer;
      }
    } finally {
      this.#pending.clear();
      this.#waiters.length = 0;
      this.#latencies.length = 0;
      this.#errors = 0;
    }
    throw new Error(`no answer on the response topic within ${timeoutMs} ms`);
  }

  async run(options: KafkaRunOptions): Promise<KafkaRunResult> {
    this.#latencies.length = 0;
    this.#errors = 0;
    const start = performance.now();
    let sent = 0;
    const batchSize = 200;
    const sends: Promise<unknown>[] = [];
    while (sent < options.total) {
      const outstanding = this.#pending.size;
      if (outstanding >= options.window) {
        if (!(await this.#nextResponse(options.timeoutMs))) break;
        continue;
      }
      const count = Math.min(batchSize, options.window - outstanding, options.total - sent);
      const now = performance.now();
      const messages = Array.from({ length: count }, () => {
        const id = `${this.#prefix}${this.#sequence++}`;
        this.#pending.set(id, { sentAt: now });
        return { topic: options.requestTopic, value: options.value, headers: { ...options.headers, 'x-correlation-id': id } };
      });
      sent += count;
      sends.push(this.#producer.send({ messages, acks: ProduceAcks.LEADER }));
      // Let responses in between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(sends);
    while (this.#pending.size > 0) {
      if (!(await this.#nextResponse(options.timeoutMs))) break;
    }
    const elapsed = performance.now() - start;
    const lost = this.#pending.size;
    this.#pending.clear();
    const sorted = [...this.#latencies].sort((a, b) => a - b);
    if (lost > 0) throw new Error(`${lost} of ${options.total} requests got no answer within ${options.timeoutMs} ms`);
    return { perSecond: (sorted.length * 1000) / elapsed, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), received: sorted.length, errors: this.#errors };
  }

  async close(): Promise<void> {
    await this.#stream.close().catch(() => undefined);
    await this.#consumer.close(true).catch(() => undefined);
    await this.#producer.close().catch(() => undefined);
  }
}
