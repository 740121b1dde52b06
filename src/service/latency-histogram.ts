// A Prometheus histogram whose observation is a bucket increment on a series the caller holds. prom-client's
// Histogram builds and hashes the label object on every observe(), which on the solve path cost more than the
// table lookup it measures. Registered in a prom-client Registry like any metric (get() / getForPromString()),
// with the exposition output of prom-client's Histogram, line for line.
import type { Registry } from 'prom-client';

/** The observations of one label set. */
export class HistogramSeries {
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  readonly #bounds: readonly number[];

  constructor(labels: Record<string, string>, bounds: readonly number[]) {
    this.labels = labels;
    this.#bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
  /** Always empty (no exemplars); present as prom-client has it, null on buckets and undefined on sum/count. */
  exemplar: null | undefined;
}

export interface LatencyHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  buckets: readonly number[];
  registers: Registry[];
}

export class LatencyHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly labelNames: readonly L[];
  readonly #bounds: readonly number[];
  #series = new Map<string, HistogramSeries>();

  constructor(options: LatencyHistogramOptions<L>) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  /** The series of a label set (the same object for the same labels): keep it and observe() on it. */
  series(labels: Record<L, string>): HistogramSeries {
    const ordered: Record<string, string> = {};
    for (const name of this.labelNames) ordered[name] = labels[name];
    const key = JSON.stringify(ordered);
    let series = this.#series.get(key);
    if (series === undefined) {
      series = new HistogramSeries(ordered, this.#bounds);
      this.#series.set(key, series);
    }
    return series;
  }

  reset(): void {
    for (const series of this.#series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  /** For the text exposition: bucket labels carry `le`, the series' labels are shared (as prom-client does). */
  getForPromString(): Promise<{ name: string; help: string; type: string; values: ExportedValue[]; aggregator: string }> {
    const values: ExportedValue[] = [];
    for (const series of this.#series.values()) {
      if (series.count === 0) continue;
      const shared = series.labels as Record<string, string>;
      let cumulative = 0;
      for (let i = 0; i < this.#bounds.length; i++) {
        cumulative += series.counts[i]!;
        values.push({ labels: { le: this.#bounds[i]! }, sharedLabels: shared, value: cumulative, metricName: `${this.name}_bucket`, exemplar: null });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: shared, value: series.count, metricName: `${this.name}_bucket`, exemplar: null },
        { labels: {}, sharedLabels: shared, value: series.sum, metricName: `${this.name}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels: shared, value: series.count, metricName: `${this.name}_count`, exemplar: undefined },
      );
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  /** For JSON readers: every value's labels in one object, `le` first. */
  async get(): Promise<{ name: string; help: string; type: string; values: ExportedValue[]; aggregator: string }> {
    const metric = await this.getForPromString();
    metric.values = metric.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
    return metric;
  }
}
