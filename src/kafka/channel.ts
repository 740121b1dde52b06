// The Kafka channel (SPEC 4): one consumer group over every bound request topic, one idempotent producer for the
// responses. Topics bound while running are picked up by a periodic re-read of the bindings (and at once after an
// in-process `refresh()`), each new batch of topics through its own stream of the same group member.
//
// Delivery is at least once by default: a request's offset is committed only after its response was acknowledged
// by the brokers (acks=all). With KAFKA_EXACTLY_ONCE=true responses and offsets commit together in transactions
// (transactor.ts). Requests of one partition are answered in order, partitions concurrently (lane.ts). Stopping
// (SIGTERM) stops fetching, finishes the requests in progress, flushes the producer, commits and leaves the group.
import { Admin, Consumer } from '@platformatic/kafka';
import type { GroupAssignment, Message, MessagesStream } from '@platformatic/kafka';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Registry } from 'prom-client';
import type { KafkaConfig } from '../config.ts';
import type { ChangeFeed, KafkaBinding } from '../store/ports.ts';
import { OffsetCommitter } from './committer.ts';
import { clientConnection, describeKafkaError, KafkaStartError, startError } from './connection.ts';
import type { ClientConnection } from './connection.ts';
import { answer } from './handler.ts';
import { responseBody } from './protocol.ts';
import type { ChannelLogger, SolveDeps } from './handler.ts';
import { PartitionLane } from './lane.ts';
import type { LaneContext, LaneMessage } from './lane.ts';
import { ChannelMetrics } from './metrics.ts';
import { createResponseProducer, Responder } from './responder.ts';
import type { OutgoingMessage } from './responder.ts';
import { generationOf, Transactor } from './transactor.ts';
import type { RequestOrigin } from './transactor.ts';

export interface KafkaChannelDeps extends SolveDeps {
  /** The topic pairs bound to spaces (Services.kafka). */
  bindings: { list(): Promise<KafkaBinding[]> };
  /** Optional: an external write (another process) makes the channel re-read its bindings at once. */
  changes?: Pick<ChangeFeed, 'subscribe'>;
  /** Optional: where the channel's metrics (requests by code, consumer lag) go. */
  metrics?: { registry: Registry };
}

export interface KafkaChannelOptions {
  config: KafkaConfig;
  deps: KafkaChannelDeps;
  log: ChannelLogger;
  /** Milliseconds between offset commits. */
  commitIntervalMs?: number;
  /** Milliseconds between consumer lag measurements (metrics only). */
  lagIntervalMs?: number;
}

type RequestStream = MessagesStream<Buffer, Buffer, Buffer, Buffer>;

/** Accepted but unanswered requests across all partitions; above it fetching pauses until half are done. */
const HIGH_WATER = 4000;
const LOW_WATER = 2000;
const RETRY_DELAYS_MS = [200, 500, 1000, 2000, 5000];

export class KafkaChannel {
  readonly #config: KafkaConfig;
  readonly #deps: KafkaChannelDeps;
  readonly #log: ChannelLogger;
  readonly #connection: ClientConnection;
  readonly #commitIntervalMs: number;
  readonly #lagIntervalMs: number;
  readonly #metrics: ChannelMetrics | undefined;
  #lagTimer: NodeJS.Timeout | undefined;
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #responder: Responder | undefined;
  #committer: OffsetCommitter | undefined;
  /** Exactly-once mode only, instead of the responder and the committer. */
  #transactor: Transactor | undefined;
  /** Request topic -> binding, for every topic this member subscribes to. */
  #bindings = new Map<string, KafkaBinding>();
  #streams = new Map<RequestStream, string[]>();
  #lanes = new Map<string, PartitionLane>();
  /** Exactly-once mode: lanes of an earlier group generation, finishing what they started. */
  #retired = new Set<PartitionLane>();
  /** `topic:partition` currently assigned to this member. */
  #assigned = new Set<string>();
  #outstanding = 0;
  #paused = false;
  #stopping = false;
  #started = false;
  #refreshTimer: NodeJS.Timeout | undefined;
  #refreshing: Promise<void> | undefined;
  #refreshAgain = false;
  #unsubscribeChanges: (() => void) | undefined;
  #answered = 0;
  #admin: Admin | undefined;
  #reportedMissing = new Set<string>();

