// The rolling window behind the Studio's overview: per-minute buckets over the last hour, errors, p50/p99 from
// the log histogram, old minutes dropping out, spaces apart, and the bound on how many rules it tracks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SolveWindow, WINDOW_MINUTES } from '../../src/service/solve-window.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MINUTE = 60_000;

test('solves land in the bucket of their minute, the last bucket is the current minute, totals add up', () => {
  const window = new SolveWindow();
  window.observe('a', 'r1', 'alias-1', 'decision-table', false, 2, T0 + 5_000);
  window.observe('a', 'r1', 'alias-1', 'decision-table', true, 4, T0 + 50_000);
  window.observe('a', 'r1', 'alias-1', 'decision-table', false, 3, T0 + MINUTE + 1);
  const report = window.report('a', T0 + MINUTE + 30_000);
  assert.equal(report.bucketSeconds, 60);
  assert.equal(report.from, new Date(T0 + MINUTE - (WINDOW_MINUTES - 1) * MINUTE).toISOString());
  const [rule] = report.rules;
  assert.ok(rule);
  assert.equal(rule.solves.length, WINDOW_MINUTES);
  assert.deepEqual(rule.solves.slice(-2), [2, 1]);
  assert.deepEqual(rule.errors.slice(-2), [1, 0]);
  assert.deepEqual(rule.p50Ms.slice(0, 3), [null, null, null], 'minutes without solves have no latency');
  assert.deepEqual({ solves: rule.total.solves, errors: rule.total.errors }, { solves: 3, errors: 1 });
  assert.equal(rule.p99Ms.at(-1), 3, 'one observation: its exact value (clamped to min/max)');
  assert.equal(rule.total.p99Ms, 4);
});

test('p50 and p99 are within the histogram bucket width of the true quantiles', () => {
  const window = new SolveWindow();
  for (let i = 1; i <= 1000; i++) window.observe('a', 'r', 'r', 'decision-table', false, i / 10, T0);
  const [rule] = window.report('a', T0).rules;
  assert.ok(rule?.total.p50Ms && rule.total.p99Ms);
  assert.ok(Math.abs(rule.total.p50Ms - 50) / 50 < 0.2, `p50 ${rule.total.p50Ms} near 50`);
  assert.ok(Math.abs(rule.total.p99Ms - 99) / 99 < 0.2, `p99 ${rule.total.p99Ms} near 99`);
});

test('minutes older than the window drop out; a slot reused an hour later starts empty', () => {
  const window = new SolveWindow();
  window.observe('a', 'r', 'r', 'decision-table', false, 1, T0);
  assert.equal(window.report('a', T0 + (WINDOW_MINUTES - 1) * MINUTE).rules[0]?.total.solves, 1, 'still inside the hour');
  assert.deepEqual(window.report('a', T0 + WINDOW_MINUTES * MINUTE).rules, [], 'an hour later it is gone');
  window.observe('a', 'r', 'r', 'decision-table', false, 1, T0 + WINDOW_MINUTES * MINUTE);
  const [rule] = window.report('a', T0 + WINDOW_MINUTES * MINUTE).rules;
  assert.equal(rule?.total.solves, 1, 'the same slot an hour later counts only the new solve');
});

test('each space sees only its rules, most solved first', () => {
  const window = new SolveWindow();
  window.observe('a', 'quiet', 'quiet', 'decision-tree', false, 1, T0);
  for (let i = 0; i < 3; i++) window.observe('a', 'busy', 'busy', 'decision-table', false, 1, T0);
  window.observe('b', 'theirs', 'theirs', 'decision-table', false, 1, T0);
  assert.deepEqual(window.report('a', T0).rules.map((r) => r.ruleId), ['busy', 'quiet']);
  assert.deepEqual(window.report('b', T0).rules.map((r) => r.ruleId), ['theirs']);
  assert.deepEqual(window.report('c', T0).rules, []);
});

test('memory is bounded: past maxSeries the rule solved least recently makes room', () => {
  const window = new SolveWindow({ maxSeries: 3 });
  window.observe('a', 'r1', 'r1', 't', false, 1, T0);
  window.observe('a', 'r2', 'r2', 't', false, 1, T0 + MINUTE);
  window.observe('b', 'r3', 'r3', 't', false, 1, T0 + 2 * MINUTE);
  window.observe('a', 'r4', 'r4', 't', false, 1, T0 + 3 * MINUTE);
  assert.equal(window.size, 3);
  assert.deepEqual(window.report('a', T0 + 3 * MINUTE).rules.map((r) => r.ruleId).sort(), ['r2', 'r4']);
  assert.deepEqual(window.report('b', T0 + 3 * MINUTE).rules.map((r) => r.ruleId), ['r3']);
});
