// The overview's charts as plain numbers: the series each chart draws from the server's per-minute buckets
// (solves per second, error rate, p50/p99 latency), a "nice" y axis, and SVG paths that break where a minute had
// no solves. No DOM here: OverviewPage draws what these return.
import type { Overview, RuleSeries } from './api.ts';

/** One line of a chart: a rule's values for one metric. */
export interface ChartLine {
  id: string;
  label: string;
  color: string;
  values: Array<number | null>;
}

export type Metric = 'rate' | 'errorRate' | 'p50' | 'p99';

export const METRIC_LABELS: Record<Metric, string> = {
  rate: 'Solves per second',
  errorRate: 'Error rate (%)',
  p50: 'p50 latency (ms)',
  p99: 'p99 latency (ms)',
};

/** One rule's values for a metric, one per bucket; null where the metric has no value (no solve that minute). */
export function metricValues(rule: RuleSeries, metric: Metric, bucketSeconds: number): Array<number | null> {
  switch (metric) {
    case 'rate':
      return rule.solves.map((n) => n / bucketSeconds);
    case 'errorRate':
      return rule.solves.map((n, i) => (n === 0 ? null : (100 * (rule.errors[i] ?? 0)) / n));
    case 'p50':
      return rule.p50Ms;
    case 'p99':
      return rule.p99Ms;
  }
}

/** The start of each bucket (epoch ms), oldest first. */
export function bucketTimes(overview: Pick<Overview, 'from' | 'bucketSeconds'>, count: number): number[] {
  const from = Date.parse(overview.from);
  return Array.from({ length: count }, (_, i) => from + i * overview.bucketSeconds * 1000);
}

/** The smallest 1, 2 or 5 times a power of ten at or above `value` (an axis top a reader can read); 1 for nothing. */
export function niceMax(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value * (1 - 1e-12)) return step * power;
  return 10 * power;
}

/** Ticks from 0 to a niceMax top at a round step: 1 and 5 tops in fifths, 2 tops in quarters. */
export function ticks(max: number): number[] {
  const leading = Math.round(max / 10 ** Math.floor(Math.log10(max)));
  const count = leading === 2 ? 4 : 5;
  return Array.from({ length: count + 1 }, (_, i) => (max * i) / count);
}

/** A tick's text: no trailing zeros, at most 3 significant decimals for small values. */
export function formatTick(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) >= 100) return String(Math.round(value));
  return String(Number(value.toPrecision(3)));
}

export interface Frame {
  width: number;
  height: number;
  /** Space for the axis labels. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

/** Maps bucket index and value into the frame's plot area (y grows downwards in SVG). */
export function scales(frame: Frame, buckets: number, max: number): { x(i: number): number; y(v: number): number } {
  const plotWidth = frame.width - frame.left - frame.right;
  const plotHeight = frame.height - frame.top - frame.bottom;
  return {
    x: (i) => frame.left + (buckets <= 1 ? plotWidth : (i * plotWidth) / (buckets - 1)),
    y: (v) => frame.top + plotHeight - (Math.min(v, max) / max) * plotHeight,
  };
}

/** An SVG path through the values: a gap (a new `M`) wherever a value is null. Empty when there is nothing to draw. */
export function linePath(values: ReadonlyArray<number | null>, x: (i: number) => number, y: (v: number) => number): string {
  let path = '';
  let drawing = false;
  values.forEach((value, i) => {
    if (value === null || !Number.isFinite(value)) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${round(x(i))},${round(y(value))}`;
    drawing = true;
  });
  return path;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** The highest value of several series (0 when all are empty). */
export function maxOf(series: ReadonlyArray<ReadonlyArray<number | null>>): number {
  let max = 0;
  for (const values of series) for (const v of values) if (v !== null && v > max) max = v;
  return max;
}

/** The whole hour of one rule in words for the table beside the charts. */
export function totals(rule: RuleSeries, windowSeconds: number): { rate: number; errorRate: number | null; p50: number | null; p99: number | null } {
  const { solves, errors, p50Ms, p99Ms } = rule.total;
  return { rate: solves / windowSeconds, errorRate: solves === 0 ? null : (100 * errors) / solves, p50: p50Ms, p99: p99Ms };
}

/** Distinct colours for up to eight rules (then they repeat), readable on white. */
export const PALETTE = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed', '#0891b2', '#be185d', '#4b5563'];
