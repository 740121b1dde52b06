// ZEN's built-in functions (zen core/expression/src/functions: internal.rs, deprecated.rs) and date methods
// (date_method.rs). Closures (map, filter, ...) are compiled in ./compile.ts since they take an unevaluated body.
import { roundHalfAway } from '../expression/arithmetic.ts';
import * as dates from './dates.ts';
import { ZenDate } from './dates.ts';
import { fail } from './errors.ts';
import { compare, decimal, equals, isObject, itemsOf, scalarText, textOf, truthy, typeName } from './values.ts';

export interface ZenClock {
  /** Epoch ms of "now" for d(), isToday() and friends. */
  now: number;
  /** Uniform in [0, 1) for rand(). */
  random: () => number;
}

type Fn = (args: unknown[], clock: ZenClock) => unknown;

function num(value: unknown, fn: string): number {
  if (typeof value !== 'number') fail(`${fn}() expects a number, got ${typeName(value)}`);
  return value;
}

function str(value: unknown, fn: string): string {
  if (typeof value !== 'string') fail(`${fn}() expects a string, got ${typeName(value)}`);
  return value;
}

function numbers(value: unknown, fn: string): number[] {
  return itemsOf(value, fn).map((item) => num(item, fn));
}

/** Rust regex's leading inline flags (`(?i)`) become JavaScript flags. */
function regex(pattern: unknown, fn: string): RegExp {
  const text = str(pattern, fn);
  const inline = /^\(\?([ims]+)\)/.exec(text);
  try {
    return inline ? new RegExp(text.slice(inline[0].length), `u${inline[1]}`) : new RegExp(text, 'u');
  } catch (error) {
    return fail(`${fn}(): invalid pattern: ${(error as Error).message}`);
  }
}

/** Truncation toward zero at `places` decimals, on the decimal text so 7.44 stays 7.44. */
function truncate(value: number, places: number): number {
  const [whole, fraction = ''] = String(value).split('.');
  if (String(value).includes('e')) return Math.trunc(value * 10 ** places) / 10 ** places;
  return Number(places > 0 ? `${whole}.${fraction.slice(0, places) || '0'}` : whole) || 0;
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : decimal(1 - levenshtein(a, b) / longest, 'fuzzyMatch');
}

function nonEmpty<T>(items: T[], fn: string): T[] {
  if (items.length === 0) fail(`${fn}() of an empty array`);
  return items;
}

function extremum(value: unknown, fn: string, pick: (order: number) => boolean): unknown {
  const items = nonEmpty(itemsOf(value, fn), fn);
  return items.reduce((best, item) => (pick(compare(item, best, fn)) ? item : best));
}

function mergeDeep(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isObject(current) && isObject(value)) target[key] = mergeDeep({ ...current }, value);
    else if (Array.isArray(current) && Array.isArray(value)) target[key] = [...current, ...value];
    else target[key] = value;
  }
  return target;
}

/** Deprecated date functions take text or unix seconds and answer in unix seconds, in UTC. */
function legacyDate(value: unknown, fn: string, now: number): ZenDate {
  if (typeof value === 'number') return new ZenDate(value * 1000, 'UTC');
  // zen's helpers.rs reads the text "now" as the current instant.
  if (value === 'now') return new ZenDate(now, 'UTC');
  const parsed = typeof value === 'string' ? dates.parseDateText(value, 'UTC', true) : undefined;
  if (!parsed) fail(`${fn}(): invalid date ${JSON.stringify(textOf(value))}`);
  return parsed;
}

const seconds = (date: ZenDate): number => Math.floor(date.ms / 1000);

