// Prometheus metrics of the Kafka channel, on the service's registry: requests by response code (including the
// malformed ones that never reach the solver) and consumer lag per assigned request partition.
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

export class ChannelMetrics {
  readonly #messages: Counter<'code'>;
  readonly #lag: Gauge<'topic' | 'partition'>;

  constructor(registry: Registry) {
    this.#messages = existing(registry, 'verdict_kafka_requests_total') ?? new Counter({
      name: 'verdict_kafka_requests_total',
      help: 'Kafka requests answered, by the response code (200, or the error code of the response)',
      labelNames: ['code'],
      registers: [registry],
    });
    this.#lag = existing(registry, 'verdict_kafka_consumer_lag') ?? new Gauge({
      name: 'verdict_kafka_consumer_lag',
      help: 'Requests waiting in each request partition this instance consumes (log end offset - committed offset)',
      labelNames: ['topic', 'partition'],
      registers: [registry],
    });
  }

  answered(code: number): void {
    this.#messages.inc({ code: String(code) });
  }

  /** Replaces the lag figures with those of the partitions assigned now. */
  setLag(lags: Array<{ topic: string; partition: number; lag: number }>): void {
    this.#lag.reset();
    for (const { topic, partition, lag } of lags) this.#lag.set({ topic, partition: String(partition) }, lag);
  }
}

/** Several channels may share a registry in tests; a metric is registered once. */
function existing<T>(registry: Registry, name: string): T | undefined {
  return registry.getSingleMetric(name) as T | undefined;
}
