// (d) A generated 40,000-row table (DecisionRules' row limit): compile time, retained heap, solve rate.
// Runs in its own process started with --expose-gc, so the heap figures are this table's alone.
import { performance } from 'node:perf_hooks';
import { compileRule } from '../../src/engine/index.ts';
import type { CompiledRule } from '../../src/engine/index.ts';
import type { BenchCase } from '../lib/case.ts';
import { errorText, ratio } from '../lib/case.ts';
import { race, tryBuild, verdictContender, zen, zenContender } from '../lib/contenders.ts';
import { summarise } from '../lib/measure.ts';
import { toJdmDecision } from '../lib/to-jdm.ts';
import { toVerdictTable, verdictStrategy } from '../lib/to-verdict.ts';
import { priceListInputs, priceListTable } from './tables.ts';

const ROWS = 40_000;

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
}

export const engineRows40k: BenchCase = {
  id: 'engine-rows40k',
  title: '(d) generated 40,000-row table',
  key: 'engine.rows40k',
  async run(ctx, result) {
    const spec = priceListTable(ROWS);
    // 32 inputs: zen needs tens of milliseconds for each on this table, and the answers are checked first.
    const inputs = priceListInputs(ROWS, 32);
    // The rule arrives as JSON text (from the store); compile time excludes JSON.parse, retained heap counts
    // everything the compiled rule keeps alive, including any part of the parsed document it holds on to.
    const text = JSON.stringify(toVerdictTable(spec));
    let compiled: CompiledRule | undefined;
    let compileMs: number | null = null;
    let retainedMB: number | null = null;
    let warmCompile = null;
    try {
      collect();
      const before = process.memoryUsage().heapUsed;
      const doc = JSON.parse(text) as unknown;
      const start = performance.now();
      compiled = compileRule(doc);
      compileMs = performance.now() - start;
      collect();
      retainedMB = (process.memoryUsage().heapUsed - before) / 1_048_576;
      // Later compiles of the same size (code now optimised), for comparison with the first.
      const times: number[] = [];
      for (let i = 0; i < (ctx.quick ? 1 : 4); i++) {
        const again = JSON.parse(text) as unknown;
        const t = performance.now();
        compileRule(again);
        times.push(performance.now() - t);
      }
      warmCompile = summarise(times, 'ms');
    } catch (error) {
      result.status = 'partial';
      result.notes.push(`Verdict could not compile the 40k table: ${errorText(error)}`);
    }

    const jdm = toJdmDecision(spec);
    const zenStart = performance.now();
    const decision = zen().createDecision(jdm);
    const zenCreateMs = performance.now() - zenStart;

    const outcome = await race(ctx, result, 'rows40k', [
      compiled ? tryBuild(result, 'Verdict', () => verdictContender(compiled, { strategy: verdictStrategy(spec) })) : undefined,
      zenContender(decision, spec.hitPolicy),
    ], inputs);
    const { verdict, zen: z } = outcome.best;
    result.notes.push('json-rules-engine is not run on 40,000 rows (one run evaluates every rule through promises)');
    result.summary = {
      compileMs, retainedMB, verdict: verdict ?? null, zen: z ?? null, ratio: ratio(verdict, z),
      warmCompileMs: warmCompile?.median ?? null, zenCreateDecisionMs: zenCreateMs, jsonBytes: text.length, rows: ROWS,
    };
  },
};
