// A server problem in words for the Problems list of the rule page: a decision table's cell path
// (`decisionTable.rows[3].cells[1].outputScalarValue.stringValue`) becomes "Row 4, column Fee (result)", found
// through the cell's column id as the grid places it (designer/model/problems.ts). The raw path stays beside it
// for experts and for support; other rule types keep their path, as the only place there is.
import { columnId, tableOf } from '../designer/model/table.ts';
import type { Column } from '../designer/model/table.ts';
import { columnWords } from '../designer/model/problems.ts';
import type { RuleDocument } from '../api/types.ts';

export interface ProblemText {
  /** Where, in the author's words ("Row 4, column Fee (result)"); undefined when only the path can say it. */
  where?: string;
  message: string;
  path: string;
}

const ROW = /^decisionTable\.rows\[(\d+)\](?:\.cells\[(\d+)\])?/;
const COLUMN = /^decisionTable\.columns\[(\d+)\]/;

export function problemText(rule: RuleDocument, problem: { path: string; message: string }): ProblemText {
  const path = typeof problem.path === 'string' ? problem.path : '';
  const base = { message: problem.message, path };
  if (rule.type !== 'decision-table') return base;
  const at = path.indexOf('decisionTable.');
  const local = at >= 0 ? path.slice(at) : path;
  const { columns, rows } = tableOf(rule);
  const row = ROW.exec(local);
  if (row) {
    const r = Number(row[1]);
    if (row[2] === undefined) return { ...base, where: `Row ${r + 1}` };
    const cell = rows[r]?.cells?.[Number(row[2])];
    const column = columns.find((c: Column) => columnId(c) === String(cell?.column));
    return { ...base, where: column ? `Row ${r + 1}, ${columnWords(column)}` : `Row ${r + 1}` };
  }
  const column = COLUMN.exec(local);
  if (column) {
    const c = columns[Number(column[1])];
    if (c) return { ...base, where: columnWords(c).replace(/^c/, 'C') };
  }
  return base;
}
