// The Kafka channel as a part of the process (KAFKA_ENABLED=true): started after the HTTP listener, stopped
// before the store closes, and one of the /health/ready checks. Loaded only when enabled.
import type { Logger } from 'pino';
import type { KafkaConfig } from '../config.ts';
import { KafkaChannel } from '../kafka/channel.ts';
import type { Services } from '../service/index.ts';
import type { Store } from '../store/ports.ts';

export async function startKafkaChannel(config: KafkaConfig, services: Services, store: Store, logger: Logger): Promise<KafkaChannel> {
  const channel = new KafkaChannel({
    config,
    deps: {
      keys: services.keys,
      machineTokens: services.machineTokens,
      solver: services.solver,
      bindings: services.kafka,
      changes: store.changes,
      metrics: services.metrics,
    },
    log: logger.child({ component: 'kafka' }),
  });
  await channel.start();
  return channel;
}
