// Shared by the XLSX suites: every decision table among the project's fixtures and DecisionRules' public
// fixtures (read where they are, never copied), a canonical form for "the same rule, ids aside", and inputs that
// reach each row of a table.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expressionText } from '../../src/engine/expression/stored-text.ts';
import { normaliseOperator, operatorSpec } from '../../src/rules/operators.ts';
import { validValuesOf } from '../../src/rules/valid-values.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED_FIXTURES = join(ROOT, '../shared/fixtures/decisionrules');
const FIXTURE_DIRS = [join(ROOT, 'test/fixtures'), join(ROOT, 'examples'), SHARED_FIXTURES];

type Json = Record<string, any>;

function* jsonFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsonFiles(path);
    else if (entry.name.endsWith('.json')) yield path;
  }
}

function collect(value: unknown, out: Json[]): void {
  if (Array.isArray(value)) value.forEach((v) => collect(v, out));
  else if (value !== null && typeof value === 'object') {
    const doc = value as Json;
    if (doc.type === 'decision-table' && doc.decisionTable) out.push(doc);
    else Object.values(doc).forEach((v) => collect(v, out));
  }
}

/** Every decision table of the fixtures, named by file and rule name. */
export function fixtureTables(): Array<{ label: string; document: Json }> {
  const tables: Array<{ label: string; document: Json }> = [];
  for (const dir of FIXTURE_DIRS) {
    if (!existsSync(dir)) continue;
    for (const file of jsonFiles(dir)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        continue;
      }
      const found: Json[] = [];
      collect(parsed, found);
      for (const document of found) tables.push({ label: `${relative(ROOT, file)} ${document.name}`, document });
    }
  }
  return tables;
}

function bindingOf(column: Json): string | undefined {
  if (column.type === 'input') return column.condition?.definition?.content ?? column.condition?.inputVariable;
  if (column.type === 'calc') return column.calculation?.variable;
  return column.columnOutput?.outputVariable;
}

function payloadName(column: Json): string | undefined {
  return (column.condition ?? column.calculation ?? column.columnOutput)?.name;
}

function isAst(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'functionName');
}

function canonicalCell(column: Json, cell: Json): unknown {
  if (column.type === 'input') {
    const c = cell.scalarCondition ?? {};
    if (c.operator === 'function' || c.type === 'function') return { fn: expressionText(c) };
    const operator = normaliseOperator(c.operator) ?? c.operator;
    const shape = operatorSpec(operator)?.value;
    return { operator, type: c.type ?? 'general', value: shape === 'none' && c.value === undefined ? '' : c.value };
  }
  const v = cell.outputScalarValue ?? {};
  const type = typeof v.type === 'string' ? v.type.toLowerCase() : undefined;
  if (type === 'function' || (type === undefined && isAst(v.value))) return { fn: expressionText(v) };
  return { common: v.value ?? '' };
}

/**
 * The rule as XLSX carries it: ids, storage and UI bookkeeping aside (docs/xlsx.md "What a file cannot carry"),
 * legacy spellings read as the engine reads them (an untyped cell, a condition's inputVariable).
 */
export function canonical(doc: Json, options: { aliases?: boolean } = {}): Json {
  const columns: Json[] = doc.decisionTable.columns;
  return {
    type: doc.type,
    name: doc.name,
    ruleAlias: doc.ruleAlias || undefined,
    ruleId: doc.ruleId ?? doc.baseId,
    version: doc.version ?? 1,
    status: doc.status,
    description: doc.description,
    tags: doc.tags,
    createdIn: doc.createdIn,
    auditLog: doc.auditLog,
    inputSchema: doc.inputSchema,
    outputSchema: doc.outputSchema,
    userVariables: (doc.userVariables ?? []).filter((v: Json) => typeof v?.name === 'string' && v.name !== '').map((v: Json) => ({ name: v.name, value: v.value })),
    columns: columns.map((c) => ({
      type: c.type,
      ...(options.aliases === false ? {} : { alias: c.alias }),
      name: payloadName(c) ?? '',
      binding: bindingOf(c) ?? '',
      validValues: Array.isArray(c.validValues) && c.validValues.length > 0 ? validValuesOf(c) : undefined,
    })),
    rows: doc.decisionTable.rows.map((row: Json) => {
      const byColumn = new Map((row.cells ?? []).map((cell: Json) => [String(cell.column), cell]));
      return {
        active: row.active !== false,
        timeValidation: row.timeValidation,
        cells: columns.map((c) => {
          const cell = byColumn.get(String(c.columnId)) as Json | undefined;
          return cell ? canonicalCell(c, cell) : null;
        }),
      };
    }),
  };
}

/** Inputs that reach each row: every condition column's path set to the values its cells test, row by row. */
export function sampleInputs(doc: Json): unknown[] {
  const columns: Json[] = doc.decisionTable.columns;
  const variables = new Map<string, unknown>((doc.userVariables ?? []).filter((v: Json) => typeof v?.name === 'string').map((v: Json) => [v.name, v.value]));
  const inputs: unknown[] = [{}];
  for (const row of doc.decisionTable.rows as Json[]) {
    const input: Json = {};
    for (const cell of row.cells ?? []) {
      const column = columns.find((c) => String(c.columnId) === String(cell.column));
      const path = column?.type === 'input' ? bindingOf(column) : undefined;
      const value = cell.scalarCondition?.value;
      if (path === undefined || value === undefined || typeof value === 'object' && !Array.isArray(value)) continue;
      let sample = Array.isArray(value) ? value[0] : value;
      const reference = typeof sample === 'string' ? /^\{(.*)\}$/.exec(sample) : null;
      if (reference) {
        if (!variables.has(reference[1]!)) continue;
        const held = variables.get(reference[1]!);
        sample = Array.isArray(held) ? held[0] : held;
      }
      const segments = path.split('.');
      let at = input;
      for (const s of segments.slice(0, -1)) at = at[s] = typeof at[s] === 'object' && at[s] !== null ? at[s] : {};
      at[segments.at(-1)!] = typeof sample === 'string' && /^-?\d+(\.\d+)?$/.test(sample) ? Number(sample) : sample;
    }
    inputs.push(input);
  }
  return inputs;
}

