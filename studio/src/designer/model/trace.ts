// Reads a bench debug trace (the table engine's RowTraceEntry list, src/engine/table/evaluate.ts) into what
// the grid lights up: matched rows, and per condition cell whether it held. Accepts the list itself or a
// response object carrying it (`trace`, `debugData`, `debug`), and for bulk input the first element's trace.
import { columnId, tableOf } from './table.ts';
import type { Rule } from './table.ts';

export interface ConditionOutcome {
  held: boolean;
  inputProperty?: string;
  inputValue?: unknown;
  value?: unknown;
  error?: string;
  skipped?: boolean;
}

export interface TraceView {
  /** Rows (0-based positions) the solve evaluated. */
  evaluated: Set<number>;
  matched: Set<number>;
  /** Key `row:col`. */
  conditions: Map<string, ConditionOutcome>;
}

function isRowEntry(value: unknown): value is { rowNumber: number; conditions?: unknown[]; evaluationResult?: unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { rowNumber?: unknown }).rowNumber === 'number';
}

function findEntries(trace: unknown, depth = 0): unknown[] | undefined {
  if (depth > 4 || trace === null || trace === undefined) return undefined;
  if (Array.isArray(trace)) {
    if (trace.length === 0) return trace;
    if (trace.some(isRowEntry)) return trace;
    return findEntries(trace[0], depth + 1);
  }
  if (typeof trace === 'object') {
    const o = trace as Record<string, unknown>;
    for (const key of ['trace', 'debugData', 'debug', 'rows']) {
      const found = findEntries(o[key], depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

export function readTrace(rule: Rule, trace: unknown): TraceView | undefined {
  const entries = findEntries(trace);
  if (!entries) return undefined;
  const { columns } = tableOf(rule);
  const columnById = new Map<string, number>();
  columns.forEach((c: unknown, i: number) => columnById.set(columnId(c), i));
  const view: TraceView = { evaluated: new Set(), matched: new Set(), conditions: new Map() };
  for (const entry of entries) {
    if (!isRowEntry(entry)) continue;
    const row = entry.rowNumber - 1;
    view.evaluated.add(row);
    if (entry.evaluationResult === true) view.matched.add(row);
    for (const condition of Array.isArray(entry.conditions) ? entry.conditions : []) {
      if (condition === null || typeof condition !== 'object') continue;
      const c = condition as Record<string, unknown>;
      const col = columnById.get(String(c.columnId));
      if (col === undefined) continue;
      view.conditions.set(`${row}:${col}`, {
        held: c.evaluationResult === true,
        inputProperty: typeof c.inputProperty === 'string' ? c.inputProperty : undefined,
        inputValue: c.inputValue,
        value: c.value,
        error: typeof c.evaluationError === 'string' ? c.evaluationError : undefined,
        skipped: c.skipped === true ? true : undefined,
      });
    }
  }
  return view;
}

/** One line for a condition cell's tooltip: `held: productType = "basic"` style. */
export function describeOutcome(outcome: ConditionOutcome): string {
  const verdict = outcome.skipped ? 'skipped (column excluded)' : outcome.held ? 'held' : 'did not hold';
  const input = outcome.inputProperty ? ` — ${outcome.inputProperty} = ${JSON.stringify(outcome.inputValue) ?? 'missing'}` : '';
  const error = outcome.error ? ` (${outcome.error})` : '';
  return `Condition ${verdict}${input}${error}`;
}
