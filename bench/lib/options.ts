// Command-line options of `npm run bench`.
import type { TimingOptions } from './measure.ts';

export interface BenchOptions {
  quick: boolean;
  /** Case ids to run (`--only engine-small,http`); all when empty. */
  only: string[];
  timing: TimingOptions;
  /** Where latest.md / latest.json / chart.svg go. */
  outDir: string | undefined;
  /** Write V8 CPU profiles of every case process and server here (`--profile DIR`). */
  profileDir: string | undefined;
}

/** Measured runs per measurement with --quick. */
export const QUICK_RUNS = 3;
/** Duration of one measured run, and of the warm-up, with --quick. */
export const QUICK_MS = 50;

export const USAGE = `usage: npm run bench -- [--quick] [--only CASE[,CASE...]] [--runs N] [--run-ms MS] [--out DIR]
  --quick      short runs (3 runs of 50 ms per measurement, 50 ms warm-up); same files written
  --only       run only these cases (ids: see bench/cases/index.ts)
  --runs       measured runs per measurement (default 7, quick 3; at least 5, with --quick at least 3)
  --run-ms     duration of one measured run (default 1000, quick 50)
  --out        directory for the result files (default bench/results)
  --profile    write CPU profiles (node --cpu-prof) of each case process and each server into DIR/<case>/`;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
    return v;
  };
  const withValue = ['--only', '--runs', '--run-ms', '--out', '--profile'];
  const known = new Set(['--quick', ...withValue]);
  argv.forEach((arg, i) => {
    if (arg.startsWith('--') && !known.has(arg)) throw new Error(`unknown option ${arg}`);
    if (!arg.startsWith('--') && !(i > 0 && withValue.includes(argv[i - 1]))) throw new Error(`unexpected argument ${arg}`);
  });
  // --quick is CI's check that every case still runs and agrees, with indicative figures: a median of 3 short runs
  // (docs/decisions/bench-methodology.md). A full run keeps at least 5.
  const leastRuns = quick ? QUICK_RUNS : 5;
  const runs = Number(value('--runs') ?? (quick ? QUICK_RUNS : 7));
  if (!Number.isInteger(runs) || runs < leastRuns) throw new Error(`--runs must be an integer of at least ${leastRuns}${quick ? ' with --quick' : ''}`);
  const runMs = Number(value('--run-ms') ?? (quick ? QUICK_MS : 1000));
  if (!(runMs > 0)) throw new Error('--run-ms must be a positive number');
  return {
    quick,
    only: (value('--only') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    timing: { runs, runMs, warmupMs: quick ? QUICK_MS : 1000 },
    outDir: value('--out'),
    profileDir: value('--profile'),
  };
}
