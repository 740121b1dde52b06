// Compile time of the 40,000-row price list of case (d), alone: one cold compile in this fresh process, then N
// warm ones of the same text. For comparing commits (issue 30): run it in two checkouts, alternating, fresh
// processes each time. Like the bench case, the document arrives as JSON text and JSON.parse is not counted.
//
//   node bench/compile-rows40k.ts [--warm N] [--rows R]
//
// Prints one line: `cold <ms> warm <median ms> (<each ms>...) rows <R>`.
import { performance } from 'node:perf_hooks';
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

function compileOnce(): number {
  const doc = JSON.parse(text) as unknown;
  const start = performance.now();
  compileRule(doc);
  return performance.now() - start;
}

const cold = compileOnce();
const warm = Array.from({ length: warmRuns }, compileOnce);
const sorted = [...warm].sort((a, b) => a - b);
const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
const ms = (value: number): string => value.toFixed(0);
process.stdout.write(`cold ${ms(cold)} warm ${ms(median)} (${warm.map(ms).join(' ')}) rows ${rows}\n`);
