// Per-rule solves, failures and latency by minute over the last hour, in memory, for the Studio's overview
// (docs/decisions/studio-overview-endpoint.md). The Prometheus metrics are labelled by rule type, not by rule (a
// label per rule would grow every scrape without bound), so the solve service feeds this small rolling window from
// the same place it records them. Bounded: at most MAX_SERIES rules over all spaces, WINDOW_MINUTES one-minute
// slots each, a fixed log-scale latency histogram per slot. Per process: every instance sees its own traffic.

export const WINDOW_MINUTES = 60;
const SLOT_MS = 60_000;
/** Rules tracked at once over all spaces; the one solved least recently makes room for a new one. */
export const MAX_SERIES = 1000;
/** Latency buckets: bucket i holds (MIN_MS * GROWTH^(i-1), MIN_MS * GROWTH^i] ms; the last one everything above. */
const MIN_MS = 0.01;
const GROWTH = 1.4;
const BUCKETS = 48;
const LOG_GROWTH = Math.log(GROWTH);

function bucketOf(ms: number): number {
  if (!(ms > MIN_MS)) return 0;
  return Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / MIN_MS) / LOG_GROWTH));
}

/** A bucket's representative latency: its geometric middle (at most ~18% from any value in it). */
function bucketValue(bucket: number): number {
  return bucket === 0 ? MIN_MS : MIN_MS * GROWTH ** (bucket - 0.5);
}

class Slot {
  minute = -1;
  solves = 0;
  errors = 0;
  minMs = Infinity;
  maxMs = 0;
  readonly counts = new Uint32Array(BUCKETS);

  reset(minute: number): void {
    this.minute = minute;
    this.solves = 0;
    this.errors = 0;
    this.minMs = Infinity;
    this.maxMs = 0;
    this.counts.fill(0);
  }
}

interface Series {
  space: string;
  ruleId: string;
  ruleAlias: string;
  type: string;
  lastMinute: number;
  /** Indexed by minute % WINDOW_MINUTES; a slot whose `minute` is not the one asked for is stale. */
  slots: Array<Slot | undefined>;
}

export interface RuleWindow {
  ruleId: string;
  ruleAlias: string;
  type: string;
  /** Over the whole window. Latencies in ms, null without solves. */
  total: { solves: number; errors: number; p50Ms: number | null; p99Ms: number | null };
  /** One entry per minute, oldest first (WINDOW_MINUTES entries). */
  solves: number[];
  errors: number[];
  p50Ms: Array<number | null>;
  p99Ms: Array<number | null>;
}

export interface WindowReport {
  /** Start of the first minute (ISO-8601). */
  from: string;
  /** The moment the report was read. */
  to: string;
  bucketSeconds: number;
  /** Rules solved in the window, most solves first. */
  rules: RuleWindow[];
}

/** The q-quantile of a histogram, clamped to the smallest and largest values seen. */
function quantile(counts: Uint32Array, total: number, q: number, minMs: number, maxMs: number): number | null {
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  // The top rank is the largest value seen, known exactly (p99 of fewer than 100 solves).
  if (rank >= total) return maxMs;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i]!;
    if (seen >= rank) return Math.round(Math.min(maxMs, Math.max(minMs, bucketValue(i))) * 1000) / 1000;
  }
  return maxMs;
}

export class SolveWindow {
  readonly #bySpace = new Map<string, Map<string, Series>>();
  #size = 0;
  readonly #maxSeries: number;

  constructor(options: { maxSeries?: number } = {}) {
    this.#maxSeries = options.maxSeries ?? MAX_SERIES;
  }

