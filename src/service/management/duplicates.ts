// Duplicate rows of a decision table: active rows that test exactly the same conditions (every condition column,
// operator and value, and the same time validity). Such rows shadow each other under FIRST_MATCH and answer twice
// under STANDARD; when their results differ too, the table contradicts itself.
import { normaliseOperator } from '../../rules/operators.ts';
import { isObject } from './documents.ts';

export interface DuplicateGroup {
  /** 0-based row indexes, ascending. */
  rows: number[];
  /** True when the rows also give the same results (a plain repetition); false when they contradict each other. */
  sameResults: boolean;
}

/** A key that is equal for equal JSON values whatever the key order of their objects. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function conditionKey(cell: unknown): string {
  if (!isObject(cell) || !isObject(cell.scalarCondition)) return 'anything';
  const condition = cell.scalarCondition;
  const operator = normaliseOperator(condition.operator) ?? String(condition.operator);
  if (operator === 'anything' || operator === 'ELSE' || operator === 'isNull' || operator === 'isNotNull') return operator;
  const value = operator === 'function' ? (condition.stringValue ?? condition.value) : condition.value;
  return `${operator} ${String(condition.type ?? 'general')} ${canonical(value)}`;
}

function resultKey(cell: unknown): string {
  if (!isObject(cell) || !isObject(cell.outputScalarValue)) return '';
  const output = cell.outputScalarValue;
  return canonical(output.stringValue ?? output.value);
}

export function findDuplicateRows(decisionTable: unknown): DuplicateGroup[] {
  if (!isObject(decisionTable) || !Array.isArray(decisionTable.columns) || !Array.isArray(decisionTable.rows)) return [];
  const columns = decisionTable.columns.filter(isObject);
  const conditionColumns = columns.filter((c) => c.type === 'input').map((c) => String(c.columnId));
  const resultColumns = columns.filter((c) => c.type !== 'input').map((c) => String(c.columnId));
  const groups = new Map<string, Array<{ row: number; results: string }>>();
  decisionTable.rows.forEach((row, index) => {
    if (!isObject(row) || row.active === false || !Array.isArray(row.cells)) return;
    const cells = new Map(row.cells.filter(isObject).map((cell) => [String(cell.column), cell]));
    const key = JSON.stringify([conditionColumns.map((id) => conditionKey(cells.get(id))), canonical(row.timeValidation ?? null)]);
    const results = JSON.stringify(resultColumns.map((id) => resultKey(cells.get(id))));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push({ row: index, results });
  });
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => ({ rows: group.map((g) => g.row), sameResults: group.every((g) => g.results === group[0]!.results) }));
}
