// Kafka client bindings of spaces (SPEC 4): which request/response topic pair belongs to which space. Enabling a
// space creates the pair on the brokers through the TopicProvisioner port (implemented in src/kafka, loaded only
// when used) and records the binding; a running channel picks new bindings up by itself.
import type { KafkaConfig } from '../config.ts';
import type { KafkaBinding, Store } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import { ServiceError } from './errors.ts';
import { requireSpace } from './require-space.ts';

export interface TopicPair {
  requestTopic: string;
  responseTopic: string;
}

/** Port: topic pairs on the brokers. Throws ServiceError (invalid-input for the request, unavailable for Kafka). */
export interface TopicProvisioner {
  /** The problem with the company name (it becomes part of the topic names), or undefined. */
  checkCompany(company: string): string | undefined;
  /** Creates a fresh `{company}-{random}-request/-response` pair. */
  createPair(company: string, partitions: number): Promise<TopicPair>;
  /** Best effort: removes a pair whose binding could not be recorded. */
  deletePair(pair: TopicPair): Promise<void>;
}

/** Port: what this process's Kafka channel consumes now (src/kafka's channel, attached by src/server when running). */
export interface ChannelStatus {
  /** Request topics the channel is subscribed to at this moment. */
  topics(): readonly string[];
}

/** A space's Kafka channel as its management key sees it (the Studio's Kafka page). */
export interface SpaceKafkaState {
  space: string;
  /** KAFKA_ENABLED: this process runs a Kafka channel. */
  channelEnabled: boolean;
  /** The channel is started in this process (false while stopping or when it is not enabled). */
  channelRunning: boolean;
  /** KAFKA_BROKERS is set: an operator can enable the space from this server. */
  brokersConfigured: boolean;
  bindings: Array<Omit<KafkaBinding, 'space'> & { consuming: boolean }>;
}

export interface EnableRequest {
  space: string;
  company: string;
  /** Default: KAFKA_PARTITIONS. */
  partitions?: number;
}

export class KafkaBindingService {
  readonly #store: Store;
  readonly #config: KafkaConfig;
  readonly #clock: Clock;
  readonly #provisioner: (() => Promise<TopicProvisioner>) | undefined;

  constructor(store: Store, config: KafkaConfig, clock: Clock, provisioner: (() => Promise<TopicProvisioner>) | undefined) {
    this.#store = store;
    this.#config = config;
    this.#clock = clock;
    this.#provisioner = provisioner;
  }

  #channel: ChannelStatus | undefined;

  /** Called by the composition root when the channel started (and with undefined when it stops). */
  attachChannel(channel: ChannelStatus | undefined): void {
    this.#channel = channel;
  }

  /** The space's topic pairs, each with whether this process consumes its request topic now. */
  async spaceState(space: string): Promise<SpaceKafkaState> {
    const consumed = new Set(this.#channel?.topics() ?? []);
    const bindings = await this.#store.kafka.list(space);
    return {
      space,
      channelEnabled: this.#config.enabled,
      channelRunning: this.#channel !== undefined,
      brokersConfigured: this.#config.brokers.length > 0,
      bindings: bindings.map(({ space: _space, ...binding }) => ({ ...binding, consuming: consumed.has(binding.requestTopic) })),
    };
  }

  list(space?: string): Promise<KafkaBinding[]> {
    return this.#store.kafka.list(space);
  }

  /** False when no binding has this request topic. The topics themselves stay on the brokers. */
  unbind(requestTopic: string): Promise<boolean> {
    return this.#store.kafka.unbind(requestTopic);
  }

  /** Creates the space's topic pair and binds it. The checks run in the order an operator fixes them. */
  async enable(request: EnableRequest): Promise<KafkaBinding> {
    if (this.#config.brokers.length === 0) throw new ServiceError('kafka-not-configured', 'KAFKA_BROKERS is not set: it names the brokers to create the topics on');
    if (this.#provisioner === undefined) throw new ServiceError('kafka-not-configured', 'Kafka provisioning is not available in this process');
    const provisioner = await this.#provisioner();
    const companyProblem = provisioner.checkCompany(request.company);
    if (companyProblem !== undefined) throw new ServiceError('invalid-kafka-binding', companyProblem);
    const partitions = request.partitions ?? this.#config.partitions;
    if (!Number.isInteger(partitions) || partitions < 1 || partitions > 10_000) {
      throw new ServiceError('invalid-kafka-binding', `partitions must be an integer from 1 to 10000, got ${partitions}`);
    }
    await requireSpace(this.#store, request.space);
    const pair = await provisioner.createPair(request.company, partitions);
    const binding: KafkaBinding = { space: request.space, company: request.company, ...pair, createdAt: isoAt(this.#clock) };
    try {
      await this.#store.kafka.bind(binding);
    } catch (err) {
      // Do not leave orphan topics behind a binding that was never recorded.
      await provisioner.deletePair(pair).catch(() => undefined);
      throw err;
    }
    return binding;
  }
}
