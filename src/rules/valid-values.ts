// A decision-table column's valid values (spec/rule-format.md §2.2 `validValues`): the values the editor offers
// and flags others against. Editor-only: the solver never reads them. Both stored forms are read, the ≤2023
// `{"type":"GENERAL","value":{"display":"car","value":"car"}}` and the 2025 `{"type":"GENERAL","value":"SHOP_A"}`;
// only the newer one is written (docs/decisions/valid-values.md).
import { isObject } from './check.ts';

export type ValidValue = string | number | boolean;

function scalar(value: unknown): ValidValue | undefined {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
}

/**
 * The valid values of a column object, in order. Entries of other kinds (DATE, regular expressions, lookup
 * references: their JSON is unknown or deprecated) and malformed entries are skipped, so such a column restricts
 * nothing it cannot name. A missing, null or empty list means "no restriction".
 */
export function validValuesOf(column: unknown): ValidValue[] {
  if (!isObject(column) || !Array.isArray(column.validValues)) return [];
  const values: ValidValue[] = [];
  for (const entry of column.validValues) {
    if (!isObject(entry)) continue;
    if (typeof entry.type === 'string' && entry.type.toUpperCase() !== 'GENERAL') continue;
    const value = isObject(entry.value) ? scalar(entry.value.value) : scalar(entry.value);
    if (value !== undefined && !values.includes(value)) values.push(value);
  }
  return values;
}

/** The stored list for the given values, in the newer form. */
export function validValuesField(values: readonly ValidValue[]): Array<{ type: 'GENERAL'; value: ValidValue }> {
  return values.map((value) => ({ type: 'GENERAL', value }));
}
