// (g) A bulk of 10,000 inputs: one call's wall time, as a bulk solve request needs it. On the 500-row table (the
// headline) and on the small table (a), so per-solve overhead and table work can be told apart.
import { checkAgreement } from '../lib/answers.ts';
import type { BenchCase, BenchContext, CaseResult } from '../lib/case.ts';
import { errorText, ratio } from '../lib/case.ts';
import { QUICK_MAX_IN_FLIGHT, tryBuild, verdictTableContender, zenTableContender } from '../lib/contenders.ts';
import { measureDuration } from '../lib/measure.ts';
import type { TableSpec } from '../lib/table-spec.ts';
import { loanInputs, loanTable, smallInputs, smallTable } from './tables.ts';

export const BULK_SIZE = 10_000;

/** Solves every input with at most `inFlight` awaited calls at a time, keeping input order. */
async function pooled(solve: (input: unknown) => Promise<unknown>, inputs: readonly unknown[], inFlight: number): Promise<unknown[]> {
  const out = new Array<unknown>(inputs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const i = next++;
      out[i] = await solve(inputs[i]);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return out;
}

/** The 10,000 small-table inputs: the 32 distinct inputs of case (a), repeated. */
export function smallBulkInputs(): Record<string, unknown>[] {
  const distinct = smallInputs();
  return Array.from({ length: BULK_SIZE }, (_, i) => distinct[i % distinct.length]);
}

async function bulkScenario(ctx: BenchContext, result: CaseResult, scenario: string, spec: TableSpec, inputs: readonly unknown[]): Promise<{ verdictMs: number | null; zenMs: number | null }> {
  const verdict = tryBuild(result, `Verdict (${scenario})`, () => verdictTableContender(spec));
  const zen = tryBuild(result, `zen (${scenario})`, () => zenTableContender(spec));
  const checked = ctx.quick ? inputs.slice(0, 1000) : inputs;
  try {
    const sources = [verdict, zen].filter((c) => c !== undefined).map((c) => ({ engine: c.label, answer: c.answer }));
    result.agreement.push({ scenario, ...(await checkAgreement(sources, checked)) });
  } catch (error) {
    result.status = 'failed';
    result.notes.push(`${scenario}: answers differ, not timed: ${errorText(error)}`);
    return { verdictMs: null, zenMs: null };
  }
  const runs = ctx.timing.runs;
  let verdictMs: number | null = null;
  let zenMs: number | null = null;
  if (verdict?.sync) {
    const solveOne = verdict.sync;
    ctx.log(`  ${scenario}: Verdict ...`);
    const sample = await measureDuration(() => inputs.map((input) => solveOne(input)), runs);
    result.measurements.push({ scenario, engine: 'verdict', label: 'Verdict', sample });
    verdictMs = sample.median;
  }
  if (zen?.async) {
    // Awaited one at a time zen needs seconds per bulk; --quick times only its in-flight mode (capped at 16).
    for (const inFlight of ctx.quick ? [QUICK_MAX_IN_FLIGHT] : [1, 64]) {
      ctx.log(`  ${scenario}: zen ${inFlight} in flight ...`);
      // The agreement check above already warmed zen up on these inputs; --quick skips its separate warm-up bulk.
      // zen's evaluate always answers with a promise.
      const evaluate = zen.async as (input: unknown) => Promise<unknown>;
      const sample = await measureDuration(() => pooled(evaluate, inputs, inFlight), runs, ctx.quick ? 0 : 1);
      const label = inFlight === 1 ? 'zen (awaited one at a time)' : `zen (${inFlight} in flight)`;
      result.measurements.push({ scenario, engine: 'zen', label, sample });
      zenMs = Math.min(zenMs ?? Infinity, sample.median);
    }
  }
  return { verdictMs, zenMs };
}

const perSecond = (ms: number | null): number | null => (ms ? (BULK_SIZE * 1000) / ms : null);

export const engineBulk: BenchCase = {
  id: 'engine-bulk',
  title: '(g) bulk of 10,000 inputs',
  key: 'engine.bulk',
  async run(ctx, result) {
    const loan = await bulkScenario(ctx, result, 'bulk 500-row table', loanTable(500), loanInputs(BULK_SIZE, 7));
    const small = await bulkScenario(ctx, result, 'bulk small table', smallTable(), smallBulkInputs());
    if (ctx.quick) result.notes.push(`--quick: zen timed with ${QUICK_MAX_IN_FLIGHT} in flight only`);
    result.notes.push('json-rules-engine is not run on the bulk: at its rate on table (b) one bulk would take minutes');
    // ops/s like the other cases (inputs per second), plus the wall time of one bulk.
    result.summary = {
      size: BULK_SIZE,
      verdictMs: loan.verdictMs, zenMs: loan.zenMs,
      verdict: perSecond(loan.verdictMs), zen: perSecond(loan.zenMs), ratio: ratio(perSecond(loan.verdictMs), perSecond(loan.zenMs)),
      smallVerdictMs: small.verdictMs, smallZenMs: small.zenMs, smallRatio: ratio(perSecond(small.verdictMs), perSecond(small.zenMs)),
    };
  },
};
