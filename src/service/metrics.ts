// Prometheus metrics of the service. One registry per service instance (tests run several in one process);
// the Kafka channel registers its own metrics (lag) on the same registry.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { ScriptPoolEvents } from '../script-workers/pool.ts';
import { LatencyHistogram } from './latency-histogram.ts';
import type { HistogramSeries } from './latency-histogram.ts';

type SolveLabel = 'rule_type' | 'strategy' | 'status' | 'channel' | 'kind';

/** One label set of the solve metrics: solves counted here until a scrape adds them to the counter. */
interface SolveSeries {
  labels: Record<SolveLabel, string>;
  pending: number;
  latency: HistogramSeries;
}

export class Metrics {
  readonly registry = new Registry();
  readonly solves: Counter<SolveLabel>;
  readonly solveSeconds: LatencyHistogram<'rule_type' | 'channel'>;
  readonly auditDropped: Counter;
  readonly auditWritten: Counter;
  readonly scriptQueueSeconds: Histogram;
  readonly scriptRejected: Counter<'reason'>;
  readonly scriptWorkersLost: Counter<'reason'>;
  /**
   * Every label set seen, by rule type, strategy, status, channel and kind (nested maps: strings already in hand hash
   * once), so a solve costs a few map lookups rather than building and hashing label objects per metric.
   */
  readonly #series: SolveSeries[] = [];
  readonly #seriesByLabels = new Map<string, Map<string, Map<number, Map<string, Map<string, SolveSeries>>>>>();

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'verdict_' });
    this.solves = new Counter({
      name: 'verdict_solves_total',
      help: "Solves by rule type, strategy, the channel's outcome code (HTTP status, Kafka error code), channel and error kind (empty: success)",
      labelNames: ['rule_type', 'strategy', 'status', 'channel', 'kind'],
      registers: [this.registry],
      // Called by every read of the counter (scrape, get()): adds what was counted since the last one.
      collect: () => this.#flushSolves(),
    });
    this.solveSeconds = new LatencyHistogram({
      name: 'verdict_solve_duration_seconds',
      help: 'Solve latency from authentication to response, by rule type and channel',
      labelNames: ['rule_type', 'channel'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.auditWritten = new Counter({ name: 'verdict_audit_records_written_total', help: 'Audit records written', registers: [this.registry] });
    this.auditDropped = new Counter({
      name: 'verdict_audit_records_dropped_total',
      help: 'Audit records dropped because the queue was full, the store failed, or the record could not be serialised',
      registers: [this.registry],
    });
    this.scriptQueueSeconds = new Histogram({
      name: 'verdict_script_queue_wait_seconds',
      help: 'Time a script waited for a script worker (0 when one was free)',
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.scriptRejected = new Counter({
      name: 'verdict_script_rejections_total',
      help: "Scripts refused a worker: queue-full (the space's queue was full) or timeout (the deadline passed while waiting)",
      labelNames: ['reason'],
      registers: [this.registry],
    });
    this.scriptWorkersLost = new Counter({
      name: 'verdict_script_workers_lost_total',
      help: 'Script worker processes that ended: memory (over its limit), timeout (killed past a deadline), crash',
      labelNames: ['reason'],
      registers: [this.registry],
    });
  }

  /** The script pool's observations, recorded in this registry. */
  scriptPoolEvents(): ScriptPoolEvents {
    return {
      waited: (seconds) => this.scriptQueueSeconds.observe(seconds),
      rejected: (reason) => this.scriptRejected.inc({ reason }),
      lost: (loss) => this.scriptWorkersLost.inc({ reason: loss }),
    };
  }

  /** `status` is the channel's own code for the outcome; `kind` the error catalog's kind, '' for a success. */
  observeSolve(ruleType: string, strategy: string, status: number, channel: string, kind: string, seconds: number): void {
    let byStrategy = this.#seriesByLabels.get(ruleType);
    if (byStrategy === undefined) this.#seriesByLabels.set(ruleType, (byStrategy = new Map()));
    let byStatus = byStrategy.get(strategy);
    if (byStatus === undefined) byStrategy.set(strategy, (byStatus = new Map()));
    let byChannel = byStatus.get(status);
    if (byChannel === undefined) byStatus.set(status, (byChannel = new Map()));
    let byKind = byChannel.get(channel);
    if (byKind === undefined) byChannel.set(channel, (byKind = new Map()));
    let series = byKind.get(kind);
    if (series === undefined) {
      series = {
        labels: { rule_type: ruleType, strategy, status: String(status), channel, kind },
        pending: 0,
        latency: this.solveSeconds.series({ rule_type: ruleType, channel }),
      };
      byKind.set(kind, series);
      this.#series.push(series);
    }
    series.pending++;
    series.latency.observe(seconds);
  }

  #flushSolves(): void {
    for (const series of this.#series) {
      if (series.pending === 0) continue;
      this.solves.inc(series.labels, series.pending);
      series.pending = 0;
    }
  }
}
