// The TopicProvisioner port of the service layer (service/kafka-bindings.ts) on real brokers: creates a space's
// request/response topic pair (`verdict kafka enable`, POST /admin/spaces/{space}/kafka). The binding itself is
// recorded by the service; the channel picks new bindings up while running.
import { Admin, findErrorBy } from '@platformatic/kafka';
import type { KafkaConfig } from '../config.ts';
import { ServiceError } from '../service/errors.ts';
import type { TopicPair, TopicProvisioner } from '../service/kafka-bindings.ts';
import { clientConnection, describeKafkaError } from './connection.ts';
import { checkCompany, topicPair } from './topics.ts';

const MAX_NAME_ATTEMPTS = 3;

export function brokerProvisioner(config: KafkaConfig): TopicProvisioner {
  const admin = () => new Admin({ ...clientConnection(config, 'admin'), retries: 2, timeout: 15_000 });
  return {
    checkCompany,
    async createPair(company: string, partitions: number): Promise<TopicPair> {
      const client = admin();
      try {
        for (let attempt = 1; ; attempt++) {
          const pair = topicPair(company);
          try {
            await client.createTopics({ topics: [pair.requestTopic, pair.responseTopic], partitions, replicas: config.replicationFactor ?? -1 });
            return pair;
          } catch (err) {
            // A clash of the random number with an existing pair: draw another.
            if (findErrorBy(err as Error, 'apiId', 'TOPIC_ALREADY_EXISTS') && attempt < MAX_NAME_ATTEMPTS) continue;
            throw new ServiceError('kafka-unavailable', `Kafka: cannot create topics ${pair.requestTopic} and ${pair.responseTopic}: ${describeKafkaError(err)}`);
          }
        }
      } finally {
        await client.close().catch(() => undefined);
      }
    },
    async deletePair(pair: TopicPair): Promise<void> {
      const client = admin();
      try {
        await client.deleteTopics({ topics: [pair.requestTopic, pair.responseTopic] });
      } finally {
        await client.close().catch(() => undefined);
      }
    },
  };
}
