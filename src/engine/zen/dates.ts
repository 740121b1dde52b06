// ZEN's date values (zen core/expression/src/vm/date): an instant in a named time zone, with the calendar
// read in that zone. Offsets come from Intl through ../time-zone.ts; the clock is passed in, never read.
import { isKnownZone, utcFields, zoneOffsetMs } from '../time-zone.ts';
import { fail } from './errors.ts';

/** A date value: epoch ms (NaN when invalid) and the IANA zone its calendar is read in. */
export class ZenDate {
  readonly ms: number;
  readonly zone: string;

  constructor(ms: number, zone: string) {
    this.ms = ms;
    this.zone = zone;
  }

  get valid(): boolean {
    return Number.isFinite(this.ms);
  }
}

export type DateUnit = 'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond';

const UNIT_NAMES: Record<string, DateUnit> = {
  y: 'year', year: 'year', years: 'year',
  q: 'quarter', quarter: 'quarter', quarters: 'quarter',
  M: 'month', month: 'month', months: 'month',
  w: 'week', week: 'week', weeks: 'week',
  d: 'day', day: 'day', days: 'day',
  h: 'hour', hour: 'hour', hours: 'hour',
  m: 'minute', minute: 'minute', minutes: 'minute',
  s: 'second', second: 'second', seconds: 'second',
};

export function dateUnit(name: unknown): DateUnit {
  const unit = typeof name === 'string' ? UNIT_NAMES[name] : undefined;
  if (!unit) fail(`unknown date unit ${JSON.stringify(name)}`);
  return unit;
}

const FIXED_MS: Partial<Record<DateUnit, number>> = {
  week: 604_800_000,
  day: 86_400_000,
  hour: 3_600_000,
  minute: 60_000,
  second: 1000,
  millisecond: 1,
};

/** The wall clock of `date` as epoch ms of the same fields read as UTC. */
export function wallOf(date: ZenDate): number {
  return date.ms + zoneOffsetMs(date.ms, date.zone);
}

/**
 * The instant whose wall clock in `zone` is `wall`: the earlier one in a DST overlap, an invalid date in a DST
 * gap (as chrono's `from_local_datetime` read by zen).
 */
export function fromWall(wall: number, zone: string): ZenDate {
  if (!Number.isFinite(wall)) return new ZenDate(Number.NaN, zone);
  let found = Number.NaN;
  // The offsets a day either side cover both sides of any transition near `wall`.
  for (const offset of [zoneOffsetMs(wall - 86_400_000, zone), zoneOffsetMs(wall + 86_400_000, zone)]) {
    const instant = wall - offset;
    if (zoneOffsetMs(instant, zone) === offset && !(instant >= found)) found = instant;
  }
  return new ZenDate(found, zone);
}

interface Fields {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

export function fieldsOf(date: ZenDate): Fields {
  const wall = new Date(wallOf(date));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    ms: wall.getUTCMilliseconds(),
  };
}

