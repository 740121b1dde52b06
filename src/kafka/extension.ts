// Plugs the Kafka channel into `verdict serve` (KAFKA_ENABLED=true): started after the HTTP listener, stopped
// before the store closes, and part of /health/ready.
import type { KafkaConfig } from '../config.ts';
import type { ServerExtension } from '../http/server.ts';
import { KafkaChannel } from './channel.ts';

export function kafkaExtension(config: KafkaConfig): ServerExtension {
  return {
    name: 'kafka',
    async start({ services, logger }) {
      const channel = new KafkaChannel({
        config,
        deps: {
          keys: services.keys,
          solver: services.solver,
          bindings: services.store.kafka,
          changes: services.store.changes,
          metrics: services.metrics,
        },
        log: logger.child({ component: 'kafka' }),
      });
      await channel.start();
      return { stop: () => channel.stop(), ready: () => channel.ready() };
    },
  };
}
