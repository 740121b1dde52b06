// (i) GoRules JDM decision graphs solved by Verdict (rule type `decision-graph`, read by src/formats/jdm) and by
// zen-engine, the SAME JDM for both: zen's 8k decision (first row, catch-all row), zen's credit-analysis decision
// (four tables and a function node) and the conformance kit's graphs that have decision tables (their embedded test
// inputs, every graph in turn). Answers must agree before anything is timed, as in every other case.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ZenDecision } from '@gorules/zen-engine';
import { compileRule, solveSync } from '../../src/engine/index.ts';
import type { CompiledRule } from '../../src/engine/index.ts';
import { createScriptSandbox } from '../../src/engine/script/sandbox.ts';
import { readJdm } from '../../src/formats/jdm/index.ts';
import { fromVerdict, fromZen } from '../lib/answers.ts';
import type { BenchCase, BenchContext, CaseResult } from '../lib/case.ts';
import { ratio } from '../lib/case.ts';
import type { Contender } from '../lib/contenders.ts';
import { QUICK_MAX_IN_FLIGHT, race, tryBuild, verdictContender, zen, zenContender } from '../lib/contenders.ts';
import { measureCpuPerOp } from '../lib/measure.ts';
import { intBetween, pick, seededRandom } from '../lib/table-spec.ts';
import { earlyInputs, lateInputs, zen8kPath } from './engine-zen8k.ts';

/** zen's graph harness fixes the clock here; both engines solve the kit at this instant (zen through its mock). */
export const KIT_NOW = '2025-08-19T16:55:02.078Z';

/** The kit stream's least warm-up (see the kit scenario): 1 s, and half that in --quick. */
const KIT_WARMUP_MS = 1000;

/**
 * Graphs of the kit left out of the timed stream, with the reason. Function nodes run in Verdict's script workers
 * (another process), so those graphs are asynchronous: credit-analysis stands for them. zen-engine 0.54 answers two
 * graphs differently from the outputs the kit records (Verdict answers as recorded), so they cannot agree.
 */
export const KIT_EXCLUDED: Readonly<Record<string, string>> = {
  'auto-insurance-premium-calculator.json': 'zen-engine 0.54 answers differently from the kit’s recorded output',
  'insurance-underwriting-risk.json': 'zen-engine 0.54 answers differently from the kit’s recorded output',
};

export interface JdmGraph {
  file: string;
  jdm: { nodes: { type: string }[]; edges: unknown[]; tests?: { input: unknown; output: unknown }[] };
}

export function kitFolder(repoRoot: string): string {
  return path.join(repoRoot, 'test', 'conformance', 'zen', 'graphs');
}

export function creditAnalysisPath(repoRoot: string): string {
  return path.join(repoRoot, 'bench', 'jdm', 'credit-analysis.json');
}

export function readJdmFile(file: string): JdmGraph['jdm'] {
  return JSON.parse(readFileSync(file, 'utf8')) as JdmGraph['jdm'];
}

/** The kit's graphs with at least one decision table and no function node, minus KIT_EXCLUDED. */
export function kitTableGraphs(repoRoot: string): { graphs: JdmGraph[]; withFunctions: string[] } {
  const folder = kitFolder(repoRoot);
  const graphs: JdmGraph[] = [];
  const withFunctions: string[] = [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
    const jdm = readJdmFile(path.join(folder, file));
    if (!jdm.nodes.some((n) => n.type === 'decisionTableNode') || file in KIT_EXCLUDED) continue;
    if (jdm.nodes.some((n) => n.type === 'functionNode')) withFunctions.push(file);
    else graphs.push({ file, jdm });
  }
  return { graphs, withFunctions };
}

