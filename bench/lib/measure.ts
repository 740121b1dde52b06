// Timing loops: a warm-up, then N measured runs of a fixed duration; each run gives one rate, and a sample is
// summarised by its median and range. Inputs rotate so that no engine can win on one cached answer.
import { performance } from 'node:perf_hooks';

export interface TimingOptions {
  /** Measured runs (at least 5). */
  runs: number;
  /** Duration of one measured run. */
  runMs: number;
  /** Warm-up before the measured runs (JIT, caches). */
  warmupMs: number;
}

export interface Sample {
  unit: 'ops/s' | 'ms' | 'µs';
  median: number;
  min: number;
  max: number;
  /** One value per measured run. */
  runs: number[];
}

export function summarise(values: number[], unit: Sample['unit']): Sample {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { unit, median, min: sorted[0], max: sorted[sorted.length - 1], runs: values };
}

/** Results are parked here so that no loop body is ever dead code. */
export let lastResult: unknown;

function loopFor(op: (i: number) => unknown, ms: number, batch: number, offset: number): { ops: number; elapsed: number } {
  let ops = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    for (let k = 0; k < batch; k++) lastResult = op(offset + ops++);
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return { ops, elapsed };
}

/** Rate of a synchronous operation, in operations per second. `op(i)` should use input `i % inputs.length`. */
export function measureSync(op: (i: number) => unknown, timing: TimingOptions): Sample {
  // Calibrate the batch so that the clock is read about once per 0.2 ms whatever the cost of one op.
  const probe = loopFor(op, Math.min(20, timing.warmupMs), 1, 0);
  const perMs = probe.ops / probe.elapsed;
  const batch = Math.max(1, Math.floor(perMs / 5));
  let offset = probe.ops;
  const warm = loopFor(op, timing.warmupMs, batch, offset);
  offset += warm.ops;
  const rates: number[] = [];
  for (let r = 0; r < timing.runs; r++) {
    const run = loopFor(op, timing.runMs, batch, offset);
    offset += run.ops;
    rates.push((run.ops * 1000) / run.elapsed);
  }
  return summarise(rates, 'ops/s');
}

/**
 * Rate of an asynchronous operation with `concurrency` calls in flight, in operations per second. The workers run
 * without pause from the warm-up to the last run; a run is the completions between two window boundaries, so
 * calls still in flight at a boundary count in the next window instead of being waited for (no drain per run).
 */
export async function measureAsync(op: (i: number) => unknown, concurrency: number, timing: TimingOptions): Promise<Sample> {
  const rates: number[] = [];
  let next = 0;
  let completed = 0;
  let windowStart = performance.now();
  let windowCompleted = 0;
  let boundary = windowStart + timing.warmupMs;
  let warm = false;
  let stop = false;
  // The clock is read every `clockEvery` completions: once per completion during the warm-up, then calibrated (as
  // measureSync's batch) to about once per 0.2 ms, so a call answering in a microsecond does not pay a clock read
  // per call that a slower engine does not notice. A window closes at most that late, and its rate uses the real time.
  let clockEvery = 1;
  let sinceClock = 0;
  const closeWindow = (now: number): void => {
    if (warm) rates.push(((completed - windowCompleted) * 1000) / (now - windowStart));
    else clockEvery = Math.max(1, Math.floor((completed - windowCompleted) / (now - windowStart) / 5));
    warm = true;
    windowStart = now;
    windowCompleted = completed;
    boundary = now + timing.runMs;
    if (rates.length >= timing.runs) stop = true;
  };
  const worker = async (): Promise<void> => {
    while (!stop) {
      // An answer that is not a promise (a Verdict flow that did not wait) is not awaited: the service does not.
      const answer = op(next++);
      lastResult = answer instanceof Promise ? await answer : answer;
      completed++;
      if (++sinceClock < clockEvery) continue;
      sinceClock = 0;
      const now = performance.now();
      if (now >= boundary && !stop) closeWindow(now);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarise(rates, 'ops/s');
}

/** Duration of one (large) operation, such as a 10,000-input bulk: `warmups` untimed calls, then `runs` timed. */
export async function measureDuration(op: () => unknown, runs: number, warmups = 1): Promise<Sample> {
  for (let w = 0; w < warmups; w++) lastResult = await op();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    lastResult = await op();
    times.push(performance.now() - start);
  }
  return summarise(times, 'ms');
}

/**
 * CPU time of the whole process (every thread: zen's pool, isolated-vm's) per operation, in µs, over `ms` of wall
 * time with `concurrency` calls in flight, after a warm-up of half that. Unlike a rate, it does not move with the
 * machine's load, nor favour an engine whose calls spread over more threads of an oversubscribed machine.
 */
export async function measureCpuPerOp(op: (i: number) => unknown, concurrency: number, ms: number): Promise<number> {
  let next = 0;
  const runUntil = async (until: number): Promise<void> => {
    const worker = async (): Promise<void> => {
      while (performance.now() < until) {
        // Synchronous answers are taken 16 at a time between clock reads; a promise is awaited.
        for (let k = 0; k < 16; k++) {
          const answer = op(next++);
          if (answer instanceof Promise) {
            lastResult = await answer;
            break;
          }
          lastResult = answer;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await runUntil(performance.now() + ms / 2);
  const from = next;
  const before = process.cpuUsage();
  await runUntil(performance.now() + ms);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / Math.max(1, next - from);
}
