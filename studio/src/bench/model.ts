// What the simple bench builds its form from: the leaves of the input model and the inputs condition columns
// read, each marked as a date field when a
// condition column bound to it holds date cells; and the conversion between form values and the input object.
import type { RuleDocument, TableColumn } from '../api/types.ts';
import { tableOf } from '../compare/diff.ts';
import { leafPaths } from '../designer/model/schema.ts';

export interface BenchField {
  path: string;
  kind: 'text' | 'date';
}

export function conditionPath(column: TableColumn): string | undefined {
  return column.condition?.definition?.content ?? column.condition?.inputVariable;
}

/** `read`: input paths the rule reads beyond its model and its condition columns (RuleKind.inputPaths). */
export function benchFields(rule: RuleDocument, read: readonly string[] = []): BenchField[] {
  const table = tableOf(rule);
  const datePaths = new Set<string>();
  for (const column of table.columns) {
    if (column.type !== 'input') continue;
    const path = conditionPath(column);
    if (path && table.rows.some((row) => row.cells?.some((c) => c.column === column.columnId && c.scalarCondition?.type === 'date'))) datePaths.add(path);
  }
  // The model's leaves, then inputs that condition columns read without the model naming them (the solver reads
  // any path of the input, so the form offers them too).
  const paths = [...new Set([...leafPaths(rule.inputSchema), ...table.columns.filter((c) => c.type === 'input').map(conditionPath).filter((p): p is string => !!p), ...read])];
  return paths.map((path) => ({ path, kind: datePaths.has(path) ? 'date' : 'text' }));
}

/**
 * The bench's first input: the input model's shape with every leaf null, e.g. `{"customer": {"tier": {}}}` gives
 * `{"customer": {"tier": null}}`. Null, not "": the model has no field types, and null is the one value that
 * claims none (a number field shown as "" would invite a string); the form shows a null field as empty.
 */
export function inputSkeleton(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return out;
  for (const [key, child] of Object.entries(schema as Record<string, unknown>)) {
    const nested = child !== null && typeof child === 'object' && !Array.isArray(child) && Object.keys(child).length > 0;
    out[key] = nested ? inputSkeleton(child) : null;
  }
  return out;
}

/** An empty input object with a line to type on. */
const EMPTY_INPUT = '{\n  \n}';

/** The skeleton as the bench's JSON text; an empty model gives the empty object with a line to type on. */
export function skeletonText(schema: unknown): string {
  const skeleton = inputSkeleton(schema);
  return Object.keys(skeleton).length === 0 ? EMPTY_INPUT : JSON.stringify(skeleton, null, 2);
}

/**
 * Whether the bench input holds no value yet: an object whose leaves are all null (a skeleton, of this model or of
 * one the bench saw before, e.g. restored from an earlier session) or an empty object. Only such an input may be
 * replaced by the model's skeleton; a value the person typed makes it theirs.
 */
export function untouchedInput(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const valueless = (node: unknown): boolean =>
    node === null || (typeof node === 'object' && !Array.isArray(node) && Object.values(node).every(valueless));
  return value !== null && valueless(value);
}

export function getPath(data: unknown, path: string): unknown {
  let value: unknown = data;
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Writes a form value into the input object: numbers and booleans keep their type, an empty field removes the key. */
export function setPath(data: Record<string, unknown>, path: string, text: string): Record<string, unknown> {
  const copy = structuredClone(data);
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  if (text === '') delete node[last];
  else node[last] = typedValue(text);
  return copy;
}

function typedValue(text: string): unknown {
  if (/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

export function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
