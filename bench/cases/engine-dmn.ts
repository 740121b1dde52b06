// (j) DMN models solved by Verdict (src/engine/dmn) and by Drools DMN (org.kie:kie-dmn-core, in its own JVM,
// bench/drools): the TCK's models with decision tables (their test inputs) and a generated 1,000-rule UNIQUE table,
// the same files for both. Every input's decision results must agree before anything is timed. Drools times itself
// in its JVM with the same warm-up, runs and run length as Verdict here; both get their inputs built in advance
// in their own value types (FEEL values; Java BigDecimal/String/List/Map) and a fresh evaluation per input.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileDmn } from '../../src/engine/dmn/index.ts';
import type { CompiledDmn } from '../../src/engine/dmn/index.ts';
import { fromJson, toJson } from '../../src/engine/feel/index.ts';
import type { FeelValue } from '../../src/engine/feel/index.ts';
import { readDmn } from '../../src/rules/dmn/index.ts';
import { DroolsDmn } from '../drools/client.ts';
import { difference } from '../lib/answers.ts';
import type { BenchCase, BenchContext, CaseResult } from '../lib/case.ts';
import { errorText, ratio } from '../lib/case.ts';
import type { DmnBenchModel } from '../lib/dmn-models.ts';
import { TABLE1000_NAMESPACE, table1000Inputs, table1000Xml, tckTableModels } from '../lib/dmn-models.ts';
import { measureCpuPerOp, measureSync, summarise } from '../lib/measure.ts';
import type { TimingOptions } from '../lib/measure.ts';

/** The evaluations' instant (no table model reads the clock; fixed so that runs repeat). */
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** TCK models the two engines answer differently, with the reason; they are not timed. */
export const DMN_EXCLUDED: Readonly<Record<string, string>> = {
  'compliance-level-3/0008-listGen': 'Drools 10.2 answers null for listGen2 where the TCK (and Verdict) expect a list of nulls',
  'compliance-level-3/0017-tableTests': 'Drools 10.2 answers null for priceInRange where the TCK (and Verdict) expect "Not in range"',
};

/**
 * Verdict's JSON writes a decimal beyond a double's precision as a string (docs/decisions/feel-values.md); the
 * Drools side writes every BigDecimal as a JSON number. Such a string compares as the number it spells.
 */
function asDroolsWrites(verdict: unknown, drools: unknown): unknown {
  if (typeof verdict === 'string' && typeof drools === 'number' && /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(verdict)) return Number(verdict);
  if (Array.isArray(verdict) && Array.isArray(drools)) return verdict.map((v, i) => asDroolsWrites(v, drools[i]));
  if (verdict && drools && typeof verdict === 'object' && typeof drools === 'object' && !Array.isArray(verdict)) {
    return Object.fromEntries(Object.entries(verdict).map(([k, v]) => [k, asDroolsWrites(v, (drools as Record<string, unknown>)[k])]));
  }
  return verdict;
}

interface Prepared {
  model: DmnBenchModel;
  id: string;
  compiled: CompiledDmn;
  feelInputs: Map<string, FeelValue>[];
}

interface ModelFigures {
  verdict: number;
  drools: number;
  ratio: number | null;
  cpu: { verdictUs: number; droolsUs: number; ratio: number | null };
}

export async function prepare(model: DmnBenchModel, id: string): Promise<Prepared> {
  const read = await readDmn(readFileSync(model.file, 'utf8'));
  if (!read.model) throw new Error(`${model.name}: ${read.problems[0]?.message ?? 'not a DMN model'}`);
  const compiled = compileDmn(read.model);
  if (compiled.problems.length > 0) throw new Error(`${model.name}: ${compiled.problems[0].path}: ${compiled.problems[0].message}`);
  const feelInputs = model.inputs.map((input) => new Map(Object.entries(input).map(([name, value]) => [name, fromJson(value)] as const)));
  return { model, id, compiled, feelInputs };
}