/** A table with every kind of cell the format knows. */
export function edgeTable(): Json {
  const col = (columnId: string, alias: string, type: string, payload: Record<string, unknown>, validValues?: unknown[]) => ({
    columnId, alias, type, ...payload, ...(validValues ? { validValues } : {}),
  });
  return {
    type: 'decision-table', name: 'Edge Cases', ruleAlias: 'edge-cases', ruleId: 'edge-1', version: 3, status: 'pending',
    description: 'Every cell form.\nTwo lines.', tags: ['xlsx', 'edge'], createdIn: '2025-01-02T03:04:05.000Z',
    auditLog: { active: false, debug: { active: false }, ttl: 14 },
    inputSchema: { segment: {}, age: {}, since: {}, member: {}, codes: {} }, outputSchema: { price: {}, label: {}, meta: {} },
    userVariables: [
      { name: 'Base', value: 30 }, { name: 'Promo', value: 'SUMMER' }, { name: 'Flag', value: true },
      { name: 'Codes', value: ['A', 'B'] }, { name: 'Shape', value: { a: 1 } }, { name: 'Text', value: '30' },
    ],
    decisionTable: {
      columns: [
        col('c1', 'segment', 'input', { condition: { type: 'simple', name: 'Segment', definition: { content: 'segment', type: 'INPUT_VARIABLE' } } },
          [{ type: 'GENERAL', value: 'gold' }, { type: 'GENERAL', value: 'silver' }]),
        col('c2', 'age', 'input', { condition: { type: 'simple', name: 'Age', definition: { content: 'age', type: 'INPUT_VARIABLE' } } },
          [{ type: 'GENERAL', value: 42 }, { type: 'GENERAL', value: 18 }, { type: 'GENERAL', value: 65 }, { type: 'GENERAL', value: 1 }, { type: 'GENERAL', value: 2 }]),
        col('c3', 'since', 'input', { condition: { type: 'simple', name: 'Since', definition: { content: 'since', type: 'INPUT_VARIABLE' } } }),
        col('c4', 'discount', 'calc', { calculation: { name: 'Discount', variable: 'discount' } }),
        col('c5', 'price', 'output', { columnOutput: { type: 'simple', name: 'Price', outputVariable: 'price' } }),
        col('c6', 'label', 'output', { columnOutput: { type: 'simple', name: 'Label', outputVariable: 'label' } }),
      ],
      rows: [
        { active: true, cells: [
          { column: 'c1', type: 'input', scalarCondition: { operator: 'IN', value: ['gold', 'silver'], type: 'general' } },
          { column: 'c2', type: 'input', scalarCondition: { operator: 'between', value: ['18', '65'], type: 'general' } },
          { column: 'c3', type: 'input', scalarCondition: { operator: '>=', value: '2024-05-15 01:25 +00:00', type: 'date' } },
          { column: 'c4', type: 'calc', outputScalarValue: { type: 'function', value: '{Base}+5', stringValue: '{Base}+5' } },
          { column: 'c5', type: 'output', outputScalarValue: { type: 'function', value: '{discount}*2', stringValue: '{discount}*2' } },
          { column: 'c6', type: 'output', outputScalarValue: { type: 'common', value: 'adult {Promo}' } },
        ] },
        { active: false, timeValidation: { from: '2025-01-01 00:00 +01:00', to: '2025-12-31 23:59 +01:00' }, cells: [
          { column: 'c1', type: 'input', scalarCondition: { operator: 'IN', value: ['a|b', 'c'], type: 'general' } },
          { column: 'c2', type: 'input', scalarCondition: { operator: '=', value: 42, type: 'general' } },
          { column: 'c3', type: 'input', scalarCondition: { operator: 'anything', value: '', type: 'general' } },
          { column: 'c4', type: 'calc', outputScalarValue: { type: 'function', value: '0', stringValue: '0' } },
          { column: 'c5', type: 'output', outputScalarValue: { type: 'common', value: 12.5 } },
          { column: 'c6', type: 'output', outputScalarValue: { type: 'common', value: '=not a formula' } },
        ] },
        { active: true, cells: [
          { column: 'c1', type: 'input', scalarCondition: { operator: 'ELSE', value: '', type: 'general' } },
          { column: 'c2', type: 'input', scalarCondition: { operator: 'IN', value: [1, 2], type: 'general' } },
          { column: 'c3', type: 'input', scalarCondition: { operator: 'function', type: 'function', value: 'LESS({age}, 3)', stringValue: 'LESS({age}, 3)' } },
          { column: 'c5', type: 'output', outputScalarValue: { type: 'common', value: true } },
          { column: 'c6', type: 'output', outputScalarValue: { type: 'common', value: '' } },
        ] },
      ],
    },
  };
}

