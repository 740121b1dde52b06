// The space's last hour on this server (GET /api/space/overview): solves per second, error rate and p50/p99
// latency per rule by minute, as four SVG charts (a line per rule, the eight busiest shown at first) and a table
// of the hour's totals. Refreshes every 30 seconds while open. Above them, the space's settings (SpaceSettingsPanel).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useStudio } from '../app/context.ts';
import { href } from '../app/router.ts';
import { EmptyState, ErrorState, Loading } from '../ui/states.tsx';
import { useResource } from '../ui/useResource.ts';
import { spaceApi } from './api.ts';
import { PALETTE, bucketTimes, metricValues, totals, METRIC_LABELS } from './chart.ts';
import type { ChartLine, Metric } from './chart.ts';
import { LineChart } from './LineChart.tsx';
import { SpaceSettingsPanel } from './SpaceSettingsPanel.tsx';

const REFRESH_MS = 30_000;
const SHOWN_AT_FIRST = 8;

function number(value: number | null, digits = 2, unit = ''): string {
  return value === null ? '—' : `${Number(value.toFixed(digits))}${unit}`;
}

export function OverviewPage() {
  const { api } = useStudio();
  const { value: overview, error, reload: load } = useResource(useCallback(() => spaceApi.overview(api), [api]));
  /** The rules drawn; null until the user picks: the busiest SHOWN_AT_FIRST. */
  const [picked, setPicked] = useState<Set<string> | null>(null);

  useEffect(() => {
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  const rules = overview?.rules ?? [];
  const colors = useMemo(() => new Map(rules.map((r, i) => [r.ruleId, PALETTE[i % PALETTE.length]!])), [rules]);
  const selected = picked ?? new Set(rules.slice(0, SHOWN_AT_FIRST).map((r) => r.ruleId));
  const shown = rules.filter((r) => selected.has(r.ruleId));
  const lines = (metric: Metric): ChartLine[] =>
    shown.map((r) => ({ id: r.ruleId, label: r.ruleAlias, color: colors.get(r.ruleId)!, values: metricValues(r, metric, overview!.bucketSeconds) }));
  const toggle = (ruleId: string) => {
    const next = new Set(selected);
    if (next.has(ruleId)) next.delete(ruleId);
    else next.add(ruleId);
    setPicked(next);
  };

  return (
    <section className="content space-page" aria-labelledby="overview-title">
      <div className="content-header">
        <div>
          <h1 id="overview-title">Overview</h1>
          <p className="muted">Solves of this space's rules over the last hour, per minute, as this server counted them (test bench runs are not counted).</p>
        </div>
        <div className="actions"><button type="button" className="btn" onClick={() => void load()}>Refresh</button></div>
      </div>
      <SpaceSettingsPanel />
      {error && <ErrorState title="The overview could not be loaded" message={error} onRetry={() => void load()} />}
      {!error && overview === null && <Loading label="Loading the overview…" />}
      {overview && rules.length === 0 && (
        <EmptyState title="No solves in the last hour">
          <p>Solve a rule over HTTP or Kafka with a solver key of this space; its traffic shows here within a minute.</p>
        </EmptyState>
      )}
      {overview && rules.length > 0 && (() => {
        const times = bucketTimes(overview, rules[0]!.solves.length);
        const windowSeconds = times.length * overview.bucketSeconds;
        return (
          <>
            <fieldset className="chart-legend">
              <legend className="visually-hidden">Rules shown in the charts</legend>
              {rules.map((r) => (
                <label key={r.ruleId} className="legend-item">
                  <input type="checkbox" checked={selected.has(r.ruleId)} onChange={() => toggle(r.ruleId)} />
                  <span className="legend-swatch" style={{ background: colors.get(r.ruleId) }} aria-hidden="true" />
                  {r.ruleAlias}
                </label>
              ))}
            </fieldset>
            <div className="chart-grid-2">
              <LineChart title={METRIC_LABELS.rate} times={times} lines={lines('rate')} />
              <LineChart title={METRIC_LABELS.errorRate} times={times} lines={lines('errorRate')} />
              <LineChart title={METRIC_LABELS.p50} times={times} lines={lines('p50')} />
              <LineChart title={METRIC_LABELS.p99} times={times} lines={lines('p99')} />
            </div>
            <table className="data-table" aria-label="Rules in the last hour">
              <thead>
                <tr><th scope="col">Rule</th><th scope="col">Solves</th><th scope="col">Solves/s</th><th scope="col">Error rate</th><th scope="col">p50</th><th scope="col">p99</th></tr>
              </thead>
              <tbody>
                {rules.map((r) => {
                  const t = totals(r, windowSeconds);
                  return (
                    <tr key={r.ruleId}>
                      <td><span className="legend-swatch" style={{ background: colors.get(r.ruleId) }} aria-hidden="true" /><a href={href({ page: 'rule', id: r.ruleId, version: 'latest' })}>{r.ruleAlias}</a></td>
                      <td>{r.total.solves}</td>
                      <td>{number(t.rate, 3)}</td>
                      <td>{number(t.errorRate, 1, ' %')}</td>
                      <td>{number(t.p50, 2, ' ms')}</td>
                      <td>{number(t.p99, 2, ' ms')}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </>
        );
      })()}
    </section>
  );
}
