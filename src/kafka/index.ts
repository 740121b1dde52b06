// The Kafka channel (SPEC 4): consumer group over the request topics, idempotent response producer, provisioning.
export { KafkaChannel } from './channel.ts';
export type { KafkaChannelDeps, KafkaChannelOptions } from './channel.ts';
export { KafkaStartError, clientConnection, describeKafkaError } from './connection.ts';
export { brokerProvisioner } from './provision.ts';
export { CODES, HEADERS, RULE_NOT_FOUND_MESSAGE } from './protocol.ts';
export { topicPair } from './topics.ts';
