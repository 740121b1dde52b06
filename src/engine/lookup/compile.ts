// Lookup tables (spec/rule-format.md §3.4, §7, §11 R3 L1-L3): a hash map from primary-key text to the row,
// built once at compile time. A solve is one map lookup plus building the output object.
import { castSimpleValueText } from '../expression/cast.ts';
import type { RuleCompiler } from '../registry.ts';
import { ruleIdentity } from '../rule-identity.ts';
import type { CompiledRule, EvaluationContext, Json, LookupTableAccess, SolveResult } from '../types.ts';
import { keyText } from '../../rules/lookup-table.ts';
import type { LookupColumn } from '../../rules/lookup-table.ts';

interface CompiledRow {
  /** Cells by column alias, with the simple-value cast applied. */
  byAlias: Map<string, unknown>;
}

export const compileLookupTable: RuleCompiler<'lookup-table'> = (table) => {
  const { document, columns, primaryKey } = table;

  const rows = new Map<string, CompiledRow>();
  for (const row of table.rows) {
    const byAlias = new Map<string, unknown>();
    for (const column of columns) byAlias.set(column.alias, castCell(row.cells[column.alias]));
    // The key cell may be absent when the map encoding carries it only as the object key.
    const keyCell = row.cells[primaryKey.alias];
    if (keyCell === undefined || keyCell === null || keyCell === '') byAlias.set(primaryKey.alias, castCell(row.key));
    rows.set(row.key, { byAlias });
  }
  const columnsByName = new Map(columns.map((column) => [column.name, column]));
  const columnsByAlias = new Map(columns.map((column) => [column.alias, column]));
  const valueColumns = columns.filter((column) => column !== primaryKey);

  /** §11 L2: an output column is named by column name first, then by alias. */
  const findColumn = (name: string): LookupColumn | undefined => columnsByName.get(name) ?? columnsByAlias.get(name);
  const findRow = (key: unknown): CompiledRow | undefined => {
    const text = keyText(key);
    return text === undefined ? undefined : rows.get(text);
  };
  const cell = (row: CompiledRow, column: LookupColumn): unknown => copy(row.byAlias.get(column.alias) ?? null);

  /** The expression functions' view (§4.9.7): whole rows keyed by alias, without the primary key. */
  const lookup: LookupTableAccess = {
    lookupValue(key, columnName) {
      const row = findRow(key);
      if (!row) return null;
      if (columnName === undefined) return Object.fromEntries(valueColumns.map((column) => [column.alias, cell(row, column)]));
      const column = findColumn(columnName);
      return column ? cell(row, column) : null;
    },
    lookupExists(key) {
      return findRow(key) !== undefined;
    },
  };

  /** The Solver API's view (§3.4): whole rows keyed by column name, primary key included. */
  const solveValue = (key: unknown, outputColumn: unknown): unknown => {
    const row = findRow(key);
    if (!row) return null;
    const columnName = columnNameOf(outputColumn);
    if (columnName === undefined) return Object.fromEntries(columns.map((column) => [column.name, cell(row, column)]));
    const column = findColumn(columnName);
    return column ? cell(row, column) : null;
  };

  const compiled: CompiledRule = {
    type: 'lookup-table',
    ...ruleIdentity(document),
    async: false,
    dependencies: [],
    lookup,
    evaluate(input: unknown, ctx: EvaluationContext): SolveResult {
      const request = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      const key = request.primaryKey;
      const output =
        ctx.lookupMethod === 'LOOKUP_EXISTS' ? findRow(key) !== undefined : solveValue(key, request.outputColumn);
      const result: SolveResult = { result: [{ output: output as Json }] };
      if (ctx.trace) {
        result.trace = [
          {
            method: ctx.lookupMethod,
            primaryKey: key === undefined ? null : (key as Json),
            found: findRow(key) !== undefined,
            ...(ctx.lookupMethod === 'LOOKUP_VALUE' ? { outputColumn: columnNameOf(request.outputColumn) ?? null } : {}),
          },
        ];
      }
      return result;
    },
  };
  return compiled;
};

/** `outputColumn` as sent by clients: a name; missing, null, "" or `{}` (the model's placeholder) mean the whole row. */
function columnNameOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** §11 L3: cells are stored as text and come out with the simple-value cast of §2.10 (`"29.99"` -> 29.99). */
function castCell(value: unknown): unknown {
  if (value === undefined) return null;
  return typeof value === 'string' ? castSimpleValueText(value) : value;
}

/** Cells cast to objects or arrays are copied per solve, so callers that modify a result cannot change the table. */
function copy(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}
