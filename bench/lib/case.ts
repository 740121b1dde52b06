// What a benchmark case is and what it hands back to the harness.
import type { Sample, TimingOptions } from './measure.ts';

export interface BenchContext {
  quick: boolean;
  timing: TimingOptions;
  /** The repository root (bench/.. ). */
  repoRoot: string;
  /** `../shared` next to the repository: benchmark data that is not ours to commit. */
  sharedDir: string;
  /** When set, servers a case starts get `--cpu-prof` and write their profiles under this directory. */
  profileDir?: string;
  log(line: string): void;
}

/** Node flags that make a process write a CPU profile into `dir/name` when it exits. */
export function profileFlags(ctx: Pick<BenchContext, 'profileDir'>, name: string): string[] {
  return ctx.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${ctx.profileDir}/${name}`] : [];
}

export interface Measurement {
  /** Which part of the case (`early`, `late`, `bulk`, ...). */
  scenario: string;
  engine: string;
  /** Engine plus mode, as shown in the report (`zen (64 in flight)`). */
  label: string;
  sample: Sample;
}

export type CaseStatus = 'ok' | 'partial' | 'skipped' | 'failed';

export interface CaseResult {
  id: string;
  title: string;
  status: CaseStatus;
  /** Why something was skipped or failed, and anything a reader must know to read the figures. */
  notes: string[];
  /** Inputs checked for identical answers across engines before timing. */
  agreement: { scenario: string; inputs: number; engines: string[]; nonEmpty: number }[];
  measurements: Measurement[];
  /** The figures that go into latest.json under this case's key. */
  summary: Record<string, unknown>;
  durationMs: number;
}

export interface BenchCase {
  id: string;
  title: string;
  /** Key under which the summary is written in latest.json (`engine.small`, `http`, ...). */
  key: string;
  run(ctx: BenchContext, result: CaseResult): Promise<void>;
}

export function emptyResult(c: BenchCase): CaseResult {
  return { id: c.id, title: c.title, status: 'ok', notes: [], agreement: [], measurements: [], summary: {}, durationMs: 0 };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Verdict ops/s divided by the peer's, rounded for reading; null when either side is missing. */
export function ratio(verdict: number | null | undefined, peer: number | null | undefined): number | null {
  if (!verdict || !peer) return null;
  return Math.round((verdict / peer) * 100) / 100;
}