  /** One solve of a resolved rule, at `now` (epoch ms), that took `ms`. Called on the solve path: a few lookups. */
  observe(space: string, ruleId: string, ruleAlias: string, type: string, failed: boolean, ms: number, now: number): void {
    const minute = Math.floor(now / SLOT_MS);
    let rules = this.#bySpace.get(space);
    if (rules === undefined) this.#bySpace.set(space, (rules = new Map()));
    let series = rules.get(ruleId);
    if (series === undefined) {
      if (this.#size >= this.#maxSeries) this.#evictOldest();
      series = { space, ruleId, ruleAlias, type, lastMinute: minute, slots: new Array<Slot | undefined>(WINDOW_MINUTES) };
      rules.set(ruleId, series);
      this.#size++;
    }
    series.lastMinute = minute;
    series.ruleAlias = ruleAlias;
    series.type = type;
    const index = minute % WINDOW_MINUTES;
    let slot = series.slots[index];
    if (slot === undefined) series.slots[index] = slot = new Slot();
    if (slot.minute !== minute) slot.reset(minute);
    slot.solves++;
    if (failed) slot.errors++;
    if (ms < slot.minMs) slot.minMs = ms;
    if (ms > slot.maxMs) slot.maxMs = ms;
    slot.counts[bucketOf(ms)]!++;
  }

  /** The space's rules over the WINDOW_MINUTES minutes up to `now`. */
  report(space: string, now: number): WindowReport {
    const last = Math.floor(now / SLOT_MS);
    const first = last - WINDOW_MINUTES + 1;
    const rules: RuleWindow[] = [];
    for (const series of this.#bySpace.get(space)?.values() ?? []) {
      if (series.lastMinute < first) continue;
      const merged = new Uint32Array(BUCKETS);
      const window: RuleWindow = {
        ruleId: series.ruleId, ruleAlias: series.ruleAlias, type: series.type,
        total: { solves: 0, errors: 0, p50Ms: null, p99Ms: null },
        solves: [], errors: [], p50Ms: [], p99Ms: [],
      };
      let minMs = Infinity;
      let maxMs = 0;
      for (let minute = first; minute <= last; minute++) {
        const slot = series.slots[minute % WINDOW_MINUTES];
        if (slot === undefined || slot.minute !== minute) {
          window.solves.push(0);
          window.errors.push(0);
          window.p50Ms.push(null);
          window.p99Ms.push(null);
          continue;
        }
        window.solves.push(slot.solves);
        window.errors.push(slot.errors);
        window.p50Ms.push(quantile(slot.counts, slot.solves, 0.5, slot.minMs, slot.maxMs));
        window.p99Ms.push(quantile(slot.counts, slot.solves, 0.99, slot.minMs, slot.maxMs));
        window.total.solves += slot.solves;
        window.total.errors += slot.errors;
        for (let i = 0; i < BUCKETS; i++) merged[i]! += slot.counts[i]!;
        minMs = Math.min(minMs, slot.minMs);
        maxMs = Math.max(maxMs, slot.maxMs);
      }
      if (window.total.solves === 0) continue;
      window.total.p50Ms = quantile(merged, window.total.solves, 0.5, minMs, maxMs);
      window.total.p99Ms = quantile(merged, window.total.solves, 0.99, minMs, maxMs);
      rules.push(window);
    }
    rules.sort((a, b) => b.total.solves - a.total.solves || a.ruleAlias.localeCompare(b.ruleAlias));
    return { from: new Date(first * SLOT_MS).toISOString(), to: new Date(now).toISOString(), bucketSeconds: SLOT_MS / 1000, rules };
  }

  /** Rules tracked now (for tests of the bound). */
  get size(): number {
    return this.#size;
  }

  #evictOldest(): void {
    let oldest: Series | undefined;
    for (const rules of this.#bySpace.values()) {
      for (const series of rules.values()) if (oldest === undefined || series.lastMinute < oldest.lastMinute) oldest = series;
    }
    if (oldest === undefined) return;
    const rules = this.#bySpace.get(oldest.space)!;
    rules.delete(oldest.ruleId);
    if (rules.size === 0) this.#bySpace.delete(oldest.space);
    this.#size--;
  }
}
