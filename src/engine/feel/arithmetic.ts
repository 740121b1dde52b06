// FEEL arithmetic (DMN 1.5, 10.3.2.3 and table 57): numbers, string concatenation, durations and temporal values.
// Any null operand, or operands of kinds that do not combine, give null.
import {
  addMonths,
  addSeconds,
  atMidnight,
  dateOf,
  dateTimeInstant,
  isLocal,
  secondsOfDay,
  timeFromSeconds,
  timeInstant,
  wallSeconds,
} from './temporal.ts';
import {
  FeelDate,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelNumber,
  FeelTime,
  FeelYearsMonthsDuration,
  isNumber,
  type FeelValue,
} from './values.ts';

function shiftDateTime(v: FeelDateTime, d: FeelDaysTimeDuration | FeelYearsMonthsDuration, sign: 1 | -1): FeelDateTime {
  if (d instanceof FeelYearsMonthsDuration) {
    const f = addMonths(v, sign * d.months);
    return new FeelDateTime(f.year, f.month, f.day, v.hour, v.minute, v.second, v.nano, v.offset, v.zone);
  }
  return addSeconds(v, sign === 1 ? d.seconds : d.seconds.negated());
}

function shift(value: FeelValue, d: FeelValue, sign: 1 | -1): FeelValue {
  if (!(d instanceof FeelDaysTimeDuration || d instanceof FeelYearsMonthsDuration)) return null;
  if (value instanceof FeelDateTime) return shiftDateTime(value, d, sign);
  if (value instanceof FeelDate) return dateOf(shiftDateTime(atMidnight(value), d, sign));
  if (value instanceof FeelTime && d instanceof FeelDaysTimeDuration) {
    const seconds = new FeelNumber(secondsOfDay(value)).plus(new FeelNumber(value.nano).dividedBy(1e9));
    return timeFromSeconds(sign === 1 ? seconds.plus(d.seconds) : seconds.minus(d.seconds), value);
  }
  return null;
}

/** A number result, or null when it overflowed decimal128's range. */
function finite(n: InstanceType<typeof FeelNumber>): FeelValue {
  return n.isFinite() ? n : null;
}

export function add(a: FeelValue, b: FeelValue): FeelValue {
  if (a === null || b === null) return null;
  if (isNumber(a)) return isNumber(b) ? finite(a.plus(b)) : null;
  if (typeof a === 'string') return typeof b === 'string' ? a + b : null;
  if (a instanceof FeelDaysTimeDuration) {
    if (b instanceof FeelDaysTimeDuration) return new FeelDaysTimeDuration(a.seconds.plus(b.seconds));
    return shift(b, a, 1);
  }
  if (a instanceof FeelYearsMonthsDuration) {
    if (b instanceof FeelYearsMonthsDuration) return new FeelYearsMonthsDuration(a.months + b.months);
    return shift(b, a, 1);
  }
  return shift(a, b, 1);
}

/** A date facing a date and time is its midnight in UTC. */
function utcMidnight(d: FeelDate): FeelDateTime {
  return new FeelDateTime(d.year, d.month, d.day, 0, 0, 0, 0, 0, null);
}

/** Seconds between two date and time values (b to a); null when one is local and the other is not. */
function dateTimeDifference(a: FeelDateTime, b: FeelDateTime): FeelValue {
  if (isLocal(a) !== isLocal(b)) return null;
  return new FeelDaysTimeDuration(dateTimeInstant(a).minus(dateTimeInstant(b)));
}

export function subtract(a: FeelValue, b: FeelValue): FeelValue {
  if (a === null || b === null) return null;
  if (isNumber(a)) return isNumber(b) ? finite(a.minus(b)) : null;
  if (a instanceof FeelDaysTimeDuration) return b instanceof FeelDaysTimeDuration ? new FeelDaysTimeDuration(a.seconds.minus(b.seconds)) : null;
  if (a instanceof FeelYearsMonthsDuration) return b instanceof FeelYearsMonthsDuration ? new FeelYearsMonthsDuration(a.months - b.months) : null;
  if (a instanceof FeelDate && b instanceof FeelDate) return new FeelDaysTimeDuration(new FeelNumber(wallSeconds(a) - wallSeconds(b)));
  if (a instanceof FeelDateTime && b instanceof FeelDateTime) return dateTimeDifference(a, b);
  if (a instanceof FeelDateTime && b instanceof FeelDate) return dateTimeDifference(a, utcMidnight(b));
  if (a instanceof FeelDate && b instanceof FeelDateTime) return dateTimeDifference(utcMidnight(a), b);
  if (a instanceof FeelTime && b instanceof FeelTime) {
    if (isLocal(a) !== isLocal(b)) return null;
    return new FeelDaysTimeDuration(timeInstant(a).minus(timeInstant(b)));
  }
  return shift(a, b, -1);
}

export function multiply(a: FeelValue, b: FeelValue): FeelValue {
  if (a === null || b === null) return null;
  if (isNumber(a)) {
    if (isNumber(b)) return finite(a.times(b));
    return isNumber(b) ? null : multiply(b, a);
  }
  if (!isNumber(b)) return null;
  if (a instanceof FeelDaysTimeDuration) return new FeelDaysTimeDuration(a.seconds.times(b));
  if (a instanceof FeelYearsMonthsDuration) return new FeelYearsMonthsDuration(new FeelNumber(a.months).times(b).trunc().toNumber());
  return null;
}

export function divide(a: FeelValue, b: FeelValue): FeelValue {
  if (a === null || b === null) return null;
  if (isNumber(b) && b.isZero()) return null;
  if (isNumber(a)) return isNumber(b) ? finite(a.dividedBy(b)) : null;
  if (a instanceof FeelDaysTimeDuration) {
    if (isNumber(b)) return new FeelDaysTimeDuration(a.seconds.dividedBy(b));
    if (b instanceof FeelDaysTimeDuration) return b.seconds.isZero() ? null : a.seconds.dividedBy(b.seconds);
  }
  if (a instanceof FeelYearsMonthsDuration) {
    if (isNumber(b)) return new FeelYearsMonthsDuration(new FeelNumber(a.months).dividedBy(b).trunc().toNumber());
    if (b instanceof FeelYearsMonthsDuration) return b.months === 0 ? null : new FeelNumber(a.months).dividedBy(b.months);
  }
  return null;
}

export function power(a: FeelValue, b: FeelValue): FeelValue {
  if (!isNumber(a) || !isNumber(b)) return null;
  if (a.isZero() && b.isNegative()) return null;
  const result = a.pow(b);
  return result.isFinite() ? result : null;
}

export function negate(a: FeelValue): FeelValue {
  if (isNumber(a)) return a.negated();
  if (a instanceof FeelDaysTimeDuration) return new FeelDaysTimeDuration(a.seconds.negated());
  if (a instanceof FeelYearsMonthsDuration) return new FeelYearsMonthsDuration(-a.months);
  return null;
}
