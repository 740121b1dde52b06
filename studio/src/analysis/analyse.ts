// The decision table analysis of the unsaved draft, in the browser (docs/decisions/studio-analysis.md): the
// engine's own validation, table compiler and analysis (src/engine/analysis), so the Studio shows exactly what
// `verdict lint` and GET /api/tools/analysis report for the same document once saved.
import { analyseDecisionTable } from '../../../src/engine/analysis/index.ts';
import type { AnalysisReport, Finding } from '../../../src/engine/analysis/index.ts';
import { compileDecisionTable } from '../../../src/engine/table/compile.ts';
import { readRule } from '../../../src/rules/validate.ts';
import type { RuleDocument } from '../api/types.ts';

export type { AnalysisReport, Finding };

export type DraftAnalysis =
  | { kind: 'report'; report: AnalysisReport; ms: number }
  /** The draft does not compile yet (a cell being typed, a column without binding): nothing to analyse. */
  | { kind: 'invalid'; message: string };

/**
 * Analyses a draft table. The time zone is UTC: the Studio does not know the server's, and only date cells relative
 * to "now" depend on it (those stay undecided in the analysis anyway).
 */
export function analyseDraft(rule: RuleDocument): DraftAnalysis {
  const { problems, model } = readRule(rule);
  if (model === undefined) return { kind: 'invalid', message: `${problems.length} problem${problems.length === 1 ? '' : 's'} to fix first (${problems[0]!.path}: ${problems[0]!.message})` };
  if (model.type !== 'decision-table') return { kind: 'invalid', message: `a ${model.type} is not a decision table` };
  const started = performance.now();
  try {
    const compiled = compileDecisionTable(model, { timeZone: 'UTC', arithmeticAssociativity: 'left' });
    return { kind: 'report', report: analyseDecisionTable(compiled, { document: rule }), ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { kind: 'invalid', message: err instanceof Error ? err.message : String(err) };
  }
}

