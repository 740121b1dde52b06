// Table columns between the rule document and the Table sheet's four header rows. Every column needs an alias in
// the sheet (it is how the Valid Values sheet and a re-import find the column); one that has none gets
// `col-<n>`, the same one each time, so exporting a rule twice names its columns alike.
type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Each column's alias: its own, else `col-<position>` (suffixed while another column uses it). */
export function columnAliases(columns: readonly Json[]): string[] {
  const taken = new Set(columns.map((c) => c.alias).filter((a): a is string => typeof a === 'string' && a !== ''));
  return columns.map((column, i) => {
    if (typeof column.alias === 'string' && column.alias !== '') return column.alias;
    let alias = `col-${i + 1}`;
    for (let n = 2; taken.has(alias); n++) alias = `col-${i + 1}-${n}`;
    taken.add(alias);
    return alias;
  });
}

/** The Column Title and Column Value of a column: its name and the path it reads or writes. */
export function columnBinding(column: Json): { title: string; value: string } {
  const payload = column.type === 'input' ? column.condition : column.type === 'calc' ? column.calculation : column.columnOutput;
  if (!isObject(payload)) return { title: '', value: '' };
  const title = typeof payload.name === 'string' ? payload.name : '';
  if (column.type === 'input') {
    const definition = payload.definition;
    const path = isObject(definition) && typeof definition.content === 'string' ? definition.content : payload.inputVariable;
    return { title, value: typeof path === 'string' ? path : '' };
  }
  const path = column.type === 'calc' ? payload.variable : payload.outputVariable;
  return { title, value: typeof path === 'string' ? path : '' };
}

/**
 * A column from its sheet headers. `base`, the same column (by alias) in the rule the file goes back into, lends
 * what the sheet does not carry: the column id, the form of its binding, and its lack of an alias.
 */
export function buildColumn(kind: 'input' | 'calc' | 'output', alias: string, title: string, value: string, base: Json | undefined, generatedAlias: string | undefined): Json {
  const keepsNoAlias = base !== undefined && (base.alias === undefined || base.alias === '') && alias === generatedAlias;
  if (base !== undefined && base.type === kind) {
    const was = columnBinding(base);
    if (was.title === title && was.value === value) {
      // Unchanged in the sheet: the base column as it was (editor flags included), valid values from the sheet.
      const { validValues: _fromTheSheet, ...same } = structuredClone(base);
      return keepsNoAlias ? same : { ...same, alias };
    }
  }
  const column: Json = { columnId: base?.columnId ?? alias, type: kind };
  if (!keepsNoAlias) column.alias = alias;
  if (kind === 'input') {
    const oldForm = isObject(base?.condition) && base.condition.inputVariable !== undefined && base.condition.definition === undefined;
    column.condition = oldForm
      ? { type: 'simple', name: title, inputVariable: value }
      : { type: 'simple', name: title, definition: { content: value, type: 'INPUT_VARIABLE' } };
  } else if (kind === 'calc') {
    column.calculation = { name: title, variable: value };
  } else {
    column.columnOutput = { type: 'simple', name: title, outputVariable: value };
  }
  return column;
}
