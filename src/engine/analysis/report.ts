// The analysis report: the JSON `verdict lint --json` prints and GET /api/tools/analysis returns
// (docs/decisions/analysis-decision-tables.md describes every field; keep them stable).

export const FINDING_KINDS = ['unreachable', 'overlap', 'gap', 'contradiction', 'duplicate', 'type', 'valid-value'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** Kinds that make `verdict lint` exit 1: they are defects whatever the author intended. */
export const DEFECT_KINDS: ReadonlySet<FindingKind> = new Set(['unreachable', 'contradiction', 'type']);

export interface Finding {
  kind: FindingKind;
  /**
   * 0-based indexes into `decisionTable.rows` (inactive rows count). unreachable: the row, then the earlier rows
   * that cover it; overlap: the two rows; duplicate: every row of the group; contradiction and type: the rows
   * concerned; valid-value: the row of the cell; gap: empty.
   */
  rows: number[];
  /** columnIds of the condition columns concerned (valid-value: the cell's column, a condition or a result). */
  columns: string[];
  /** An input showing the finding (overlap: both rows match it; gap: no row matches it). */
  example?: Record<string, unknown>;
  message: string;
}

export interface UndecidedReason {
  reason: string;
  rows: number[];
  columns: string[];
}

export interface Undecided {
  /** Rows with a cell the analysis cannot reason about, a time window, or a search that hit its limit. */
  rows: number[];
  /** Condition columns with at least one such cell. */
  columns: string[];
  /** Why, grouped by reason and column. */
  reasons: UndecidedReason[];
}

export interface AnalysisReport {
  findings: Finding[];
  undecided: Undecided;
  /** What the limits left out: overlapping row pairs not listed, and whether more gaps may exist than were listed. */
  omitted: { overlaps: number; gaps: boolean };
}

export interface AnalysisOptions {
  /** Gap regions listed at most (default 10). */
  maxGaps?: number;
  /** Overlapping row pairs listed at most (default 100); the rest are counted in `omitted.overlaps`. */
  maxOverlaps?: number;
  /** Work units (box tests) all searches together may spend (default 20,000,000); beyond it questions stay undecided. */
  budget?: number;
  /**
   * The document the table was compiled from: cells outside their column's valid values become findings of kind
   * `valid-value` (valid values are editor-only, so the compiled table does not carry them).
   */
  document?: unknown;
}

export function hasDefects(report: AnalysisReport): boolean {
  return report.findings.some((finding) => DEFECT_KINDS.has(finding.kind));
}
