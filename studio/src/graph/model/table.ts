// A decision graph's table node in the table designer's grid: the JDM table content (inputs, outputs, rules of
// ZEN text keyed by column id) read into the grid's document shape (studio/src/designer/model/table.ts: columns
// with ids, rows of cells matched by column id) and written back. Each cell's value is its ZEN text, so the grid's
// row and column operations (insert, move, delete, add a column) work unchanged; the JDM fields the grid does not
// edit (`_id`, `_description`, unknown ones) ride along on each column and row and are written back as they were.
import { cellValueOf, columnBinding, columnKind, columnName, insertRows, setCellValue, tableOf } from '../../designer/model/table.ts';
import type { Column, Row, Rule } from '../../designer/model/table.ts';
import { cellKey } from '../../designer/model/problems.ts';
import type { ProblemIndex } from '../../designer/model/problems.ts';
import type { TraceView } from '../../designer/model/trace.ts';
import { isRecord } from '../../flow/model/format.ts';
import { newId } from '../../flow/model/graph.ts';
import type { Problem } from '../../flow/model/problems.ts';

/** The JDM content a table node holds (src/rules/decision-graph.ts JdmDecisionTableContent), kept loose. */
export type TableContent = Record<string, any>;

function listOf(value: unknown): Record<string, any>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** A cell's ZEN text: what the cell holds, '' for an empty or a new cell. */
export function cellTextOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** The table content as the grid's document: inputs then outputs, one row per JDM rule. */
export function tableToGrid(content: TableContent): Rule {
  const columns: Column[] = [
    ...listOf(content.inputs).map((input) => ({
      columnId: String(input.id), type: 'input', jdm: input,
      condition: { type: 'simple', name: typeof input.name === 'string' ? input.name : '', definition: { content: typeof input.field === 'string' ? input.field : '', type: 'INPUT_VARIABLE' } },
    })),
    ...listOf(content.outputs).map((output) => ({
      columnId: String(output.id), type: 'output', jdm: output,
      columnOutput: { type: 'simple', name: typeof output.name === 'string' ? output.name : '', outputVariable: typeof output.field === 'string' ? output.field : '' },
    })),
  ];
  const rows: Row[] = listOf(content.rules).map((rule) => ({
    jdm: rule,
    // A rule without a key for a column has no cell for it (and gets none written back unless edited).
    cells: columns.filter((c) => c.columnId in rule).map((c) => ({
      column: c.columnId, type: c.type, [c.type === 'input' ? 'scalarCondition' : 'outputScalarValue']: cellTextOf(rule[c.columnId]),
    })),
  }));
  return { decisionTable: { columns, rows } };
}

/** The JDM column a grid column stands for: its original fields, with the name and field the grid edited. */
function jdmColumn(column: Column): Record<string, any> {
  const original: Record<string, any> = isRecord(column?.jdm) ? column.jdm : {};
  const name = columnName(column);
  const field = columnBinding(column);
  const out: Record<string, any> = { ...original, id: String(column.columnId) };
  if (name !== '' || 'name' in original) out.name = name;
  // An input without a field takes whole expressions in its cells: keep it without one unless one is given.
  if (field !== '' || 'field' in original || columnKind(column) === 'output') out.field = field;
  return out;
}

/** The grid's document written back into the table content; every other field of the content is kept. */
export function gridToTable(content: TableContent, grid: Rule): TableContent {
  const { columns, rows } = tableOf(grid);
  const inputs = columns.filter((c: Column) => columnKind(c) === 'input');
  const outputs = columns.filter((c: Column) => columnKind(c) !== 'input');
  const rules = rows.map((row: Row) => {
    const original: Record<string, any> = isRecord(row?.jdm) ? row.jdm : {};
    // `_id`, `_description` and the like stay; the column keys are written from the cells.
    const rule: Record<string, any> = {};
    for (const [key, value] of Object.entries(original)) if (key.startsWith('_')) rule[key] = value;
    if (typeof rule._id !== 'string') rule._id = newId('uuid');
    for (const column of columns) {
      const cell = Array.isArray(row?.cells) ? row.cells.find((c: any) => String(c?.column) === String(column.columnId)) : undefined;
      if (!cell) continue;
      rule[String(column.columnId)] = cellTextOf(cell[columnKind(column) === 'input' ? 'scalarCondition' : 'outputScalarValue']);
    }
    return rule;
  });
  return { ...content, inputs: inputs.map(jdmColumn), outputs: outputs.map(jdmColumn), rules };
}