/** The `decision-graph` rule a JDM file imports as (src/formats/jdm), compiled. */
export function compileJdm(jdm: unknown, fileName: string): CompiledRule {
  const read = readJdm(jdm, { fileName, status: 'published' });
  if (read.problems.length > 0) throw new Error(`${fileName}: ${read.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  return compileRule(read.document);
}

/** Companies for credit-analysis: every flag colour of every table, and the overall verdicts they lead to. */
export function creditInputs(count = 24): Record<string, unknown>[] {
  const random = seededRandom(3001);
  return Array.from({ length: count }, () => ({
    company: {
      type: pick(random, ['INC', 'LTD', 'LLC', 'PLC', 'GMBH']),
      turnover: pick(random, [intBetween(random, 0, 199_999), intBetween(random, 200_000, 1_000_000), intBetween(random, 1_000_001, 9_000_000)]),
      country: pick(random, ['US', 'IE', 'GB', 'CA', 'DE', 'FR', 'CN', 'BR']),
      isEu: pick(random, [true, false]),
    },
  }));
}

/** One solve of the kit stream: which graph, and one of its embedded test inputs. */
export interface KitInput {
  graph: number;
  input: unknown;
}

export function kitInputs(graphs: readonly JdmGraph[]): KitInput[] {
  return graphs.flatMap((g, graph) => (g.jdm.tests ?? []).map((t) => ({ graph, input: t.input })));
}

/** Verdict over the kit stream: each input solved by its graph, synchronously, at the kit's instant. */
export function verdictKitContender(graphs: readonly JdmGraph[]): Contender {
  const compiled = graphs.map((g) => compileJdm(g.jdm, g.file));
  const options = { now: Date.parse(KIT_NOW) };
  const solve = (k: unknown) => solveSync(compiled[(k as KitInput).graph], (k as KitInput).input, options);
  return { engine: 'verdict', label: 'Verdict', answer: (k) => Promise.resolve(fromVerdict(solve(k))), sync: solve };
}

/** zen-engine over the kit stream (its clock mocked to the kit's instant by zenAtKitInstant). */
export function zenKitContender(graphs: readonly JdmGraph[]): Contender {
  const decisions: ZenDecision[] = graphs.map((g) => zen().createDecision(g.jdm));
  const evaluate = (k: unknown) => decisions[(k as KitInput).graph].evaluate((k as KitInput).input);
  return { ...zenContender(decisions[0], 'single'), answer: async (k) => fromZen((await evaluate(k)).result, 'single'), async: evaluate };
}

/** zen reads its mocked clock from the environment (as in zen's own harness); set before its first evaluation. */
export function zenAtKitInstant(): void {
  process.env.__ZEN_MOCK_UTC_TIME = KIT_NOW;
}

interface ScenarioFigures {
  verdict: number | null;
  zen: number | null;
  ratio: number | null;
  /** CPU time per solve of the whole process (µs), and zen's over Verdict's (above 1: Verdict ahead). */
  cpu?: { verdictUs: number; zenUs: number; ratio: number | null };
}

/** The race's figures, plus CPU per solve of the two contenders that agreed (Verdict at its first level, zen at 16). */
async function figures(ctx: BenchContext, outcome: Awaited<ReturnType<typeof race>>, contenders: (Contender | undefined)[], inputs: readonly unknown[]): Promise<ScenarioFigures> {
  const best = outcome.best;
  const out: ScenarioFigures = { verdict: best.verdict ?? null, zen: best.zen ?? null, ratio: ratio(best.verdict, best.zen) };
  const [verdict, peer] = contenders;
  if (!outcome.agreed || !verdict || !peer) return out;
  const ms = ctx.quick ? 200 : 2000;
  const n = inputs.length;
  const verdictUs = await measureCpuPerOp((i) => (verdict.sync ?? verdict.async!)(inputs[i % n]), verdict.sync ? 1 : (verdict.concurrency ?? [1])[0], ms);
  const zenUs = await measureCpuPerOp((i) => peer.async!(inputs[i % n]), QUICK_MAX_IN_FLIGHT, ms);
  out.cpu = { verdictUs: round(verdictUs), zenUs: round(zenUs), ratio: ratio(zenUs, verdictUs) };
  ctx.log(`    CPU per solve: Verdict ${round(verdictUs)} µs, zen ${round(zenUs)} µs`);
  return out;
}

function round(us: number): number {
  return us >= 100 ? Math.round(us) : Math.round(us * 100) / 100;
}

async function zen8k(ctx: BenchContext, result: CaseResult): Promise<Record<string, ScenarioFigures> | undefined> {
  const file = zen8kPath(ctx);
  if (!existsSync(file)) {
    result.status = 'partial';
    result.notes.push(`${file} not found: zen's 8k decision is not part of this repository; its scenarios skipped`);
    return undefined;
  }
  const jdm = readJdmFile(file);
  let compiled: CompiledRule | undefined;
  let decision: ZenDecision | undefined;
  const out: Record<string, ScenarioFigures> = {};
  for (const [name, inputs] of [['8k early', earlyInputs()], ['8k late', lateInputs()]] as const) {
    const contenders = [
      tryBuild(result, `Verdict (${name})`, () => verdictContender((compiled ??= compileJdm(jdm, '8k.json')), {})),
      tryBuild(result, `zen (${name})`, () => zenContender((decision ??= zen().createDecision(jdm)), 'single')),
    ];
    const outcome = await race(ctx, result, name, contenders, inputs);
    out[name === '8k early' ? 'early8k' : 'late8k'] = await figures(ctx, outcome, contenders, inputs);
  }
  return out;
}

