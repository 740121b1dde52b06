// Builds the service layer over an open store, with the ports only the composition root may fill: the Kafka
// topic provisioner (src/kafka, loaded on first use so processes that never provision topics never load it).
import { Services } from '../service/index.ts';
import type { ServicesOptions } from '../service/index.ts';

export function buildServices(options: ServicesOptions): Services {
  const { config } = options;
  return new Services({
    topicProvisioner: async () => (await import('../kafka/provision.ts')).brokerProvisioner(config.kafka),
    ...options,
  });
}
