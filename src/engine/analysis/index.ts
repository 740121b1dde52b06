// Static analysis of decision tables (issue 14): see analyse.ts and docs/decisions/analysis-decision-tables.md.
export { analyseDecisionTable } from './analyse.ts';
export { DEFECT_KINDS, FINDING_KINDS, hasDefects } from './report.ts';
export type { AnalysisOptions, AnalysisReport, Finding, FindingKind, Undecided, UndecidedReason } from './report.ts';
export { cellsOutsideValidValues } from './valid-values.ts';
export type { OutsideCell } from './valid-values.ts';
