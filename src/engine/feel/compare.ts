// Equality and order of FEEL values (DMN 1.5, 10.3.2.2 and the comparison table of 10.3.2.9): values of different
// kinds are not comparable (null), equality is deep on lists, contexts and ranges.
import { dateTimeInstant, isLocal, timeInstant, wallSeconds } from './temporal.ts';
import {
  FeelContext,
  FeelDate,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelFunction,
  FeelNumber,
  FeelRange,
  FeelTime,
  FeelYearsMonthsDuration,
  isNumber,
  type FeelValue,
} from './values.ts';

/** `a = b`: true, false, or null when the values are not of comparable kinds. */
export function feelEquals(a: FeelValue, b: FeelValue): boolean | null {
  if (a === null || b === null) return a === b;
  if (typeof a === 'boolean' || typeof a === 'string') return typeof b === typeof a ? a === b : null;
  if (isNumber(a)) return isNumber(b) ? compareNumbers(a, b) === 0 : null;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return null;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const same = feelEquals(a[i]!, b[i]!);
      if (same !== true) return same;
    }
    return true;
  }
  if (a instanceof FeelContext) {
    if (!(b instanceof FeelContext)) return null;
    if (a.entries.size !== b.entries.size) return false;
    for (const [key, value] of a.entries) {
      if (!b.has(key)) return false;
      const same = feelEquals(value, b.get(key)!);
      if (same !== true) return same;
    }
    return true;
  }
  if (a instanceof FeelRange) {
    if (!(b instanceof FeelRange)) return null;
    return (
      a.equalityTest === b.equalityTest &&
      a.startIncluded === b.startIncluded &&
      a.endIncluded === b.endIncluded &&
      endpointEquals(a.start, b.start) &&
      endpointEquals(a.end, b.end)
    );
  }
  if (a instanceof FeelFunction) return b instanceof FeelFunction ? a === b : null;
  if (a instanceof FeelDateTime && b instanceof FeelDateTime) {
    if (isLocal(a) !== isLocal(b)) return false;
    return dateTimeInstant(a, true).equals(dateTimeInstant(b, true));
  }
  if (a instanceof FeelTime && b instanceof FeelTime) {
    if (isLocal(a) !== isLocal(b)) return false;
    return timeInstant(a, true).equals(timeInstant(b, true));
  }
  const order = feelCompare(a, b);
  return order === null ? null : order === 0;
}

function endpointEquals(a: FeelValue | undefined, b: FeelValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return feelEquals(a, b) === true;
}

/**
 * `a.comparedTo(b)` without the copy of `b` decimal.js makes on every comparison (its digits array): rule tests
 * compare numbers in every evaluation. Same algorithm on the same fields; values outside decimal128's exponent
 * range, infinities and NaN (none of which FEEL makes) go to decimal.js.
 */
export function compareNumbers(a: FeelNumber, b: FeelNumber): number {
  const ad = a.d;
  const bd = b.d;
  if (!ad || !bd || b.e > FeelNumber.maxE || b.e < FeelNumber.minE) return a.comparedTo(b);
  const as = a.s;
  if (!ad[0] || !bd[0]) return ad[0] ? as : bd[0] ? -b.s : 0;
  if (as !== b.s) return as;
  const negative = as < 0;
  if (a.e !== b.e) return a.e > b.e !== negative ? 1 : -1;
  const shorter = Math.min(ad.length, bd.length);
  for (let i = 0; i < shorter; i++) if (ad[i] !== bd[i]) return ad[i]! > bd[i]! !== negative ? 1 : -1;
  return ad.length === bd.length ? 0 : ad.length > bd.length !== negative ? 1 : -1;
}

/** Order of two values: negative, 0, positive, or null when they cannot be ordered. */
export function feelCompare(a: FeelValue, b: FeelValue): number | null {
  if (a === null || b === null) return null;
  if (isNumber(a)) return isNumber(b) ? compareNumbers(a, b) : null;
  if (typeof a === 'string') return typeof b === 'string' ? (a < b ? -1 : a > b ? 1 : 0) : null;
  if (a instanceof FeelDate) {
    if (!(b instanceof FeelDate)) return null;
    return Math.sign(wallSeconds(a) - wallSeconds(b));
  }
  if (a instanceof FeelDateTime) {
    if (!(b instanceof FeelDateTime)) return null;
    if (isLocal(a) !== isLocal(b)) return null;
    return dateTimeInstant(a, true).comparedTo(dateTimeInstant(b, true));
  }
  if (a instanceof FeelTime) {
    if (!(b instanceof FeelTime)) return null;
    if (isLocal(a) !== isLocal(b)) return null;
    return timeInstant(a, true).comparedTo(timeInstant(b, true));
  }
  if (a instanceof FeelDaysTimeDuration) return b instanceof FeelDaysTimeDuration ? a.seconds.comparedTo(b.seconds) : null;
  if (a instanceof FeelYearsMonthsDuration) return b instanceof FeelYearsMonthsDuration ? Math.sign(a.months - b.months) : null;
  if (typeof a === 'boolean') return typeof b === 'boolean' && a === b ? 0 : null;
  return null;
}

/** Whether `value` lies in `range`; null when the endpoints cannot be compared with it. */
export function inRange(value: FeelValue, range: FeelRange): boolean | null {
  if (range.start !== undefined) {
    const c = feelCompare(value, range.start);
    if (c === null) return null;
    if (c < 0 || (c === 0 && !range.startIncluded)) return false;
  }
  if (range.end !== undefined) {
    const c = feelCompare(value, range.end);
    if (c === null) return null;
    if (c > 0 || (c === 0 && !range.endIncluded)) return false;
  }
  return true;
}
