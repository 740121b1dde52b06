// Conversion functions (DMN 1.5, 10.3.4.1): date, date and time, time, number, string, duration,
// years and months duration.
import { bad, fn, integer, type Builtin } from '../builtin.ts';
import {
  addMonths,
  dateOf,
  dateTimeOf,
  parseDate,
  parseDateTime,
  parseDuration,
  parseTime,
  timeOf,
  validDate,
  wallSeconds,
} from '../temporal.ts';
import { feelString } from '../text.ts';
import {
  FeelDate,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelNumber,
  FeelTime,
  FeelYearsMonthsDuration,
  isNumber,
  type FeelValue,
} from '../values.ts';

function dateFrom(from: FeelValue): FeelValue {
  if (typeof from === 'string') return parseDate(from);
  if (from instanceof FeelDate) return from;
  if (from instanceof FeelDateTime) return dateOf(from);
  return null;
}

function timeFrom(from: FeelValue): FeelValue {
  if (typeof from === 'string') return parseTime(from);
  if (from instanceof FeelTime) return from;
  if (from instanceof FeelDateTime) return timeOf(from);
  if (from instanceof FeelDate) return new FeelTime(0, 0, 0, 0, 0, null);
  return null;
}

/** Months from `a` to `b`, whole months only (a partial month does not count), signed. */
export function monthsBetween(a: FeelDate | FeelDateTime, b: FeelDate | FeelDateTime): number {
  // by calendar dates only, as java.time.Period does: the times of day do not count
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  if (months > 0 && wallSeconds(addMonths(a, months)) > wallSeconds({ year: b.year, month: b.month, day: b.day })) months--;
  else if (months < 0 && wallSeconds(addMonths(a, months)) < wallSeconds({ year: b.year, month: b.month, day: b.day })) months++;
  return months;
}

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export const CONVERSION: Builtin[] = [
  fn('date', [['from'], ['year', 'month', 'day']], (args, env) => {
    if (args.length === 1) return dateFrom(args[0]!);
    if (args.length !== 3) return bad(env, 'date', 'takes a text or year, month and day');
    const [y, m, d] = args.map(integer);
    if (y === null || m === null || d === null || !validDate(y!, m!, d!)) return bad(env, 'date', 'not a valid date');
    return new FeelDate(y!, m!, d!);
  }),
  fn('date and time', [['from'], ['date', 'time']], (args, env) => {
    if (args.length === 1) {
      const [from] = args;
      if (typeof from === 'string') return parseDateTime(from);
      if (from instanceof FeelDateTime) return from;
      if (from instanceof FeelDate) return new FeelDateTime(from.year, from.month, from.day, 0, 0, 0, 0, null, null);
      return bad(env, 'date and time', 'expects a text');
    }
    const [date, time] = args;
    const day = date instanceof FeelDate ? date : date instanceof FeelDateTime ? dateOf(date) : null;
    if (!day || !(time instanceof FeelTime)) return bad(env, 'date and time', 'expects a date and a time');
    return dateTimeOf(day, time);
  }),
  fn('time', [['from'], ['hour', 'minute', 'second', 'offset?']], (args, env) => {
    if (args.length === 1) return timeFrom(args[0]!);
    if (args.length < 3 || args.length > 4) return bad(env, 'time', 'takes a text or hour, minute, second and offset');
    const [h, m] = [integer(args[0]), integer(args[1])];
    const s = args[2];
    if (h === null || m === null || !isNumber(s) || h < 0 || h > 23 || m < 0 || m > 59 || s.isNegative() || s.gte(60)) return bad(env, 'time', 'not a valid time');
    const offset = args[3] ?? null;
    if (offset !== null && !(offset instanceof FeelDaysTimeDuration)) return bad(env, 'time', 'the offset is a days and time duration');
    const whole = s.floor();
    return new FeelTime(h, m, whole.toNumber(), s.minus(whole).times(1e9).round().toNumber(), offset ? offset.seconds.toNumber() : null, null);
  }),
  fn('number', [['from', 'grouping separator?', 'decimal separator?']], (args, env) => {
    const [from, grouping = null, decimal = null] = args;
    if (typeof from !== 'string') return bad(env, 'number', 'expects a text');
    if (grouping !== null && !(typeof grouping === 'string' && [' ', ',', '.'].includes(grouping))) return bad(env, 'number', 'the grouping separator is one of " ", ",", "."');
    if (decimal !== null && !(typeof decimal === 'string' && ['.', ','].includes(decimal))) return bad(env, 'number', 'the decimal separator is "." or ","');
    if (grouping !== null && grouping === decimal) return bad(env, 'number', 'the separators must differ');
    let text = from;
    if (typeof grouping === 'string') text = text.split(grouping).join('');
    if (typeof decimal === 'string' && decimal !== '.') text = text.replace(decimal, '.');
    return NUMBER_TEXT.test(text) ? new FeelNumber(text) : null;
  }),
  fn('string', [['from']], ([from = null]) => (from === null ? null : feelString(from))),
  fn('duration', [['from']], ([from = null]) => (typeof from === 'string' ? parseDuration(from) : null)),
  fn('years and months duration', [['from', 'to']], ([from = null, to = null], env) => {
    const isDate = (v: FeelValue): v is FeelDate | FeelDateTime => v instanceof FeelDate || v instanceof FeelDateTime;
    if (!isDate(from) || !isDate(to)) return bad(env, 'years and months duration', 'expects two dates');
    return new FeelYearsMonthsDuration(monthsBetween(from, to));
  }),
];
