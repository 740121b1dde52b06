// The rule document as the Studio handles it: the DecisionRules format (spec/rule-format.md), kept loose because
// the Studio preserves every field it does not edit.
export type RuleDocument = Record<string, any>;

export interface TableColumn {
  columnId: string;
  type: 'input' | 'output' | 'calc' | string;
  alias?: string;
  condition?: { type?: string; name?: string; inputVariable?: string; definition?: { content?: string; type?: string } };
  columnOutput?: { type?: string; name?: string; outputVariable?: string };
  calculation?: { name?: string; variable?: string };
  [key: string]: unknown;
}

export interface TableCell {
  column: string;
  type?: string;
  scalarCondition?: { operator?: string; value?: unknown; type?: string; stringValue?: string };
  outputScalarValue?: { type?: string; value?: unknown; stringValue?: string | null };
  [key: string]: unknown;
}

export interface TableRow {
  active?: boolean;
  cells: TableCell[];
  [key: string]: unknown;
}

export interface DecisionTable {
  columns: TableColumn[];
  rows: TableRow[];
}
