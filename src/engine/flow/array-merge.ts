// The ARRAY strategy for rule types other than decision tables (spec/rule-format.md §11 R4): the result objects
// the STANDARD strategy would return are merged into one object whose leaves are arrays of their values.
import type { Json } from '../types.ts';

function isPlainObject(value: unknown): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Merges values leaf by leaf: `[{a:1,b:{c:2}}, {a:3}]` -> `{a:[1,3], b:{c:[2]}}`. Values that are not all objects
 * at a path are a leaf there; arrays are leaves. Values are listed only for the objects that have the key.
 */
export function mergeAsArrays(values: readonly Json[]): Json {
  if (values.length > 0 && values.every(isPlainObject)) {
    const merged: Record<string, Json> = {};
    const keys: string[] = [];
    const seen = new Set<string>();
    for (const value of values) {
      for (const key of Object.keys(value)) {
        if (!seen.has(key)) {
          seen.add(key);
          keys.push(key);
        }
      }
    }
    for (const key of keys) {
      const present = values.filter((value) => Object.hasOwn(value, key)).map((value) => value[key]!);
      Object.defineProperty(merged, key, { value: mergeAsArrays(present), enumerable: true, writable: true, configurable: true });
    }
    return merged;
  }
  return [...values];
}