function verdictAnswer(p: Prepared, input: Map<string, FeelValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of p.compiled.evaluate(input, { now: NOW }).results) out[name] = toJson(value);
  return out;
}

/** Why the engines' answers differ on the model's inputs, or undefined when they agree. */
export async function disagreement(p: Prepared, drools: DroolsDmn): Promise<string | undefined> {
  const theirs = await drools.answers(p.id, p.model.inputs);
  for (let i = 0; i < p.feelInputs.length; i++) {
    const d = difference(asDroolsWrites(verdictAnswer(p, p.feelInputs[i]), theirs[i]), theirs[i]);
    if (d) return `input #${i} ${JSON.stringify(p.model.inputs[i])}: ${d}`;
  }
  return undefined;
}

function round(value: number): number {
  return value >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
}

function geomean(values: readonly (number | null)[]): number | null {
  if (values.length === 0 || values.some((v) => !v)) return null;
  let logSum = 0;
  for (const v of values) logSum += Math.log(v as number);
  return Math.exp(logSum / values.length);
}

async function timeModel(ctx: BenchContext, result: CaseResult, p: Prepared, drools: DroolsDmn, timing: TimingOptions, cpuMs: number): Promise<ModelFigures> {
  const n = p.feelInputs.length;
  const evaluate = (i: number) => p.compiled.evaluate(p.feelInputs[i % n], { now: NOW });
  const verdictSample = measureSync(evaluate, timing);
  const verdictUs = await measureCpuPerOp(evaluate, 1, cpuMs);
  const timed = await drools.time(p.model.inputs.map((input) => ({ id: p.id, input })), { ...timing, cpuMs });
  const droolsSample = summarise(timed.rates, 'ops/s');
  result.measurements.push({ scenario: p.model.name, engine: 'verdict', label: 'Verdict', sample: verdictSample });
  result.measurements.push({ scenario: p.model.name, engine: 'drools', label: 'Drools DMN', sample: droolsSample });
  const figures: ModelFigures = {
    verdict: Math.round(verdictSample.median),
    drools: Math.round(droolsSample.median),
    ratio: ratio(verdictSample.median, droolsSample.median),
    cpu: { verdictUs: round(verdictUs), droolsUs: round(timed.cpuUsPerEval), ratio: ratio(timed.cpuUsPerEval, verdictUs) },
  };
  ctx.log(`  ${p.model.name}: Verdict ${figures.verdict.toLocaleString('en-US')}/s, Drools ${figures.drools.toLocaleString('en-US')}/s (${figures.ratio}x; CPU ${figures.cpu.verdictUs} vs ${figures.cpu.droolsUs} µs)`);
  return figures;
}

