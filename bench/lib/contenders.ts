// The engines in a race: Verdict (in-process, synchronous or awaited), GoRules zen-engine (Rust through N-API,
// always awaited) and json-rules-engine. `race` checks that all give the same answers, then times each.
import { ZenEngine } from '@gorules/zen-engine';
import type { ZenDecision } from '@gorules/zen-engine';
import { compileRule, solveNow, solveSync } from '../../src/engine/index.ts';
import type { CompiledRule, SolveOptions } from '../../src/engine/index.ts';
import type { Answer } from './answers.ts';
import { difference, fromVerdict, fromZen } from './answers.ts';
import type { BenchContext, CaseResult, Measurement } from './case.ts';
import { errorText } from './case.ts';
import { measureAsync, measureSync } from './measure.ts';
import type { TableSpec } from './table-spec.ts';
import { toJdmDecision } from './to-jdm.ts';
import type { JdmDecision } from './to-jdm.ts';
import { toJreTable } from './to-jre.ts';
import { toVerdictTable, verdictStrategy } from './to-verdict.ts';

export interface Contender {
  engine: 'verdict' | 'zen' | 'json-rules-engine';
  label: string;
  answer(input: unknown): Promise<Answer>;
  /** Synchronous solve (Verdict tables). */
  sync?: (input: unknown) => unknown;
  /** Awaited solve (awaited only when it answers with a promise); measured once per entry of `concurrency`. */
  async?: (input: unknown) => unknown;
  concurrency?: number[];
  /** Check answers on only the first N inputs (for engines that take seconds per solve). */
  checkLimit?: number;
}

/** In-flight levels for ZEN: awaited one at a time, and 64 at once (its N-API calls run on a thread pool). */
export const ZEN_CONCURRENCY = [1, 64];
/**
 * --quick caps the in-flight level at 16: on two cores ZEN's throughput is the same at 16 and 64 within noise, and
 * on the slow tables (40k rows: tens of ms per call) draining 64 calls would take most of the quick budget.
 */
export const QUICK_MAX_IN_FLIGHT = 16;

let zenEngine: ZenEngine | undefined;
export function zen(): ZenEngine {
  zenEngine ??= new ZenEngine();
  return zenEngine;
}
export function disposeZen(): void {
  zenEngine?.dispose();
  zenEngine = undefined;
}

export function verdictContender(compiled: CompiledRule, options: SolveOptions, label = 'Verdict'): Contender {
  if (compiled.async) {
    return {
      engine: 'verdict',
      label,
      answer: async (input) => fromVerdict(await solveNow(compiled, input, options)),
      // A rule that may wait (a flow) is awaited only when it did, as the service's input loop runs it.
      async: (input) => solveNow(compiled, input, options),
      concurrency: [1],
    };
  }
  return {
    engine: 'verdict',
    label,
    answer: (input) => Promise.resolve(fromVerdict(solveSync(compiled, input, options))),
    sync: (input) => solveSync(compiled, input, options),
  };
}

export function verdictTableContender(spec: TableSpec): Contender {
  const compiled = compileRule(toVerdictTable(spec));
  return verdictContender(compiled, { strategy: verdictStrategy(spec) });
}

export function zenContender(decision: ZenDecision, hitPolicy: 'first' | 'collect' | 'single', label = 'zen'): Contender {
  return {
    engine: 'zen',
    label,
    answer: async (input) => fromZen((await decision.evaluate(input)).result, hitPolicy),
    async: (input) => decision.evaluate(input),
    concurrency: ZEN_CONCURRENCY,
  };
}

export function zenTableContender(spec: TableSpec, jdm: JdmDecision | unknown = toJdmDecision(spec)): Contender {
  return zenContender(zen().createDecision(jdm as object), spec.hitPolicy);
}

export function jreTableContender(spec: TableSpec): Contender {
  const table = toJreTable(spec);
  return {
    engine: 'json-rules-engine',
    label: 'json-rules-engine',
    answer: (input) => table.solve(input as Record<string, unknown>),
    async: (input) => table.solve(input as Record<string, unknown>),
    concurrency: [1],
  };
}

