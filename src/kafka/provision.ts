// `verdict kafka enable` and `kafka list` (and the same for the admin API): create a space's request/response topic
// pair on the brokers and record the binding in the store. The channel picks new bindings up while running.
import { Admin, findErrorBy } from '@platformatic/kafka';
import type { KafkaConfig } from '../config.ts';
import type { KafkaBinding, KafkaBindingStore, SpaceStore } from '../store/ports.ts';
import { clientConnection, describeKafkaError } from './connection.ts';
import { checkCompany, topicPair } from './topics.ts';

/** Bad input or a refused operation, with a message for the operator (CLI: one line, exit 1). */
export class ProvisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProvisionError';
  }
}

export interface ProvisionDeps {
  config: KafkaConfig;
  bindings: KafkaBindingStore;
  spaces: Pick<SpaceStore, 'get'>;
  now?: () => Date;
}

export interface EnableRequest {
  space: string;
  company: string;
  /** Default: KAFKA_PARTITIONS. */
  partitions?: number;
}

const MAX_NAME_ATTEMPTS = 3;

export async function enableKafka(deps: ProvisionDeps, request: EnableRequest): Promise<KafkaBinding> {
  const { config } = deps;
  if (config.brokers.length === 0) throw new ProvisionError('KAFKA_BROKERS is not set: it names the brokers to create the topics on');
  const companyProblem = checkCompany(request.company);
  if (companyProblem !== undefined) throw new ProvisionError(companyProblem);
  const partitions = request.partitions ?? config.partitions;
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > 10_000) {
    throw new ProvisionError(`partitions must be an integer from 1 to 10000, got ${partitions}`);
  }
  if ((await deps.spaces.get(request.space)) === undefined) throw new ProvisionError(`space "${request.space}" does not exist`);

  const admin = new Admin({ ...clientConnection(config, 'admin'), retries: 2, timeout: 15_000 });
  try {
    for (let attempt = 1; ; attempt++) {
      const pair = topicPair(request.company);
      try {
        await admin.createTopics({
          topics: [pair.requestTopic, pair.responseTopic],
          partitions,
          replicas: config.replicationFactor ?? -1,
        });
      } catch (err) {
        // A clash of the random number with an existing pair: draw another.
        if (findErrorBy(err as Error, 'apiId', 'TOPIC_ALREADY_EXISTS') && attempt < MAX_NAME_ATTEMPTS) continue;
        throw new ProvisionError(`Kafka: cannot create topics ${pair.requestTopic} and ${pair.responseTopic}: ${describeKafkaError(err)}`);
      }
      const binding: KafkaBinding = {
        space: request.space,
        company: request.company,
        requestTopic: pair.requestTopic,
        responseTopic: pair.responseTopic,
        createdAt: (deps.now?.() ?? new Date()).toISOString(),
      };
      try {
        await deps.bindings.bind(binding);
      } catch (err) {
        // Do not leave orphan topics behind a binding that was never recorded.
        await admin.deleteTopics({ topics: [pair.requestTopic, pair.responseTopic] }).catch(() => undefined);
        throw err;
      }
      return binding;
    }
  } finally {
    await admin.close().catch(() => undefined);
  }
}

export function listKafka(deps: Pick<ProvisionDeps, 'bindings'>, space?: string): Promise<KafkaBinding[]> {
  return deps.bindings.list(space);
}