  constructor(options: KafkaChannelOptions) {
    this.#config = options.config;
    this.#deps = options.deps;
    this.#log = options.log;
    this.#connection = clientConnection(options.config, 'channel');
    this.#commitIntervalMs = options.commitIntervalMs ?? 200;
    this.#lagIntervalMs = options.lagIntervalMs ?? 5000;
    this.#metrics = options.deps.metrics === undefined ? undefined : new ChannelMetrics(options.deps.metrics.registry);
  }

  /** Connects (failing with a KafkaStartError that names the cause), joins the group over the bound topics. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#checkConnection();
    if (!this.#config.exactlyOnce) {
      const producer = createResponseProducer(clientConnection(this.#config, 'producer'));
      this.#responder = new Responder(producer);
      try {
        await producer.initIdempotentProducer({});
      } catch (err) {
        await producer.close().catch(() => undefined);
        throw startError(this.#config, err);
      }
    }
    const session = this.#config.sessionTimeoutMs;
    this.#consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      ...this.#connection,
      groupId: this.#config.groupId,
      sessionTimeout: session,
      heartbeatInterval: Math.max(100, Math.floor(session / 5)),
      rebalanceTimeout: Math.max(session, 30_000),
      // An idle fetch returns after this long; it bounds how fast a stream closes on shutdown.
      maxWaitTime: 500,
      autocommit: false,
    });
    this.#consumer.on('consumer:group:join', (payload) => this.#onAssignment(payload.assignments ?? []));
    if (this.#config.exactlyOnce) {
      await this.#startTransactor(this.#consumer);
    } else {
      this.#committer = new OffsetCommitter(
        {
          commit: (options) => this.#consumer!.commit(options),
          isActive: () => this.#consumer!.isActive(),
        },
        this.#log,
        (topic, partition) => this.#assigned.has(`${topic}:${partition}`),
      );
      this.#committer.start(this.#commitIntervalMs);
    }
    try {
      await this.refresh();
    } catch (err) {
      await this.stop().catch(() => undefined);
      throw new KafkaStartError(`Kafka: cannot subscribe to the request topics: ${describeKafkaError(err)}`, { cause: err });
    }
    this.#refreshTimer = setInterval(() => void this.#refreshLogged(), this.#config.topicRefreshMs);
    this.#refreshTimer.unref();
    this.#unsubscribeChanges = this.#deps.changes?.subscribe((event) => {
      if (event.kind === 'all') void this.#refreshLogged();
    });
    if (this.#metrics !== undefined) {
      this.#lagTimer = setInterval(() => void this.#measureLag(), this.#lagIntervalMs);
      this.#lagTimer.unref();
    }
    const delivery = this.#config.exactlyOnce ? { delivery: 'exactly-once', transactionalId: this.#config.transactionalId } : { delivery: 'at-least-once' };
    this.#log.info({ topics: [...this.#bindings.keys()], groupId: this.#config.groupId, ...delivery }, 'kafka channel started');
  }

  /** Exactly-once mode: registers the transactional id (fencing a predecessor) before the consumer reads offsets. */
  async #startTransactor(consumer: Consumer<Buffer, Buffer, Buffer, Buffer>): Promise<void> {
    const { transactionalId } = this.#config;
    this.#transactor = new Transactor({
      transactionalId,
      createProducer: () => createResponseProducer(clientConnection(this.#config, 'producer'), transactionalId),
      consumer,
      isCurrent: (origin) => this.#isCurrent(origin),
      onFenced: (err) => {
        this.#log.error(
          { err: describeKafkaError(err), transactionalId },
          'kafka: another instance uses this KAFKA_TRANSACTIONAL_ID (each instance needs its own); this channel stops answering',
        );
        void this.stop();
      },
      log: this.#log,
    });
    try {
      await this.#transactor.init();
    } catch (err) {
      await this.#transactor.close();
      await consumer.close(true).catch(() => undefined);
      const cause = startError(this.#config, err);
      throw new KafkaStartError(`${cause.message} (registering KAFKA_TRANSACTIONAL_ID "${transactionalId}")`, { cause: err });
    }
  }

  #isCurrent(origin: RequestOrigin): boolean {
    return origin.generationId === this.#consumer?.generationId && this.#assigned.has(`${origin.topic}:${origin.partition}`);
  }

  /** Re-reads the bindings and subscribes to request topics not consumed yet. Safe to call at any time. */
  refresh(): Promise<void> {
    if (this.#refreshing !== undefined) {
      this.#refreshAgain = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      try {
        do {
          this.#refreshAgain = false;
          await this.#refreshOnce();
        } while (this.#refreshAgain && !this.#stopping);
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  /** A refresh in the background: a failure (store or brokers unreachable) is logged and retried at the next one. */
  async #refreshLogged(): Promise<void> {
    try {
      await this.refresh();
    } catch (err) {
      if (!this.#stopping) this.#log.warn({ err: describeKafkaError(err) }, 'kafka topic refresh failed; will retry');
    }
  }

  /** For /health/ready: throws when the brokers cannot be reached. */
  async ready(): Promise<void> {
    const producer = this.#transactor?.producer ?? this.#responder?.producer;
    if (this.#stopping || producer === undefined) throw new Error('kafka channel is not running');
    await producer.metadata({ topics: [], forceUpdate: true });
  }

  /** Requests answered and acknowledged since start. */
  get answered(): number {
    return this.#answered;
  }

  /** Request topics currently consumed. */
  get topics(): string[] {
    return [...this.#streams.values()].flat();
  }

  /** Stops fetching, finishes in-flight requests, flushes the producer, commits and leaves the group. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    clearInterval(this.#refreshTimer);
    clearInterval(this.#lagTimer);
    this.#unsubscribeChanges?.();
    await this.#refreshing?.catch(() => undefined);
    await Promise.all([...this.#streams.keys()].map((stream) => stream.close().catch(() => undefined)));
    this.#streams.clear();
    // A transaction failing from now on is aborted, not retried: its requests are read again by the next owner.
    this.#transactor?.stop();
    for (const lane of this.#lanes.values()) lane.dropQueued();
    await Promise.all([...this.#lanes.values(), ...this.#retired].map((lane) => lane.whenIdle()));
    await this.#responder?.flush();
    await this.#transactor?.flush();
    this.#committer?.stop();
    await this.#committer?.flush();
    await this.#consumer?.close(true).catch((err: unknown) => this.#log.warn({ err: describeKafkaError(err) }, 'kafka consumer close failed'));
    await this.#responder?.producer.close().catch(() => undefined);
    await this.#transactor?.close();
    await this.#admin?.close().catch(() => undefined);
    this.#log.info({ answered: this.#answered }, 'kafka channel stopped');
  }

  async #checkConnection(): Promise<void> {
    const admin = new Admin({ ...clientConnection(this.#config, 'probe'), retries: 1, timeout: 10_000 });
    try {
      await admin.metadata({ topics: [] });
    } catch (err) {
      throw startError(this.#config, err);
    } finally {
      await admin.close().catch(() => undefined);
    }
  }

  async #refreshOnce(): Promise<void> {
    if (this.#stopping || this.#consumer === undefined) return;
    const bindings = await this.#deps.bindings.list();
    const wanted = new Map(bindings.map((b) => [b.requestTopic, b]));
    for (const [topic, binding] of wanted) this.#bindings.set(topic, binding);
    const consumed = new Set(this.topics);
    const unbound = [...consumed].filter((topic) => !wanted.has(topic));
    let added = [...wanted.keys()].filter((topic) => !consumed.has(topic));
    if (added.length > 0) added = await this.#existingTopics(added);
    if (unbound.length > 0) {
      // Rare (a space's channel disabled): rebuild the subscription from scratch without those topics.
      this.#log.info({ topics: unbound }, 'kafka topics unbound; resubscribing');
      await Promise.all([...this.#streams.keys()].map((stream) => stream.close().catch(() => undefined)));
      this.#streams.clear();
      for (const topic of unbound) this.#bindings.delete(topic);
      added = await this.#existingTopics([...wanted.keys()]);
    }
    if (added.length === 0 || this.#stopping) return;
    const stream = await this.#consumer.consume({
      topics: added,
      mode: 'committed',
      // A group that never committed starts at the beginning: requests written before the first start are answered.
      fallbackMode: 'earliest',
      autocommit: false,
    });
    this.#streams.set(stream, added);
    stream.on('data', (message) => this.#dispatch(message));
    stream.on('error', (err) => this.#onStreamError(stream, err));
    if (this.#paused) stream.pause();
    this.#log.info({ topics: added }, 'kafka request topics subscribed');
  }

  /** Bound topics that exist on the brokers; a missing one is reported (once) and retried at every refresh. */
  async #existingTopics(topics: string[]): Promise<string[]> {
    this.#admin ??= new Admin({ ...clientConnection(this.#config, 'admin'), retries: 1 });
    const listed = new Set(await this.#admin.listTopics());
    const existing = topics.filter((topic) => listed.has(topic));
    const missing = topics.filter((topic) => !listed.has(topic) && !this.#reportedMissing.has(topic));
    for (const topic of existing) this.#reportedMissing.delete(topic);
    if (missing.length > 0) {
      for (const topic of missing) this.#reportedMissing.add(topic);
      this.#log.warn({ topics: missing }, 'bound kafka request topics do not exist on the brokers; not consumed until they do');
    }
    return existing;
  }

  #onStreamError(stream: RequestStream, err: Error): void {
    const topics = this.#streams.get(stream) ?? [];
    this.#streams.delete(stream);
    if (this.#stopping) return;
    this.#log.error({ err: describeKafkaError(err), topics }, 'kafka request stream failed; resubscribing');
    void stream.close().catch(() => undefined);
    void sleep(1000).then(() => this.#refreshLogged());
  }

  #onAssignment(assignments: GroupAssignment[]): void {
    const assigned = new Set<string>();
    for (const { topic, partitions } of assignments) for (const partition of partitions) assigned.add(`${topic}:${partition}`);
    this.#assigned = assigned;
    if (this.#transactor !== undefined) {
      // Exactly once: a new generation starts every partition afresh from its committed offset. What the old
      // lanes still answer is not committed (its generation is over), so their dedup offsets must not carry over.
      for (const lane of this.#lanes.values()) {
        lane.dropQueued();
        this.#retired.add(lane);
        void lane.whenIdle().then(() => this.#retired.delete(lane));
      }
      this.#lanes.clear();
    }
    for (const [key, lane] of this.#lanes) {
      if (!assigned.has(key)) {
        lane.dropQueued();
        // Keep the lane until its in-flight work is done; a later reassignment reuses it (and its dedup offset).
      }
    }
    this.#committer?.forget((topic, partition) => assigned.has(`${topic}:${partition}`));
    this.#log.info({ partitions: [...assigned] }, 'kafka partitions assigned');
  }

  #dispatch(message: Message<Buffer, Buffer, Buffer, Buffer>): void {
    const key = `${message.topic}:${message.partition}`;
    // Fetched before a rebalance moved the partition away (its new owner reads it from the committed offset), or
    // from a topic unbound meanwhile.
    if (this.#stopping || !this.#assigned.has(key) || !this.#bindings.has(message.topic)) return;
    // Exactly once: fetched in an earlier generation, so its offset could not be committed any more.
    if (this.#transactor !== undefined && generationOf(message) !== this.#consumer?.generationId) return;
    let lane = this.#lanes.get(key);
    if (lane === undefined) {
      lane = new PartitionLane(message.topic, message.partition, this.#laneContext);
      this.#lanes.set(key, lane);
    }
    const accepted = lane.push({
      topic: message.topic,
      partition: message.partition,
      offset: message.offset,
      leaderEpoch: message.leaderEpoch,
      key: message.key,
      headers: message.headerEntries,
      value: message.value,
      fetched: this.#transactor === undefined ? undefined : message,
    });
    if (!accepted) return;
    this.#outstanding++;
    if (!this.#paused && this.#outstanding >= HIGH_WATER) {
      this.#paused = true;
      for (const stream of this.#streams.keys()) stream.pause();
    }
  }

  readonly #laneContext: LaneContext = {
    answer: (message) => this.#answer(message),
    deliver: (response, request) => this.#deliver(response, request),
    mark: (target) => this.#committer?.mark(target),
    settled: () => {
      this.#outstanding--;
      if (this.#paused && this.#outstanding <= LOW_WATER && !this.#stopping) {
        this.#paused = false;
        for (const stream of this.#streams.keys()) stream.resume();
      }
    },
  };

  async #answer(message: LaneMessage): Promise<OutgoingMessage> {
    const binding = this.#bindings.get(message.topic);
    if (binding === undefined) throw new Error(`request topic ${message.topic} is no longer bound`);
    const result = await answer(this.#deps, this.#log, binding.space, message, this.#config.maxMessageBytes);
    let { value, code } = result;
    const size = Buffer.byteLength(value);
    if (size > this.#config.maxMessageBytes) {
      // The brokers would refuse it (and the partition would stall on it): the client gets an error instead.
      code = 400;
      const error = { code, message: `The result is ${size} bytes, over the response limit of ${this.#config.maxMessageBytes} bytes` };
      value = responseBody({ error }, result.correlationId);
    }
    this.#metrics?.answered(code);
    return {
      topic: binding.responseTopic,
      // Same partition number as the request: responses of one request partition stay in order for the client.
      partition: message.partition,
      key: message.key ?? undefined,
      value,
      headers: result.correlationId === undefined ? {} : { 'x-correlation-id': result.correlationId },
    };
  }

  /** Lag per assigned partition: the log end offset minus the offset this member committed (or will resume from). */
  async #measureLag(): Promise<void> {
    const consumer = this.#consumer;
    if (consumer === undefined || this.#stopping || !consumer.isActive()) return;
    const topics = [...new Set([...this.#assigned].map((key) => key.slice(0, key.lastIndexOf(':'))))];
    if (topics.length === 0) {
      this.#metrics?.setLag([]);
      return;
    }
    try {
      const [ends, committed] = await Promise.all([
        consumer.listOffsets({ topics }),
        consumer.listCommittedOffsets({ topics: topics.map((topic) => ({ topic, partitions: this.#partitionsOf(topic) })) }),
      ]);
      const lags: Array<{ topic: string; partition: number; lag: number }> = [];
      for (const topic of topics) {
        for (const partition of this.#partitionsOf(topic)) {
          const end = ends.get(topic)?.[partition];
          const done = committed.get(topic)?.[partition];
          if (end === undefined) continue;
          lags.push({ topic, partition, lag: Number(done === undefined || done < 0n ? end : end - done) });
        }
      }
      this.#metrics?.setLag(lags);
    } catch (err) {
      this.#log.warn({ err: describeKafkaError(err) }, 'kafka lag measurement failed');
    }
  }

  #partitionsOf(topic: string): number[] {
    const partitions: number[] = [];
    for (const key of this.#assigned) if (key.slice(0, key.lastIndexOf(':')) === topic) partitions.push(Number(key.slice(key.lastIndexOf(':') + 1)));
    return partitions;
  }

  /** Sends until acknowledged. The client retries transient failures itself; a refusal is retried here with backoff. */
  async #deliver(response: OutgoingMessage, request: LaneMessage): Promise<boolean> {
    if (this.#transactor !== undefined) {
      const committed = request.fetched !== undefined && (await this.#transactor.send(response, request.fetched));
      if (committed) this.#answered++;
      return committed;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#responder!.send(response);
        this.#answered++;
        return true;
      } catch (err) {
        if (this.#stopping) return false;
        this.#log.error({ err: describeKafkaError(err), topic: response.topic, attempt }, 'kafka response not accepted; retrying');
        await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]);
        if (this.#stopping) return false;
      }
    }
  }
}
