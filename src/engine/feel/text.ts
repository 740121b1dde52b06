// The text of a FEEL value: what `string(x)` returns, and how values print inside lists and contexts.
import { formatDate, formatDateTime, formatDaysTime, formatTime, formatYearsMonths } from './temporal.ts';
import {
  FeelContext,
  FeelDate,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelRange,
  FeelTime,
  FeelYearsMonthsDuration,
  isNumber,
  type FeelNumber,
  type FeelValue,
} from './values.ts';

/** A number without exponent, as FEEL prints it (`1.10` prints `1.1`). */
export function numberText(n: FeelNumber): string {
  return n.toFixed();
}

/** `string(value)`: strings as they are, everything else as FEEL literal text. */
export function feelString(value: FeelValue): string {
  return typeof value === 'string' ? value : feelText(value);
}

/** The literal text of a value (strings quoted). */
export function feelText(value: FeelValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (isNumber(value)) return numberText(value);
  if (value instanceof FeelDate) return formatDate(value);
  if (value instanceof FeelTime) return formatTime(value);
  if (value instanceof FeelDateTime) return formatDateTime(value);
  if (value instanceof FeelDaysTimeDuration) return formatDaysTime(value);
  if (value instanceof FeelYearsMonthsDuration) return formatYearsMonths(value);
  if (Array.isArray(value)) return `[${value.map(feelText).join(', ')}]`;
  if (value instanceof FeelContext) return `{${[...value.entries].map(([k, v]) => `${k}: ${feelText(v)}`).join(', ')}}`;
  if (value instanceof FeelRange) {
    const end = (v: FeelValue | undefined) => (v === undefined ? '' : feelText(v));
    return `${value.startIncluded ? '[' : '('}${end(value.start)}..${end(value.end)}${value.endIncluded ? ']' : ')'}`;
  }
  return `function(${value.params.join(', ')})`;
}