async function creditAnalysis(ctx: BenchContext, result: CaseResult): Promise<ScenarioFigures> {
  const jdm = readJdmFile(creditAnalysisPath(ctx.repoRoot));
  // The function node runs in the script workers (isolated-vm in child processes), as complex-rule scripts do.
  const sandbox = createScriptSandbox({ maxIsolates: 1 });
  try {
    const verdict = tryBuild(result, 'Verdict (credit-analysis)', () => {
      const contender = verdictContender(compileJdm(jdm, 'credit-analysis.json'), { sandbox });
      // Verdict waits on its script workers as zen waits on its thread pool: both get one and 16 in flight.
      return { ...contender, concurrency: [1, 16] };
    });
    const contenders = [verdict, tryBuild(result, 'zen (credit-analysis)', () => zenContender(zen().createDecision(jdm), 'single'))];
    const outcome = await race(ctx, result, 'credit-analysis', contenders, creditInputs());
    return await figures(ctx, outcome, contenders, creditInputs());
  } finally {
    await sandbox.dispose();
  }
}

export const engineJdm: BenchCase = {
  id: 'engine-jdm',
  title: '(i) JDM decision graphs (zen 8k, credit-analysis, the kit)',
  key: 'engine.jdm',
  async run(ctx, result) {
    zenAtKitInstant();
    const eightK = await zen8k(ctx, result);
    const credit = await creditAnalysis(ctx, result);
    const { graphs, withFunctions } = kitTableGraphs(ctx.repoRoot);
    result.notes.push(
      `kit: ${graphs.length} graphs with decision tables, each embedded test input in turn; left out: ` +
        [...Object.entries(KIT_EXCLUDED).map(([f, why]) => `${f} (${why})`), ...withFunctions.map((f) => `${f} (function node: asynchronous, see credit-analysis)`)].join(', '),
    );
    // 79 graphs in turn are 79 sets of closures for the JIT to warm: each engine gets at least a second of
    // warm-up on this stream, half in --quick (100 ms left Verdict's figure at a fifth of its steady rate).
    const warmupMs = Math.max(ctx.timing.warmupMs, ctx.quick ? KIT_WARMUP_MS / 2 : KIT_WARMUP_MS);
    const kitCtx: BenchContext = { ...ctx, timing: { ...ctx.timing, warmupMs } };
    const kitContenders = [tryBuild(result, 'Verdict (kit)', () => verdictKitContender(graphs)), tryBuild(result, 'zen (kit)', () => zenKitContender(graphs))];
    const kitOutcome = await race(kitCtx, result, 'kit', kitContenders, kitInputs(graphs));
    const kit = { ...(await figures(ctx, kitOutcome, kitContenders, kitInputs(graphs))), graphs: graphs.length, inputs: kitInputs(graphs).length };
    const headline = [eightK?.early8k, eightK?.late8k, credit, kit].filter((f): f is ScenarioFigures => f !== undefined);
    const geomean = (values: (number | null)[]): number | null => {
      let logSum = 0;
      for (const v of values) {
        if (!v) return null;
        logSum += Math.log(v);
      }
      return Math.exp(logSum / values.length);
    };
    const verdict = geomean(headline.map((f) => f.verdict));
    const zenBest = geomean(headline.map((f) => f.zen));
    const cpuRatio = geomean(headline.map((f) => f.cpu?.ratio ?? null));
    result.notes.push(
      'engine.jdm.{verdict,zen,ratio} are geometric means over the 8k early, 8k late, credit-analysis and kit scenarios; ' +
        `cpuRatio is the geometric mean of zen's CPU per solve over Verdict's (whole process, load-independent): ${cpuRatio === null ? '–' : cpuRatio.toFixed(2)}`,
    );
    result.summary = { verdict, zen: zenBest, ratio: ratio(verdict, zenBest), cpuRatio: cpuRatio === null ? null : Math.round(cpuRatio * 100) / 100, ...eightK, creditAnalysis: credit, kit };
  },
};
