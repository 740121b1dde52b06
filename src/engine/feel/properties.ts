// Path expressions `a.b` (DMN 1.5, 10.3.2.7 and the properties of temporal values in table 65).
import type { Env } from './env.ts';
import { isoWeekday, offsetOf } from './temporal.ts';
import {
  FeelContext,
  FeelDate,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelNumber,
  FeelRange,
  FeelTime,
  FeelYearsMonthsDuration,
  type FeelValue,
} from './values.ts';

const n = (value: number): FeelNumber => new FeelNumber(value);

function durationOf(offsetSeconds: number | null): FeelValue {
  return offsetSeconds === null ? null : new FeelDaysTimeDuration(n(offsetSeconds));
}

function dateProperty(v: FeelDate | FeelDateTime, name: string): FeelValue | undefined {
  switch (name) {
    case 'year':
      return n(v.year);
    case 'month':
      return n(v.month);
    case 'day':
      return n(v.day);
    case 'weekday':
      return n(isoWeekday(v));
  }
  return undefined;
}

function timeProperty(v: FeelTime | FeelDateTime, name: string): FeelValue | undefined {
  switch (name) {
    case 'hour':
      return n(v.hour);
    case 'minute':
      return n(v.minute);
    case 'second':
      return n(v.second).plus(n(v.nano).dividedBy(1e9));
    case 'time offset':
      if (v instanceof FeelDateTime) return v.zone !== null ? durationOf(offsetOf(v)) : durationOf(v.offset);
      return durationOf(v.offset);
    case 'timezone':
      return v.zone;
  }
  return undefined;
}

/** The value of `value.name`; a list maps the path over its items; anything else without it gives null. */
export function propertyOf(value: FeelValue, name: string, env: Env): FeelValue {
  if (value instanceof FeelContext) return value.has(name) ? value.get(name)! : null;
  if (Array.isArray(value)) return value.map((item) => propertyOf(item, name, env));
  let property: FeelValue | undefined;
  if (value instanceof FeelDate) property = dateProperty(value, name);
  else if (value instanceof FeelTime) property = timeProperty(value, name);
  else if (value instanceof FeelDateTime) property = dateProperty(value, name) ?? timeProperty(value, name);
  else if (value instanceof FeelDaysTimeDuration) {
    const total = value.seconds;
    const sign = total.isNegative() ? -1 : 1;
    const abs = total.abs();
    if (name === 'days') property = abs.dividedToIntegerBy(86400).times(sign);
    else if (name === 'hours') property = abs.dividedToIntegerBy(3600).mod(24).times(sign);
    else if (name === 'minutes') property = abs.dividedToIntegerBy(60).mod(60).times(sign);
    else if (name === 'seconds') property = abs.mod(60).times(sign);
  } else if (value instanceof FeelYearsMonthsDuration) {
    if (name === 'years') property = n(Math.trunc(value.months / 12));
    else if (name === 'months') property = n(value.months % 12);
  } else if (value instanceof FeelRange) {
    if (name === 'start') property = value.start ?? null;
    else if (name === 'end') property = value.end ?? null;
    else if (name === 'start included') property = value.startIncluded;
    else if (name === 'end included') property = value.endIncluded;
  }
  if (property === undefined) return value === null ? null : env.warn(`no property "${name}" on this value`);
  return property;
}