export const engineDmn: BenchCase = {
  id: 'engine-dmn',
  title: '(j) DMN decision tables (the TCK\'s table models, a 1,000-rule table) against Drools DMN',
  key: 'engine.dmn',
  async run(ctx, result) {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'verdict-bench-dmn-'));
    let drools: DroolsDmn | undefined;
    try {
      const table1000File = path.join(tmp, 'table1000.dmn');
      writeFileSync(table1000File, table1000Xml());
      const tck = tckTableModels(path.join(ctx.repoRoot, 'test', 'conformance', 'dmn-tck'));
      const table1000: DmnBenchModel = { name: 'table1000', file: table1000File, inputs: table1000Inputs() };
      try {
        drools = await DroolsDmn.start(ctx.log);
      } catch (error) {
        result.status = 'skipped';
        result.notes.push(`Drools DMN not started, nothing timed: ${errorText(error)}`);
        return;
      }
      const agreed: Prepared[] = [];
      const excluded: string[] = [];
      for (const [index, model] of [...tck, table1000].entries()) {
        const known = DMN_EXCLUDED[model.name];
        if (known) {
          excluded.push(`${model.name} (${known})`);
          continue;
        }
        try {
          const p = await prepare(model, `m${index}`);
          const read = await readDmn(readFileSync(model.file, 'utf8'));
          await drools.load(p.id, [model.file], read.model?.namespace ?? TABLE1000_NAMESPACE, read.model?.name ?? model.name);
          const d = await disagreement(p, drools);
          if (d) throw new Error(`answers differ: ${d}`);
          const nonEmpty = p.feelInputs.filter((input) => Object.values(verdictAnswer(p, input)).some((value) => value !== null)).length;
          result.agreement.push({ scenario: model.name, inputs: model.inputs.length, engines: ['Verdict', 'Drools DMN'], nonEmpty });
          agreed.push(p);
        } catch (error) {
          result.status = 'failed';
          result.notes.push(`${model.name}: not timed: ${errorText(error)}`);
        }
      }
      if (excluded.length) result.notes.push(`left out: ${excluded.join(', ')}`);
      // One warm-up over every model's inputs in turn for each engine (the JIT of both sees the whole stream), then
      // each model timed on its own with a shorter warm-up. HotSpot's optimising compiler needs seconds, not the
      // 100 ms a quick run gives a case: with 1 s, Drools' first models ran at a fifth of their steady rate.
      const streamMs = ctx.quick ? 2000 : 5000;
      const items = agreed.flatMap((p) => p.feelInputs.map((input, i) => ({ p, input, json: p.model.inputs[i] })));
      measureSync((i) => items[i % items.length].p.compiled.evaluate(items[i % items.length].input, { now: NOW }), { runs: 5, runMs: 1, warmupMs: streamMs });
      await drools.time(items.map((item) => ({ id: item.p.id, input: item.json })), { warmupMs: streamMs, runs: 0, runMs: 0, cpuMs: 0 });
      // 27 models x 2 engines: runs of at most 250 ms keep a full run near 3 minutes (--quick: about 30 s in all).
      const timing: TimingOptions = ctx.quick
        ? { runs: ctx.timing.runs, runMs: 30, warmupMs: 150 }
        : { runs: ctx.timing.runs, runMs: Math.min(ctx.timing.runMs, 250), warmupMs: Math.min(ctx.timing.warmupMs, 250) };
      const cpuMs = ctx.quick ? 60 : 500;
      const perModel: Record<string, ModelFigures> = {};
      for (const p of agreed) perModel[p.model.name] = await timeModel(ctx, result, p, drools, timing, cpuMs);
      const tckFigures = Object.entries(perModel).filter(([name]) => name !== 'table1000').map(([, f]) => f);
      const all = Object.values(perModel);
      const tckRatio = geomean(tckFigures.map((f) => f.ratio));
      const verdict = geomean(all.map((f) => f.verdict));
      const droolsRate = geomean(all.map((f) => f.drools));
      const cpuRatio = geomean(all.map((f) => f.cpu.ratio));
      result.notes.push(
        `engine.dmn.{verdict,drools,ratio} are geometric means over ${all.length} models (${tckFigures.length} TCK table models and the 1,000-rule table); ` +
          `tckRatio over the TCK models only: ${tckRatio === null ? '–' : tckRatio.toFixed(2)}; cpuRatio is Drools' CPU per evaluation over Verdict's (whole process each): ${cpuRatio === null ? '–' : cpuRatio.toFixed(2)}`,
      );
      result.summary = {
        verdict: verdict === null ? null : Math.round(verdict),
        drools: droolsRate === null ? null : Math.round(droolsRate),
        ratio: ratio(verdict, droolsRate),
        tckRatio: tckRatio === null ? null : Math.round(tckRatio * 100) / 100,
        cpuRatio: cpuRatio === null ? null : Math.round(cpuRatio * 100) / 100,
        table1000: perModel.table1000 ?? null,
        models: perModel,
      };
    } finally {
      await drools?.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};