/**
 * The server's problems in a table node (paths from inside the node: `content.rules[2].<column id>`,
 * `content.inputs[1].field`) on the grid's cells, rows and columns.
 */
export function tableProblems(content: TableContent, problems: readonly Problem[], pathInNode: (path: string) => string): ProblemIndex {
  const index: ProblemIndex = { cells: new Map(), rows: new Map(), columns: new Map(), other: [], count: problems.length };
  const inputs = listOf(content.inputs);
  const ids = [...inputs, ...listOf(content.outputs)].map((c) => String(c.id));
  const push = <K>(map: Map<K, string[]>, key: K, message: string) => map.set(key, [...(map.get(key) ?? []), message]);
  for (const problem of problems) {
    const path = pathInNode(problem.path);
    const rule = /^content\.rules\[(\d+)\](?:\.([^.[\]]+)|\[["']([^"']+)["']\])?/.exec(path);
    const column = /^content\.(inputs|outputs)\[(\d+)\]/.exec(path);
    if (rule) {
      const at = ids.indexOf(rule[2] ?? rule[3] ?? '');
      if (at >= 0) push(index.cells, cellKey(Number(rule[1]), at), problem.message);
      else push(index.rows, Number(rule[1]), problem.message);
    } else if (column) {
      push(index.columns, Number(column[2]) + (column[1] === 'outputs' ? inputs.length : 0), problem.message);
    } else {
      index.other.push(problem);
    }
  }
  return index;
}

/**
 * The rows a bench run matched in a table node, from its trace data (zen's: `{index, rule: {_id}}` for the first
 * hit, an array of those for collect): by the rule's `_id` where it has one, else by position.
 */
export function matchedRows(content: TableContent, traceData: unknown): TraceView {
  const rules = listOf(content.rules);
  const matched = new Set<number>();
  for (const hit of Array.isArray(traceData) ? traceData : [traceData]) {
    if (!isRecord(hit)) continue;
    const id = isRecord(hit.rule) ? hit.rule._id : undefined;
    const byId = typeof id === 'string' ? rules.findIndex((r) => r._id === id) : -1;
    if (byId >= 0) matched.add(byId);
    else if (typeof hit.index === 'number' && hit.index >= 0 && hit.index < rules.length) matched.add(hit.index);
  }
  // Which rows were evaluated the trace does not say (a first hit stops early): only the matched ones are claimed.
  return { evaluated: new Set(matched), matched, conditions: new Map() };
}

/** The texts of a block of cells (grid positions), for the clipboard. */
export function blockText(grid: Rule, range: { top: number; bottom: number; left: number; right: number }): string[][] {
  const { columns, rows } = tableOf(grid);
  const out: string[][] = [];
  for (let r = range.top; r <= range.bottom && r < rows.length; r++) {
    const line: string[] = [];
    for (let c = range.left; c <= range.right && c < columns.length; c++) line.push(cellTextOf(cellValueOf(rows[r], columns[c])));
    out.push(line);
  }
  return out;
}

/** The grid with `texts` written from `at` (rows added below the last as needed; text right of the last column dropped). */
export function writeBlock(grid: Rule, at: { row: number; col: number }, texts: readonly (readonly string[])[], fill = false): Rule {
  let next = grid;
  const { columns } = tableOf(grid);
  const missing = at.row + texts.length - tableOf(grid).rows.length;
  if (missing > 0) next = insertRows(next, tableOf(next).rows.length, missing);
  texts.forEach((line, i) => line.forEach((text, j) => {
    if (at.col + j < columns.length) next = setCellValue(next, at.row + i, at.col + j, fill ? '' : text);
  }));
  return next;
}