/**
 * Builds a contender, recording instead of throwing when it cannot be built (Verdict pieces still landing,
 * a peer that cannot express the rule), so that the other engines are still measured.
 */
export function tryBuild(result: CaseResult, what: string, build: () => Contender): Contender | undefined {
  try {
    return build();
  } catch (error) {
    result.notes.push(`${what} not measured: ${errorText(error)}`);
    result.status = 'partial';
    return undefined;
  }
}

export interface RaceOutcome {
  /** Best median ops/s per engine (the best in-flight level for async engines). */
  best: Partial<Record<Contender['engine'], number>>;
  measurements: Measurement[];
  /** Every contender built gave the same answers. */
  agreed: boolean;
}

function modeLabel(c: Contender, concurrency: number): string {
  if (c.sync) return c.label;
  if (c.engine === 'zen') return concurrency === 1 ? `${c.label} (awaited one at a time)` : `${c.label} (${concurrency} in flight)`;
  return concurrency === 1 ? c.label : `${c.label} (${concurrency} in flight)`;
}

/**
 * Checks that the contenders agree on every input, then measures each with inputs rotating. A contender whose
 * answers differ is recorded and not timed: a fast wrong answer is not a result.
 */
export async function race(
  ctx: BenchContext,
  result: CaseResult,
  scenario: string,
  contenders: (Contender | undefined)[],
  inputs: readonly unknown[],
): Promise<RaceOutcome> {
  const built = contenders.filter((c): c is Contender => c !== undefined);
  const outcome: RaceOutcome = { best: {}, measurements: [], agreed: false };
  if (built.length === 0) return outcome;
  // Each contender is checked against the first (Verdict's main form); one that disagrees is not timed, the
  // others still are, so a wrong peer or variant cannot hide the figures of the rest.
  const [reference, ...others] = built;
  const expected: Answer[] = [];
  try {
    for (const input of inputs) expected.push(await reference.answer(input));
  } catch (error) {
    result.notes.push(`${scenario}: ${reference.label} failed on input #${expected.length}, nothing timed: ${errorText(error)}`);
    result.status = 'failed';
    return outcome;
  }
  const present: Contender[] = [reference];
  for (const other of others) {
    const limit = Math.min(other.checkLimit ?? inputs.length, inputs.length);
    try {
      for (let i = 0; i < limit; i++) {
        const d = difference(expected[i], await other.answer(inputs[i]));
        if (d) throw new Error(`input #${i} ${JSON.stringify(inputs[i])}: ${d}\n  ${reference.label}: ${JSON.stringify(expected[i])}`);
      }
      present.push(other);
    } catch (error) {
      result.notes.push(`${scenario}: ${other.label} disagrees with ${reference.label}, not timed: ${errorText(error)}`);
      result.status = 'failed';
    }
  }
  result.agreement.push({ scenario, inputs: inputs.length, engines: present.map((c) => c.label), nonEmpty: expected.filter((a) => a.length > 0).length });
  outcome.agreed = present.length === built.length;
  const n = inputs.length;
  for (const c of present) {
    const levels = c.sync ? [1] : (c.concurrency ?? [1]).map((level) => (ctx.quick ? Math.min(level, QUICK_MAX_IN_FLIGHT) : level));
    for (const concurrency of levels) {
      const label = modeLabel(c, concurrency);
      ctx.log(`  ${scenario}: ${label} ...`);
      const sample = c.sync
        ? measureSync((i) => c.sync!(inputs[i % n]), ctx.timing)
        : await measureAsync((i) => c.async!(inputs[i % n]), concurrency, ctx.timing);
      const m: Measurement = { scenario, engine: c.engine, label, sample };
      outcome.measurements.push(m);
      result.measurements.push(m);
      ctx.log(`    ${Math.round(sample.median).toLocaleString('en-US')} ops/s (${Math.round(sample.min).toLocaleString('en-US')}–${Math.round(sample.max).toLocaleString('en-US')})`);
      outcome.best[c.engine] = Math.max(outcome.best[c.engine] ?? 0, sample.median);
    }
  }
  return outcome;
}
