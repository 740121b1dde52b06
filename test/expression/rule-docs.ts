// Small builders for rule documents in the stored (DecisionRules export) format, for the expression tests.

export interface Column {
  id: string;
  kind: 'input' | 'output' | 'calc';
  /** input path, output path or calc variable */
  target: string;
  alias?: string;
}

/** A function (expression) cell as newer editors store it: stringValue plus a value. */
export function fx(stringValue: string, value: unknown = stringValue): Record<string, unknown> {
  return { type: 'function', stringValue, value };
}

/** A function cell from an old export: the stored AST only. */
export function ast(value: unknown): Record<string, unknown> {
  return { type: 'function', value };
}

export function when(operator: string, value: unknown = ''): Record<string, unknown> {
  return { operator, value, type: 'general' };
}

export function whenFx(stringValue: string | undefined, value: unknown = stringValue): Record<string, unknown> {
  const cell: Record<string, unknown> = { operator: 'function', type: 'function', value };
  if (stringValue !== undefined) cell.stringValue = stringValue;
  return cell;
}

export function table(spec: {
  name: string;
  alias?: string;
  version?: number;
  columns: Column[];
  rows: Record<string, unknown>[];
  variables?: Record<string, unknown>;
}): Record<string, unknown> {
  const columns = spec.columns.map((c) => {
    const base: Record<string, unknown> = { columnId: c.id, type: c.kind, alias: c.alias ?? c.id };
    if (c.kind === 'input') base.condition = { type: 'simple', name: c.id, definition: { content: c.target, type: 'INPUT_VARIABLE', valid: true } };
    else if (c.kind === 'output') base.columnOutput = { type: 'simple', name: c.id, outputVariable: c.target };
    else base.calculation = { name: c.id, variable: c.target };
    return base;
  });
  const kinds = new Map(spec.columns.map((c) => [c.id, c.kind]));
  const rows = spec.rows.map((row) => ({
    active: true,
    cells: Object.entries(row).map(([column, content]) =>
      kinds.get(column) === 'input'
        ? { column, type: 'input', scalarCondition: content }
        : { column, type: kinds.get(column), outputScalarValue: content },
    ),
  }));
  const doc: Record<string, unknown> = {
    type: 'decision-table',
    name: spec.name,
    status: 'published',
    version: spec.version ?? 1,
    inputSchema: {},
    outputSchema: {},
    decisionTable: { columns, rows },
    userVariables: Object.entries(spec.variables ?? {}).map(([name, value]) => ({ name, value })),
  };
  if (spec.alias) doc.ruleAlias = spec.alias;
  return doc;
}

/** The Plant Items table of the SOLVE examples (modelled on the documentation's Solve_Example). */
export function plantItems(version = 1): Record<string, unknown> {
  const item = (group: string, name: string, price: number, available: boolean): Record<string, unknown> => ({
    g: when('=', group),
    n: fx(name),
    p: fx(String(price)),
    a: fx(String(available)),
  });
  const rows =
    version === 1
      ? [item('plant', 'Monstera', 460, true), item('plant', 'Begonia', 590, false), item('plant', 'Maranta', 390, true), item('book', 'Plant Lovers', 470, true)]
      : [item('plant', 'Ficus', 100, true)];
  return table({
    name: 'Plant Items',
    alias: 'plant-items-example',
    version,
    columns: [
      { id: 'g', kind: 'input', target: 'group' },
      { id: 'n', kind: 'output', target: 'name' },
      { id: 'p', kind: 'output', target: 'price' },
      { id: 'a', kind: 'output', target: 'available' },
    ],
    rows,
  });
}
