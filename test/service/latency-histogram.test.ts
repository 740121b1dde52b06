import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { LatencyHistogram } from '../../src/service/latency-histogram.ts';
import { Metrics } from '../../src/service/metrics.ts';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OBSERVATIONS: Array<[string, string, number]> = [
  ['decision-table', 'http', 0.0001],
  ['decision-table', 'http', 0.0005],
  ['decision-table', 'http', 0.003],
  ['decision-tree', 'kafka', 0.2],
  ['decision-table', 'http', 42],
  ['decision-tree', 'kafka', 1],
  ['lookup-table', 'http', 0],
];

describe('LatencyHistogram', () => {
  it('exposes exactly what prom-client Histogram exposes for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const fast = new LatencyHistogram({ name: 'h', help: 'help text', labelNames: ['rule_type', 'channel'], buckets: BUCKETS, registers: [ours] });
    const reference = new Histogram({ name: 'h', help: 'help text', labelNames: ['rule_type', 'channel'], buckets: BUCKETS, registers: [theirs] });
    for (const [ruleType, channel, seconds] of OBSERVATIONS) {
      fast.series({ rule_type: ruleType, channel }).observe(seconds);
      reference.observe({ rule_type: ruleType, channel }, seconds);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
    assert.deepEqual(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON());
    assert.match(await ours.metrics(), /^h_bucket\{le="0.005",rule_type="decision-table",channel="http"\} 3$/m);
  });

  it('hands out one series per label set and forgets observations on reset', async () => {
    const registry = new Registry();
    const histogram = new LatencyHistogram({ name: 'h', help: 'h', labelNames: ['a'], buckets: [1], registers: [registry] });
    assert.equal(histogram.series({ a: 'x' }), histogram.series({ a: 'x' }));
    histogram.series({ a: 'x' }).observe(0.5);
    assert.match(await registry.metrics(), /^h_count\{a="x"\} 1$/m);
    histogram.reset();
    assert.doesNotMatch(await registry.metrics(), /h_count/);
  });
});

describe('Metrics.observeSolve', () => {
  it('counts solves per label set, visible to every reader of the counter', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    metrics.observeSolve('decision-table', 'STANDARD', 200, 'http', '', 0.001);
    metrics.observeSolve('decision-table', 'STANDARD', 200, 'http', '', 0.002);
    metrics.observeSolve('unknown', 'STANDARD', 400, 'kafka', 'invalid-input', 0.001);
    const counter = await metrics.solves.get();
    assert.deepEqual(
      counter.values.map((v) => [v.labels, v.value]),
      [
        [{ rule_type: 'decision-table', strategy: 'STANDARD', status: '200', channel: 'http', kind: '' }, 2],
        [{ rule_type: 'unknown', strategy: 'STANDARD', status: '400', channel: 'kafka', kind: 'invalid-input' }, 1],
      ],
    );
    metrics.observeSolve('decision-table', 'STANDARD', 200, 'http', '', 0.001);
    const text = await metrics.registry.metrics();
    assert.match(text, /^verdict_solves_total\{rule_type="decision-table",strategy="STANDARD",status="200",channel="http",kind=""\} 3$/m);
    assert.match(text, /^verdict_solve_duration_seconds_count\{rule_type="decision-table",channel="http"\} 3$/m);
    assert.match(text, /^verdict_solve_duration_seconds_bucket\{le="0.001",rule_type="decision-table",channel="http"\} 2$/m);
  });
});