export const FUNCTIONS: Record<string, Fn> = {
  len: ([v]) => {
    if (typeof v === 'string') return [...v].length;
    if (Array.isArray(v)) return v.length;
    return fail(`len() expects a string or an array, got ${typeName(v)}`);
  },
  upper: ([v]) => str(v, 'upper').toUpperCase(),
  lower: ([v]) => str(v, 'lower').toLowerCase(),
  trim: ([v]) => str(v, 'trim').trim(),
  startsWith: ([a, b]) => str(a, 'startsWith').startsWith(str(b, 'startsWith')),
  endsWith: ([a, b]) => str(a, 'endsWith').endsWith(str(b, 'endsWith')),
  contains: ([a, b]) => {
    if (typeof a === 'string') return a.includes(str(b, 'contains'));
    if (Array.isArray(a)) return a.some((item) => equals(item, b));
    return fail(`contains() expects a string or an array, got ${typeName(a)}`);
  },
  matches: ([a, b]) => regex(b, 'matches').test(str(a, 'matches')),
  extract: ([a, b]) => {
    const match = regex(b, 'extract').exec(str(a, 'extract'));
    // Groups that took no part in the match are left out, as zen does.
    return match ? match.filter((group) => group !== undefined) : [];
  },
  fuzzyMatch: ([a, b]) => {
    const target = str(b, 'fuzzyMatch');
    if (Array.isArray(a)) return a.map((item) => similarity(str(item, 'fuzzyMatch'), target));
    return similarity(str(a, 'fuzzyMatch'), target);
  },
  // Rust's split: an empty separator yields an empty text at both ends.
  split: ([a, b]) => {
    const [text, separator] = [str(a, 'split'), str(b, 'split')];
    return separator === '' ? ['', ...text, ''] : text.split(separator);
  },
  abs: ([v]) => Math.abs(num(v, 'abs')),
  sum: ([v]) => decimal(numbers(v, 'sum').reduce((s, n) => s + n, 0), 'sum'),
  avg: ([v]) => {
    const items = nonEmpty(numbers(v, 'avg'), 'avg');
    return decimal(items.reduce((s, n) => s + n, 0) / items.length, 'avg');
  },
  min: ([v]) => extremum(v, 'min', (order) => order < 0),
  max: ([v]) => extremum(v, 'max', (order) => order > 0),
  median: ([v]) => {
    const items = nonEmpty(numbers(v, 'median'), 'median').sort((a, b) => a - b);
    const middle = Math.floor(items.length / 2);
    return items.length % 2 ? items[middle] : decimal((items[middle - 1] + items[middle]) / 2, 'median');
  },
  mode: ([v]) => {
    const counts = new Map<number, number>();
    for (const n of nonEmpty(numbers(v, 'mode'), 'mode')) counts.set(n, (counts.get(n) ?? 0) + 1);
    let best: number | null = null;
    let bestCount = 0;
    for (const [n, count] of counts) if (count > bestCount) [best, bestCount] = [n, count];
    return best;
  },
  floor: ([v]) => Math.floor(num(v, 'floor')),
  ceil: ([v]) => Math.ceil(num(v, 'ceil')),
  round: ([v, places]) => roundHalfAway(num(v, 'round'), places === undefined ? 0 : num(places, 'round')),
  trunc: ([v, places]) => truncate(num(v, 'trunc'), places === undefined ? 0 : num(places, 'trunc')),
  rand: ([v], clock) => Math.floor(clock.random() * (num(v, 'rand') + 1)),
  string: ([v]) => scalarText(v, 'string()'),
  number: ([v]) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    return fail(`number() cannot convert ${JSON.stringify(textOf(v))}`);
  },
  // zen's to_bool: a string is true when it reads `true`, false when `false`, otherwise true only if empty.
  bool: ([v]) => {
    if (typeof v !== 'string') return truthy(v);
    const word = v.trim();
    return word === 'true' ? true : word === 'false' ? false : v === '';
  },
  isNumeric: ([v]) =>
    typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))),
  type: ([v]) => typeName(v),
  keys: ([v]) => {
    if (Array.isArray(v)) return v.map((_, i) => i);
    if (isObject(v)) return Object.keys(v);
    return fail(`keys() expects an object or an array, got ${typeName(v)}`);
  },
  values: ([v]) => {
    if (isObject(v)) return Object.values(v);
    return fail(`values() expects an object, got ${typeName(v)}`);
  },
  flatten: ([v]) => itemsOf(v, 'flatten').flatMap((item) => (Array.isArray(item) ? item : [item])),
  merge: ([v]) => {
    const items = itemsOf(v, 'merge').filter((item) => item !== null);
    if (items.length > 0 && items.every(Array.isArray)) return items.flat();
    return Object.assign({}, ...items.map((item) => (isObject(item) ? item : fail('merge() expects objects or arrays'))));
  },
  mergeDeep: ([v]) =>
    itemsOf(v, 'mergeDeep')
      .filter((item) => item !== null)
      .reduce<Record<string, unknown>>(
        (out, item) => mergeDeep(out, isObject(item) ? item : fail('mergeDeep() expects objects')),
        {},
      ),
  d: (args, clock) => dates.makeDate(args, clock.now),
  // Deprecated date functions: unix seconds, UTC.
  date: ([v], clock) => (v === undefined ? Math.floor(clock.now / 1000) : seconds(legacyDate(v, 'date', clock.now))),
  time: ([v], clock) => {
    const hms = typeof v === 'string' ? /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v) : null;
    if (hms) return Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3] ?? 0);
    const date = legacyDate(v, 'time', clock.now);
    return seconds(date) - seconds(dates.startOf(date, 'day'));
  },
  duration: ([v]) => dates.durationSeconds(str(v, 'duration')),
  year: ([v], clock) => dates.fieldsOf(legacyDate(v, 'year', clock.now)).year,
  monthOfYear: ([v], clock) => dates.fieldsOf(legacyDate(v, 'monthOfYear', clock.now)).month,
  monthString: ([v], clock) => dates.monthName(legacyDate(v, 'monthString', clock.now)).slice(0, 3),
  dayOfMonth: ([v], clock) => dates.fieldsOf(legacyDate(v, 'dayOfMonth', clock.now)).day,
  dayOfWeek: ([v], clock) => dates.isoWeekday(legacyDate(v, 'dayOfWeek', clock.now)),
  dayOfYear: ([v], clock) => dates.dayOfYear(legacyDate(v, 'dayOfYear', clock.now)),
  weekOfYear: ([v], clock) => dates.isoWeek(legacyDate(v, 'weekOfYear', clock.now)),
  weekdayString: ([v], clock) => dates.weekdayName(legacyDate(v, 'weekdayString', clock.now)).slice(0, 3),
  dateString: ([v], clock) => dates.strftime(legacyDate(v, 'dateString', clock.now), '%Y-%m-%d %H:%M:%S'),
  startOf: ([v, unit], clock) => seconds(dates.startOf(legacyDate(v, 'startOf', clock.now), dates.dateUnit(unit))),
  endOf: ([v, unit], clock) => seconds(dates.endOf(legacyDate(v, 'endOf', clock.now), dates.dateUnit(unit))),
};

