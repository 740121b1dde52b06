// Compile time of the 40,000-row price list of case (d), alone: one cold compile in this fresh process, then N
// warm ones of the same text. For comparing commits (issue 30): run it in two checkouts, alternating, fresh
// processes each time. Like the bench case, the document arrives as JSON text and JSON.parse is not counted.
//
//   node bench/compile-rows40k.ts [--warm N] [--rows R]
//
// Prints one line: `cold <ms> warm <median ms> (<each ms>...) cpu cold <ms> warm <median ms> gc <ms> rows <R>`.
// The first figures are wall time; `cpu` is the main thread's CPU time over the same compiles (steadier than the
// wall on a shared machine); `gc` the collectors' pauses during the cold compile (part of its time).
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { compileRule } from '../src/engine/index.ts';
import { toVerdictTable } from './lib/to-verdict.ts';
import { priceListTable } from './cases/tables.ts';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} needs a whole number, got ${process.argv[at + 1]}`);
  return value;
}

const rows = option('--rows', 40_000);
const warmRuns = option('--warm', 4);
const text = JSON.stringify(toVerdictTable(priceListTable(rows)));

// Collector pauses inside the cold compile: its [start, end], summed by the observer.
let window: [number, number] = [0, 0];
let gcMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.startTime >= window[0] && entry.startTime <= window[1]) gcMs += entry.duration;
});
observer.observe({ entryTypes: ['gc'] });

interface Timing {
  wall: number;
  cpu: number;
}

function compileOnce(): Timing {
  const doc = JSON.parse(text) as unknown;
  const cpuBefore = process.threadCpuUsage();
  const start = performance.now();
  compileRule(doc);
  const end = performance.now();
  const cpu = process.threadCpuUsage(cpuBefore);
  window = [start, end];
  return { wall: end - start, cpu: (cpu.user + cpu.system) / 1000 };
}

const cold = compileOnce();
// GC entries arrive asynchronously: let the cold compile's come in before the window moves on.
await new Promise((resolve) => setTimeout(resolve, 0));
const coldGc = gcMs;
observer.disconnect();
const warm = Array.from({ length: warmRuns }, compileOnce);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN;
}
const ms = (value: number): string => value.toFixed(0);
const walls = warm.map((t) => t.wall);
process.stdout.write(
  `cold ${ms(cold.wall)} warm ${ms(median(walls))} (${walls.map(ms).join(' ')}) ` +
    `cpu cold ${ms(cold.cpu)} warm ${ms(median(warm.map((t) => t.cpu)))} gc ${ms(coldGc)} rows ${rows}\n`,
);