function wallFrom(f: Fields): number {
  return utcFields(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const DATE_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses zen's date text forms; undefined when the text is no date or names an impossible day. A written
 * offset counts only for the deprecated functions (`honourOffset`): zen's d() (0.54) reads
 * `12:00:00+02:00` as the wall clock 12:00 in the zone.
 */
export function parseDateText(text: string, zone: string, honourOffset = false): ZenDate | undefined {
  const m = DATE_TEXT.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = utcFields(year, month - 1, day, hour, minute, second, ms);
  const offset = m[8];
  // zen's d() wants an offset after a `T` time (`2023-10-15T10:00:00` alone is invalid).
  if (!honourOffset && !offset && text.includes('T')) return undefined;
  if (!offset || !honourOffset) return fromWall(wall, zone);
  if (offset === 'Z') return new ZenDate(wall, zone);
  const digits = offset.replace(':', '');
  const sign = digits[0] === '-' ? -1 : 1;
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return new ZenDate(wall - sign * minutes * 60_000, zone);
}

/** zen's `d(...)`: no argument is now; a zone alone is now there; text is read in the zone (default UTC). */
export function makeDate(args: unknown[], now: number): ZenDate {
  const [value, zoneArg] = args;
  const zone = typeof zoneArg === 'string' ? zoneArg : 'UTC';
  if (typeof zoneArg === 'string' && !isKnownZone(zoneArg)) fail(`d(): unknown time zone '${zoneArg}'`);
  if (args.length === 0) return new ZenDate(now, zone);
  if (value instanceof ZenDate) return new ZenDate(value.ms, typeof zoneArg === 'string' ? zone : value.zone);
  if (typeof value === 'number') return new ZenDate(value, zone);
  if (typeof value === 'string') {
    const parsed = parseDateText(value, zone);
    if (parsed) return parsed;
    if (args.length === 1 && value.includes('/') && isKnownZone(value)) return new ZenDate(now, value);
  }
  return new ZenDate(Number.NaN, zone);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function offsetText(date: ZenDate): string {
  const offset = Math.round(zoneOffsetMs(date.ms, date.zone) / 60_000);
  if (offset === 0) return 'Z';
  const abs = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** RFC 3339 as zen prints a date: whole seconds, `Z` for a zero offset; `Invalid date` when invalid. */
export function isoText(date: ZenDate): string {
  if (!date.valid) return 'Invalid date';
  const f = fieldsOf(date);
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}${offsetText(date)}`;
}

export function startOf(date: ZenDate, unit: DateUnit): ZenDate {
  const f = fieldsOf(date);
  const start: Fields = { ...f, ms: 0 };
  switch (unit) {
    case 'year':
      Object.assign(start, { month: 1, day: 1, hour: 0, minute: 0, second: 0 });
      break;
    case 'quarter':
      Object.assign(start, { month: Math.floor((f.month - 1) / 3) * 3 + 1, day: 1, hour: 0, minute: 0, second: 0 });
      break;
    case 'month':
      Object.assign(start, { day: 1, hour: 0, minute: 0, second: 0 });
      break;
    case 'week': {
      const weekday = isoWeekday(date);
      Object.assign(start, { day: f.day - (weekday - 1), hour: 0, minute: 0, second: 0 });
      break;
    }
    case 'day':
      Object.assign(start, { hour: 0, minute: 0, second: 0 });
      break;
    case 'hour':
      Object.assign(start, { minute: 0, second: 0 });
      break;
    case 'minute':
      start.second = 0;
      break;
    default:
      start.ms = unit === 'millisecond' ? f.ms : 0;
  }
  return fromWall(wallFrom(start), date.zone);
}

/** The last whole second of the period (zen prints `23:59:59`). */
export function endOf(date: ZenDate, unit: DateUnit): ZenDate {
  const next = add(startOf(date, unit), 1, unit);
  return new ZenDate(next.ms - 1000, date.zone);
}

export function add(date: ZenDate, amount: number, unit: DateUnit): ZenDate {
  if (!date.valid) return date;
  if (unit === 'year' || unit === 'quarter' || unit === 'month') {
    const months = amount * (unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1);
    const f = fieldsOf(date);
    const total = f.year * 12 + (f.month - 1) + months;
    const year = Math.floor(total / 12);
    const month = (total % 12) + 1;
    // Months clamp to the month's last day; years do not (zen: 2024-02-29 plus a year is invalid).
    if (unit === 'year' && f.day > daysInMonth(year, month)) return new ZenDate(Number.NaN, date.zone);
    const day = Math.min(f.day, daysInMonth(year, month));
    return fromWall(wallFrom({ ...f, year, month, day }), date.zone);
  }
  if (unit === 'day' || unit === 'week') {
    const days = unit === 'week' ? amount * 7 : amount;
    return fromWall(wallOf(date) + days * 86_400_000, date.zone);
  }
  return new ZenDate(date.ms + amount * (FIXED_MS[unit] ?? 0), date.zone);
}

const DURATION_PART = /(\d+)\s*([a-zA-Z]+)/g;

/** A duration text such as `1d 5h` as (amount, unit) pairs. */
export function durationParts(text: string): [number, DateUnit][] {
  const parts: [number, DateUnit][] = [];
  let consumed = '';
  for (const match of text.matchAll(DURATION_PART)) {
    parts.push([Number(match[1]), dateUnit(match[2])]);
    consumed += match[0];
  }
  if (parts.length === 0 || consumed.replace(/\s/g, '') !== text.replace(/\s/g, '')) {
    fail(`invalid duration '${text}'`);
  }
  return parts;
}

/** A duration text in seconds (months of 30.44 days, years of 365.25: zen's deprecated duration()). */
export function durationSeconds(text: string): number {
  const unitSeconds: Record<DateUnit, number> = {
    year: 31_557_600, quarter: 7_890_048, month: 2_630_016, week: 604_800, day: 86_400, hour: 3600, minute: 60,
    second: 1, millisecond: 0.001,
  };
  return durationParts(text).reduce((sum, [amount, unit]) => sum + amount * unitSeconds[unit], 0);
}

/** Monday 1 .. Sunday 7. */
export function isoWeekday(date: ZenDate): number {
  const weekday = new Date(wallOf(date)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

export function dayOfYear(date: ZenDate): number {
  const f = fieldsOf(date);
  return Math.round((utcFields(f.year, f.month - 1, f.day) - utcFields(f.year, 0, 1)) / 86_400_000) + 1;
}

export function isoWeek(date: ZenDate): number {
  const f = fieldsOf(date);
  const day = utcFields(f.year, f.month - 1, f.day);
  const thursday = day + (4 - isoWeekday(date)) * 86_400_000;
  const yearStart = utcFields(new Date(thursday).getUTCFullYear(), 0, 1);
  return Math.floor((thursday - yearStart) / 86_400_000 / 7) + 1;
}

/** Whole months from `b` to `a` as Day.js counts them (month ends clamp), fractional. */
function monthDiff(a: ZenDate, b: ZenDate): number {
  if (a.ms < b.ms) return -monthDiff(b, a);
  const fa = fieldsOf(a);
  const fb = fieldsOf(b);
  const whole = (fa.year - fb.year) * 12 + (fa.month - fb.month);
  const anchor = add(b, whole, 'month').ms;
  const after = a.ms - anchor >= 0;
  const anchor2 = add(b, whole + (after ? 1 : -1), 'month').ms;
  return whole + (a.ms - anchor) / (after ? anchor2 - anchor : anchor - anchor2);
}

/** `a.diff(b, unit)`: whole units from b to a, truncated toward zero. */
export function diff(a: ZenDate, b: ZenDate, unit: DateUnit): number {
  let value: number;
  if (unit === 'year') value = monthDiff(a, b) / 12;
  else if (unit === 'quarter') value = monthDiff(a, b) / 3;
  else if (unit === 'month') value = monthDiff(a, b);
  else value = (a.ms - b.ms) / (FIXED_MS[unit] ?? 1);
  return Math.trunc(value) || 0;
}

export function setField(date: ZenDate, unit: DateUnit, value: number): ZenDate {
  const f = fieldsOf(date);
  const key = ({ year: 'year', month: 'month', day: 'day', hour: 'hour', minute: 'minute', second: 'second' } as const)[
    unit as 'year'
  ];
  if (!key) fail(`set(): cannot set '${unit}'`);
  const next = { ...f, [key]: value };
  // No rollover: a month 13 or 31 February is an invalid date, as in zen.
  const valid = Number.isInteger(value) && next.month >= 1 && next.month <= 12 && next.day >= 1 &&
    next.day <= daysInMonth(next.year, next.month) && next.hour <= 23 && next.minute <= 59 && next.second <= 59 &&
    value >= 0;
  return valid ? fromWall(wallFrom(next), date.zone) : new ZenDate(Number.NaN, date.zone);
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November',
  'December',
];

export function weekdayName(date: ZenDate): string {
  return WEEKDAYS[isoWeekday(date) - 1];
}

export function monthName(date: ZenDate): string {
  return MONTHS[fieldsOf(date).month - 1];
}

/** strftime as chrono formats it, for the specifiers rules use. */
export function strftime(date: ZenDate, pattern: string): string {
  const f = fieldsOf(date);
  return pattern.replace(/%([a-zA-Z%])/g, (whole, spec: string) => {
    switch (spec) {
      case 'Y': return pad(f.year, 4);
      case 'y': return pad(f.year % 100);
      case 'm': return pad(f.month);
      case 'd': return pad(f.day);
      case 'e': return String(f.day).padStart(2, ' ');
      case 'H': return pad(f.hour);
      case 'I': return pad(((f.hour + 11) % 12) + 1);
      case 'p': return f.hour < 12 ? 'AM' : 'PM';
      case 'M': return pad(f.minute);
      case 'S': return pad(f.second);
      case 'f': return pad(f.ms * 1_000_000, 9);
      case 'j': return pad(dayOfYear(date), 3);
      case 'A': return weekdayName(date);
      case 'a': return weekdayName(date).slice(0, 3);
      case 'B': return monthName(date);
      case 'b': return monthName(date).slice(0, 3);
      case 'u': return String(isoWeekday(date));
      case 'V': return pad(isoWeek(date));
      case 'Z': return date.zone;
      case 'z': return offsetText(date).replace('Z', '+0000').replace(':', '');
      case '%': return '%';
      default: return whole;
    }
  });
}
