// FEEL values to and from JSON (docs/decisions/feel-values.md): numbers leave as JS numbers when the double is
// the same decimal, else as their exact decimal text; temporal values leave as their ISO text.
import { feelText, numberText } from './text.ts';
import { FeelContext, FeelFunction, FeelNumber, FeelRange, isNumber, type FeelValue } from './values.ts';

/** A JSON-like value (numbers, strings, booleans, null, arrays, plain objects) as a FEEL value; strings stay strings. */
export function fromJson(value: unknown): FeelValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? new FeelNumber(value) : null;
  if (typeof value === 'bigint') return new FeelNumber(value.toString());
  if (Array.isArray(value)) return value.map(fromJson);
  if (value instanceof FeelNumber || value instanceof FeelContext || value instanceof FeelRange || value instanceof FeelFunction) return value;
  if (typeof value === 'object') {
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value as FeelValue;
    return new FeelContext(Object.entries(value).map(([k, v]) => [k, fromJson(v)] as const));
  }
  return null;
}

/** A FEEL value as JSON: exact numbers as numbers, others as decimal text; temporals and ranges as text; functions null. */
export function toJson(value: FeelValue): unknown {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (isNumber(value)) {
    const asNumber = value.toNumber();
    return new FeelNumber(asNumber).equals(value) ? asNumber : numberText(value);
  }
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof FeelContext) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value.entries) out[k] = toJson(v);
    return out;
  }
  if (value instanceof FeelFunction) return null;
  return feelText(value);
}
