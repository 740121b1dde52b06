// Shared by the analysis tests: tables in the stored format, and the rows the engine really matches for an input
// (EVALUATE_ALL marks each active row's match), so every finding can be checked against evaluation.
import { compileRule } from '../../src/engine/index.ts';
import type { CompiledRule } from '../../src/engine/types.ts';
import { analyseDecisionTable, type AnalysisOptions, type AnalysisReport, type Finding } from '../../src/engine/analysis/index.ts';
import { cond, common, run, tableDoc, type ColumnSpec, type RowSpec } from '../engine/table-helpers.ts';

export { cond, common };

export interface Table {
  doc: Record<string, unknown>;
  rule: CompiledRule;
  /** Document positions of the active rows, in order (EVALUATE_ALL lists exactly these). */
  active: number[];
}

/** A table over condition columns `inputs` (id = input path unless given as [id, path]) and one result column `out`. */
export function table(inputs: Array<string | [string, string]>, rows: Array<{ when: Record<string, unknown>; out?: unknown; active?: boolean; timeValidation?: unknown }>): Table {
  const columns: ColumnSpec[] = inputs.map((input) => {
    const [id, target] = typeof input === 'string' ? [input, input] : input;
    return { id, kind: 'input', target };
  });
  columns.push({ id: 'out', kind: 'output', target: 'out' });
  const specs: RowSpec[] = rows.map((row, i) => ({
    cells: { ...row.when, out: common(row.out === undefined ? `r${i}` : row.out) },
    ...(row.active === undefined ? {} : { active: row.active }),
    ...(row.timeValidation === undefined ? {} : { timeValidation: row.timeValidation }),
  }));
  const doc = tableDoc({ columns, rows: specs });
  const active = rows.flatMap((row, i) => (row.active === false ? [] : [i]));
  return { doc, rule: compileRule(doc), active };
}

/** Document positions of the rows that match `input`, as the engine evaluates them (ELSE included). */
export function matchedRows(t: Table, input: unknown): number[] {
  const result = run(t.rule, input, { strategy: 'EVALUATE_ALL' }).result as Array<Record<string, unknown>>;
  return result.flatMap((entry, k) => (entry._match === true ? [t.active[k]!] : []));
}

export function analyse(t: Table, options?: AnalysisOptions): AnalysisReport {
  return analyseDecisionTable(t.rule, options);
}

export function ofKind(report: AnalysisReport, kind: Finding['kind']): Finding[] {
  return report.findings.filter((finding) => finding.kind === kind);
}