function dateArg(value: unknown, method: string, clock: ZenClock): ZenDate {
  if (value instanceof ZenDate) return value;
  if (value === null) return new ZenDate(Number.NaN, 'UTC');
  if (typeof value === 'string' || typeof value === 'number') return dates.makeDate([value], clock.now);
  return fail(`${method}() expects a date, got ${typeName(value)}`);
}

/** Adds or subtracts a duration text or an (amount, unit) pair. */
function shift(date: ZenDate, args: unknown[], sign: number, method: string): ZenDate {
  if (typeof args[0] === 'string') {
    return dates.durationParts(args[0]).reduce((d, [amount, unit]) => dates.add(d, sign * amount, unit), date);
  }
  return dates.add(date, sign * num(args[0], method), dates.dateUnit(args[1]));
}

function comparison(test: (order: number) => boolean): (date: ZenDate, args: unknown[], clock: ZenClock) => boolean {
  return (date, [other, unit], clock) => {
    const that = dateArg(other, 'compare', clock);
    if (!date.valid || !that.valid) return false;
    if (unit === undefined) return test(date.ms - that.ms);
    const u = dates.dateUnit(unit);
    return test(dates.startOf(date, u).ms - dates.startOf(new ZenDate(that.ms, date.zone), u).ms);
  };
}

function sameDayAs(date: ZenDate, now: number, offsetDays: number): boolean {
  const day = dates.startOf(date, 'day').ms;
  const target = dates.startOf(dates.add(new ZenDate(now, date.zone), offsetDays, 'day'), 'day').ms;
  return date.valid && day === target;
}

type Method = (date: ZenDate, args: unknown[], clock: ZenClock) => unknown;

export const DATE_METHODS: Record<string, Method> = {
  add: (d, args) => shift(d, args, 1, 'add'),
  sub: (d, args) => shift(d, args, -1, 'sub'),
  set: (d, [unit, value]) => dates.setField(d, dates.dateUnit(unit), num(value, 'set')),
  format: (d, [pattern]) =>
    d.valid ? dates.strftime(d, pattern === undefined ? '%Y-%m-%d %H:%M:%S %Z' : str(pattern, 'format')) : null,
  startOf: (d, [unit]) => dates.startOf(d, dates.dateUnit(unit)),
  endOf: (d, [unit]) => dates.endOf(d, dates.dateUnit(unit)),
  diff: (d, [other, unit], clock) => {
    const that = dateArg(other, 'diff', clock);
    return dates.diff(d, that, unit === undefined ? 'millisecond' : dates.dateUnit(unit));
  },
  tz: (d, [zone]) => dates.makeDate([d, str(zone, 'tz')], 0),
  isValid: (d) => d.valid,
  isBefore: comparison((order) => order < 0),
  isAfter: comparison((order) => order > 0),
  isSame: comparison((order) => order === 0),
  isSameOrBefore: comparison((order) => order <= 0),
  isSameOrAfter: comparison((order) => order >= 0),
  isToday: (d, _args, clock) => sameDayAs(d, clock.now, 0),
  isYesterday: (d, _args, clock) => sameDayAs(d, clock.now, -1),
  isTomorrow: (d, _args, clock) => sameDayAs(d, clock.now, 1),
  isLeapYear: (d) => {
    const year = dates.fieldsOf(d).year;
    return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  },
  year: (d) => dates.fieldsOf(d).year,
  month: (d) => dates.fieldsOf(d).month,
  day: (d) => dates.fieldsOf(d).day,
  hour: (d) => dates.fieldsOf(d).hour,
  minute: (d) => dates.fieldsOf(d).minute,
  second: (d) => dates.fieldsOf(d).second,
  weekday: (d) => dates.isoWeekday(d),
  dayOfYear: (d) => dates.dayOfYear(d),
  week: (d) => dates.isoWeek(d),
  quarter: (d) => Math.floor((dates.fieldsOf(d).month - 1) / 3) + 1,
  timestamp: (d) => d.ms,
  offsetName: (d) => d.zone,
};
