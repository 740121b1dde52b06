// The FEEL value model (DMN 1.5, chapter 10.3.2): every value an expression can produce. Numbers are decimals of
// 34 significant digits rounded half-even (IEEE 754 decimal128, as FEEL requires); temporal values keep their
// calendar fields, their offset and their zone, because FEEL compares and prints them by those fields.
import { Decimal } from 'decimal.js';

/** FEEL numbers: 34 significant digits, ROUND_HALF_EVEN (decimal128). */
/** decimal128's exponent range too: beyond it a result overflows to Infinity (null in FEEL) or underflows to 0. */
export const FeelNumber: typeof Decimal = Decimal.clone({
  precision: 34,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -40,
  toExpPos: 40,
  maxE: 6144,
  minE: -6176,
});
export type FeelNumber = Decimal;

/** A calendar date (no time, no zone). */
export class FeelDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  constructor(year: number, month: number, day: number) {
    this.year = year;
    this.month = month;
    this.day = day;
  }
}

/** Time zone of a time or a date and time: a fixed offset in seconds, or an IANA zone, or none (local). */
export interface Zoned {
  /** Offset from UTC in seconds; null when the value has no offset (local) or its offset comes from `zone`. */
  readonly offset: number | null;
  /** IANA zone id (`Europe/Paris`) or null. */
  readonly zone: string | null;
}

/** A time of day; `nano` is the fraction of the second in nanoseconds. */
export class FeelTime implements Zoned {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly nano: number;
  readonly offset: number | null;
  readonly zone: string | null;
  constructor(hour: number, minute: number, second: number, nano: number, offset: number | null, zone: string | null) {
    this.hour = hour;
    this.minute = minute;
    this.second = second;
    this.nano = nano;
    this.offset = offset;
    this.zone = zone;
  }
}

/** A date and time: calendar fields, a time of day, and an optional offset or zone. */
export class FeelDateTime implements Zoned {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly nano: number;
  readonly offset: number | null;
  readonly zone: string | null;
  constructor(year: number, month: number, day: number, hour: number, minute: number, second: number, nano: number, offset: number | null, zone: string | null) {
    this.year = year;
    this.month = month;
    this.day = day;
    this.hour = hour;
    this.minute = minute;
    this.second = second;
    this.nano = nano;
    this.offset = offset;
    this.zone = zone;
  }
}

/** A days and time duration, held as a signed number of seconds (fractions to the nanosecond). */
export class FeelDaysTimeDuration {
  readonly seconds: FeelNumber;
  constructor(seconds: FeelNumber) {
    this.seconds = seconds;
  }
}

/** A years and months duration, held as a signed whole number of months. */
export class FeelYearsMonthsDuration {
  readonly months: number;
  constructor(months: number) {
    this.months = months;
  }
}

/** A FEEL context: entries in the order they were written; keys are FEEL names. */
export class FeelContext {
  readonly entries: Map<string, FeelValue>;
  constructor(entries?: Iterable<readonly [string, FeelValue]>) {
    this.entries = new Map(entries);
  }
  get(key: string): FeelValue | undefined {
    return this.entries.get(key);
  }
  has(key: string): boolean {
    return this.entries.has(key);
  }
}

/**
 * A range (interval). An unbounded end is `undefined` (`< 10` is the range from nothing up to 10); a `null`
 * endpoint is a written null (`(null..10]`), which no value can be compared with.
 */
export class FeelRange {
  readonly start: FeelValue | undefined;
  readonly end: FeelValue | undefined;
  readonly startIncluded: boolean;
  readonly endIncluded: boolean;
  /** True for the range of an equality test `(= 10)`, which equals no range literal. */
  readonly equalityTest: boolean;
  constructor(start: FeelValue | undefined, end: FeelValue | undefined, startIncluded: boolean, endIncluded: boolean, equalityTest = false) {
    this.equalityTest = equalityTest;
    this.start = start;
    this.end = end;
    this.startIncluded = startIncluded;
    this.endIncluded = endIncluded;
  }
}

/** Arguments of a call: positional, or by parameter name. */
export type FeelArguments = FeelValue[] | ReadonlyMap<string, FeelValue>;

/** A function value (built-in, defined in FEEL, or handed in by the host, e.g. a DMN business knowledge model). */
export class FeelFunction {
  /** Parameter names in order; a variadic built-in takes its arguments as one list after the fixed ones. */
  readonly params: readonly string[];
  /** Called with positional arguments already matched to `params` (missing ones are null). */
  readonly invoke: (args: FeelValue[]) => FeelValue;
  /** Names the function in messages. */
  readonly name: string;
  /** True when the last parameter collects the remaining positional arguments (e.g. `max(1, 2, 3)`). */
  readonly variadic: boolean;
  constructor(params: readonly string[], invoke: (args: FeelValue[]) => FeelValue, name = 'anonymous function', variadic = false) {
    this.params = params;
    this.invoke = invoke;
    this.name = name;
    this.variadic = variadic;
  }
}

export type FeelValue =
  | null
  | boolean
  | string
  | FeelNumber
  | FeelDate
  | FeelTime
  | FeelDateTime
  | FeelDaysTimeDuration
  | FeelYearsMonthsDuration
  | FeelValue[]
  | FeelContext
  | FeelRange
  | FeelFunction;

export function isNumber(value: unknown): value is FeelNumber {
  return value instanceof FeelNumber;
}

export function num(value: number | string | FeelNumber): FeelNumber {
  return new FeelNumber(value);
}

export function isTemporal(value: unknown): value is FeelDate | FeelTime | FeelDateTime {
  return value instanceof FeelDate || value instanceof FeelTime || value instanceof FeelDateTime;
}

export function isDuration(value: unknown): value is FeelDaysTimeDuration | FeelYearsMonthsDuration {
  return value instanceof FeelDaysTimeDuration || value instanceof FeelYearsMonthsDuration;
}
