// The harness's own pieces: options, statistics, answer comparison, the report and its required keys.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkAgreement, difference, fromZen } from '../../bench/lib/answers.ts';
import type { CaseResult } from '../../bench/lib/case.ts';
import { ratio } from '../../bench/lib/case.ts';
import type { Contender } from '../../bench/lib/contenders.ts';
import { race } from '../../bench/lib/contenders.ts';
import { measureAsync, measureCpuPerOp, measureSync, summarise } from '../../bench/lib/measure.ts';
import { parseOptions } from '../../bench/lib/options.ts';
import { buildReport, writeReport } from '../../bench/lib/report.ts';
import { cpuSeconds } from '../../bench/lib/processes.ts';

test('options: --quick makes fewer and shorter runs (at least 3, a full run at least 5); bad options are refused', () => {
  const quick = parseOptions(['--quick']);
  const full = parseOptions([]);
  assert.equal(quick.quick, true);
  assert.deepEqual([quick.timing.runs, full.timing.runs], [3, 7]);
  assert.ok(quick.timing.runMs < full.timing.runMs);
  assert.ok(quick.timing.warmupMs < full.timing.warmupMs);
  assert.equal(parseOptions(['--quick', '--runs', '5']).timing.runs, 5);
  assert.deepEqual(parseOptions(['--only', 'engine-small,http']).only, ['engine-small', 'http']);
  assert.throws(() => parseOptions(['--runs', '3']), /at least 5/);
  assert.throws(() => parseOptions(['--quick', '--runs', '2']), /at least 3 with --quick/);
  assert.throws(() => parseOptions(['--fast']), /unknown option --fast/);
  assert.throws(() => parseOptions(['--only']), /--only needs a value/);
});

test('summarise gives median and range', () => {
  assert.deepEqual(summarise([5, 1, 3, 9, 7], 'ops/s'), { unit: 'ops/s', median: 5, min: 1, max: 9, runs: [5, 1, 3, 9, 7] });
  assert.equal(summarise([1, 2, 3, 4], 'ms').median, 2.5);
});

test('measureSync and measureAsync count operations over the configured runs', async () => {
  let calls = 0;
  const sync = measureSync(() => calls++, { runs: 5, runMs: 5, warmupMs: 5 });
  assert.equal(sync.runs.length, 5);
  assert.ok(sync.median > 1000 && calls > 0);
  const seen = new Set<number>();
  const async = await measureAsync(async (i) => void seen.add(i), 4, { runs: 5, runMs: 5, warmupMs: 5 });
  assert.equal(async.runs.length, 5);
  assert.ok(seen.size > 20, 'input indexes rotate');
});

test('measureAsync of calls answering synchronously reads the clock about once per 0.2 ms, not once per call', async () => {
  // A clock the calls drive: each call takes 1 µs of it, a read of it none. The harness then sees 1,000 calls per
  // ms on any machine, however loaded, and what it does with the clock can be counted exactly.
  const realNow = performance.now;
  let micros = 0;
  let calls = 0;
  const reads = { warmUp: 0, runs: 0 };
  let callsInRuns = 0;
  performance.now = () => {
    reads[micros <= 20_000 ? 'warmUp' : 'runs']++;
    return micros / 1000;
  };
  try {
    const sample = await measureAsync(() => {
      calls++;
      if (micros >= 20_000) callsInRuns++;
      micros++;
      return calls;
    }, 2, { runs: 5, runMs: 20, warmupMs: 20 });
    assert.equal(sample.runs.length, 5);
    for (const rate of sample.runs) assert.ok(Math.abs(rate - 1e6) < 1e4, `${rate} ops/s measured on a clock of 1,000,000 calls per second`);
    // The warm-up reads the clock at every call (it calibrates on them); the 100 ms of runs after it 5 times per ms.
    assert.ok(reads.warmUp >= 20_000 && reads.warmUp <= 20_002, `${reads.warmUp} clock reads in the 20,000 calls of the warm-up`);
    assert.ok(callsInRuns >= 100_000, `${callsInRuns} calls in the runs`);
    assert.ok(reads.runs >= 490 && reads.runs <= 510, `${reads.runs} clock reads for the ${callsInRuns} calls of the runs`);
  } finally {
    performance.now = realNow;
  }
});

