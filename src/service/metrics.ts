// Prometheus metrics of the service. One registry per service instance (tests run several in one process);
// the Kafka channel registers its own metrics (lag) on the same registry.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface SolveObservation {
  ruleType: string;
  strategy: string;
  status: number;
  channel: 'http' | 'kafka';
  seconds: number;
}

export class Metrics {
  readonly registry = new Registry();
  readonly solves: Counter<'rule_type' | 'strategy' | 'status' | 'channel'>;
  readonly solveSeconds: Histogram<'rule_type' | 'channel'>;
  readonly auditDropped: Counter;
  readonly auditWritten: Counter;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'verdict_' });
    this.solves = new Counter({
      name: 'verdict_solves_total',
      help: 'Solves by rule type, strategy, response status and channel',
      labelNames: ['rule_type', 'strategy', 'status', 'channel'],
      registers: [this.registry],
    });
    this.solveSeconds = new Histogram({
      name: 'verdict_solve_duration_seconds',
      help: 'Solve latency from authentication to response, by rule type and channel',
      labelNames: ['rule_type', 'channel'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.auditWritten = new Counter({ name: 'verdict_audit_records_written_total', help: 'Audit records written', registers: [this.registry] });
    this.auditDropped = new Counter({
      name: 'verdict_audit_records_dropped_total',
      help: 'Audit records dropped because the queue was full or the store failed',
      registers: [this.registry],
    });
  }

  observeSolve(o: SolveObservation): void {
    this.solves.inc({ rule_type: o.ruleType, strategy: o.strategy, status: String(o.status), channel: o.channel });
    this.solveSeconds.observe({ rule_type: o.ruleType, channel: o.channel }, o.seconds);
  }
}