test('difference ignores key order and double rounding, and names the first real difference', () => {
  assert.equal(difference([{ a: 1, b: { c: 'x' } }], [{ b: { c: 'x' }, a: 1 }]), undefined);
  assert.equal(difference({ n: 0.1 + 0.2 }, { n: 0.3 }), undefined);
  assert.equal(difference([{ a: 1 }], [{ a: 2 }]), '$[0].a: 1 vs 2');
  assert.equal(difference([{ a: 1 }], [{ a: 1, b: 2 }]), '$[0].b: unexpected (2)');
  assert.equal(difference([1], []), '$: 1 items vs 0 items');
  assert.equal(difference({ a: null }, { a: 0 }), '$.a: null vs 0');
});

test('zen answers are brought to the list shape', () => {
  assert.deepEqual(fromZen({}, 'first'), []);
  assert.deepEqual(fromZen({ x: 1 }, 'first'), [{ x: 1 }]);
  assert.deepEqual(fromZen([{ x: 1 }, { x: 2 }], 'collect'), [{ x: 1 }, { x: 2 }]);
  assert.deepEqual(fromZen({}, 'single'), [{}]);
});

test('checkAgreement names the input on which two engines disagree', async () => {
  const a = { engine: 'A', answer: async (i: unknown) => [{ v: i }] };
  const b = { engine: 'B', answer: async (i: unknown) => [{ v: i === 2 ? 99 : i }] };
  await assert.rejects(checkAgreement([a, b], [1, 2, 3]), /A and B disagree on input #1 2: \$\[0\]\.v: 2 vs 99/);
  const agreement = await checkAgreement([a, { ...b, limit: 1 }], [1, 2, 3]);
  assert.deepEqual(agreement, { inputs: 3, engines: ['A', 'B'], nonEmpty: 3 });
});

test('ratio is Verdict over peer and null when either is missing', () => {
  assert.equal(ratio(300, 100), 3);
  assert.equal(ratio(null, 100), null);
  assert.equal(ratio(100, 0), null);
});

function caseResult(id: string, title: string, summary: Record<string, unknown>): CaseResult {
  return {
    id, title, status: 'ok', notes: [], agreement: [{ scenario: 's', inputs: 3, engines: ['Verdict', 'zen'], nonEmpty: 2 }],
    measurements: [
      { scenario: 's', engine: 'verdict', label: 'Verdict', sample: summarise([3e6, 2.9e6, 3.1e6, 3e6, 3e6], 'ops/s') },
      { scenario: 's', engine: 'zen', label: 'zen (64 in flight)', sample: summarise([4e4, 4e4, 4e4, 4e4, 4e4], 'ops/s') },
    ],
    summary, durationMs: 1200,
  };
}

test('the report carries the required keys (null when not measured), the targets, and writes three files', () => {
  const small = caseResult('engine-small', '(a) small', { verdict: 3e6, zen: 4e4, ratio: 75 });
  const skipped: CaseResult = { ...caseResult('kafka', 'Kafka', {}), status: 'skipped', notes: ['not available: no broker'], measurements: [], agreement: [] };
  const report = buildReport([small, skipped], {
    date: '2026-01-01T00:00:00.000Z', quick: true, timing: { runs: 5, runMs: 100, warmupMs: 100 }, node: 'v24', cpu: 'cpu', cores: 2, commit: 'abc', totalSeconds: 3,
  });
  assert.deepEqual(report.engine.small, { status: 'ok', verdict: 3e6, zen: 4e4, ratio: 75 });
  assert.deepEqual(report.engine.zen8k, { status: 'not run', verdict: null, zen: null, ratio: null });
  assert.deepEqual(report.engine.rows40k, { status: 'not run', compileMs: null, retainedMB: null, verdict: null });
  assert.deepEqual(report.http, { status: 'not run', verdict: null, fastify: null, ratio: null, p99Ms: null });
  assert.equal(report.kafka.status, 'skipped');
  assert.deepEqual(report.kafka.notes, ['not available: no broker']);
  for (const key of ['verdict', 'raw', 'ratio', 'p99Ms']) assert.equal(report.kafka[key], null);
  const targets = Object.fromEntries(report.targets.map((t) => [t.id, t.met]));
  assert.equal(targets['a-ratio'], true);
  assert.equal(targets['a-rate'], true);
  assert.equal(targets['c-ratio'], null);
  assert.equal(targets['e-ratio'], null);
  assert.equal(targets['http-ratio-95'], null);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
  try {
    const files = writeReport(report, dir);
    assert.deepEqual(files.map((f) => path.basename(f)), ['latest.md', 'latest.json', 'chart.svg']);
    const json = JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8')) as { engine: { small: { ratio: number } } };
    assert.equal(json.engine.small.ratio, 75);
    const md = readFileSync(path.join(dir, 'latest.md'), 'utf8');
    assert.match(md, /\| \(a\) small table: at least 20x zen-engine \| 75 x \| yes \|/);
    assert.match(md, /\| s \| zen \(64 in flight\) \| 40,000 ops\/s \| 40,000–40,000 \| 75x \|/);
    assert.match(md, /not available: no broker/);
    const svg = readFileSync(path.join(dir, 'chart.svg'), 'utf8');
    assert.match(svg, /^<svg /);
    assert.match(svg, /<title>verdict: 3000000 ops\/s<\/title>/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cpuSeconds reads a live process\'s CPU time on Linux, and nothing for an unknown pid', () => {
  const before = cpuSeconds(process.pid);
  if (process.platform === 'linux') {
    assert.equal(typeof before, 'number');
    let x = 0;
    const end = Date.now() + 60;
    while (Date.now() < end) x += Math.sqrt(x + 1);
    assert.ok(cpuSeconds(process.pid)! >= before! && x > 0);
  }
  assert.equal(cpuSeconds(undefined), undefined);
  assert.equal(cpuSeconds(2 ** 30), undefined);
});

test('race times only the contenders that agree with the reference, and says which one did not', async () => {
  const result: CaseResult = { id: 'x', title: 'x', status: 'ok', notes: [], agreement: [], measurements: [], summary: {}, durationMs: 0 };
  const ctx = { quick: true, timing: { runs: 5, runMs: 2, warmupMs: 2 }, repoRoot: '.', sharedDir: '.', log: () => undefined };
  const good: Contender = { engine: 'verdict', label: 'Verdict', answer: async (i) => [{ v: i }], sync: (i) => [{ v: i }] };
  const peer: Contender = { engine: 'zen', label: 'zen', answer: async (i) => [{ v: i }], async: async (i) => [{ v: i }], concurrency: [1, 64] };
  const wrong: Contender = { engine: 'json-rules-engine', label: 'json-rules-engine', answer: async () => [], async: async () => [], concurrency: [1] };
  const outcome = await race(ctx, result, 's', [good, peer, wrong, undefined], [1, 2, 3]);
  assert.equal(outcome.agreed, false);
  assert.equal(result.status, 'failed');
  assert.match(result.notes[0], /s: json-rules-engine disagrees with Verdict, not timed: input #0 1: \$: 1 items vs 0 items/);
  assert.deepEqual(result.agreement, [{ scenario: 's', inputs: 3, engines: ['Verdict', 'zen'], nonEmpty: 3 }]);
  // zen is measured at 1 and (capped by --quick) 16 in flight; json-rules-engine not at all.
  assert.deepEqual(result.measurements.map((m) => m.label), ['Verdict', 'zen (awaited one at a time)', 'zen (16 in flight)']);
  assert.ok((outcome.best.verdict ?? 0) > 0 && (outcome.best.zen ?? 0) > 0);
  assert.equal(outcome.best['json-rules-engine'], undefined);
});

test('measureCpuPerOp: an operation doing ten times the work costs several times the CPU, sync or awaited', async () => {
  const spin = (n: number): number => {
    let x = 0;
    for (let i = 0; i < n; i++) x = (x + i * 31) % 1_000_003;
    return x;
  };
  const light = await measureCpuPerOp(() => spin(2_000), 1, 60);
  const heavy = await measureCpuPerOp(() => spin(20_000), 1, 60);
  const heavyAwaited = await measureCpuPerOp(() => Promise.resolve(spin(20_000)), 4, 60);
  assert.ok(light > 0, `light: ${light}`);
  assert.ok(heavy > 3 * light, `heavy ${heavy} µs vs light ${light} µs`);
  assert.ok(heavyAwaited > 3 * light, `awaited heavy ${heavyAwaited} µs vs light ${light} µs`);
});
