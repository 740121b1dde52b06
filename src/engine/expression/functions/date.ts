// Date and time functions (spec/rule-format.md §4.9.4, §11 D4–D5). Dates travel as strings holding a UTC wall
// clock ("YYYY-MM-DDTHH:mm"). DATE() reads text in the context zone (ctx.timeZone), consumers read strings as
// UTC, DAY/MONTH/YEAR/WEEKDAY/DATE_COMPUTE answer in the context zone, NOW/CURDATE/CURTIME read ctx.now.
// Day.js does the format-driven parsing, display formatting and calendar arithmetic; zone offsets come from
// zone.ts so that nothing depends on the process time zone.
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import type { FunctionDef } from './types.ts';
import { describe, invalid, spread, toNum, toText } from '../runtime.ts';
import { instantToWall, utcFields, wallToInstant } from './zone.ts';

dayjs.extend(utc);
dayjs.extend(customParseFormat);

/** Day.js' own ISO-like pattern (REGEX_PARSE): calendar fields, rolled over when out of range. */
const DAYJS_PATTERN = /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;
/** Text that names its own zone: Z, UTC, GMT(+h), US zone abbreviations, or an offset after a time. */
const HAS_ZONE =
  /(?:^|[^A-Za-z])(?:Z|UTC?|GMT|[ECMP][SD]T)(?![A-Za-z])|\d:\d{2}(?::\d{2}(?:\.\d+)?)?\s*[+-]\d{1,2}(?::?\d{2})?(?!\d)/i;
/** The value model's date strings (what DATE/NOW/CURDATE produce, optionally with an explicit offset). */
const DATE_STRING = /^[+-]?\d{4,6}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

function pad(n: number, width: number): string {
  const text = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${text}` : text;
}

function datePart(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

function timePart(d: Date): string {
  return `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}`;
}

/** The UTC wall clock of `instant` in the value model; `precision` is DATE's floor argument. */
export function formatInstant(instant: number, precision: 's' | 'm' | 'h' = 'm'): string {
  const d = new Date(instant);
  if (precision === 'h') return `${datePart(d)}T${pad(d.getUTCHours(), 2)}:00`;
  if (precision === 's') return `${datePart(d)}T${timePart(d)}:${pad(d.getUTCSeconds(), 2)}`;
  return `${datePart(d)}T${timePart(d)}`;
}

/**
 * Text -> instant with Day.js semantics, reading zone-less text in `zone`: the ISO-like pattern first (with
 * roll-over: `2023-13-30` is January 2024), then JavaScript's date parser (`MM/DD/YYYY`, `2 Jan 999`,
 * `... GMT+3`). NaN when unparsable.
 */
export function parseDateText(input: string, zone: string): number {
  const text = input.trim();
  if (!/z$/i.test(text)) {
    const m = DAYJS_PATTERN.exec(text);
    if (m) {
      const wall = utcFields(
        Number(m[1]),
        Number(m[2]) - 1 || 0,
        m[3] ? Number(m[3]) : 1,
        Number(m[4] ?? 0),
        Number(m[5] ?? 0),
        Number(m[6] ?? 0),
        Number((m[7] ?? '0').substring(0, 3)),
      );
      return wallToInstant(wall, zone);
    }
  }
  if (HAS_ZONE.test(text)) return Date.parse(text);
  // zone-less text for JavaScript's parser: read it as UTC to get the wall clock, then place it in the zone
  let wall = Date.parse(`${text} GMT`);
  if (Number.isNaN(wall)) {
    const local = Date.parse(text);
    if (Number.isNaN(local)) return Number.NaN;
    wall = local - new Date(local).getTimezoneOffset() * 60_000;
  }
  return wallToInstant(wall, zone);
}

/** Day.js format tokens that read an offset from the text (outside [escaped] parts). */
function formatHasZone(format: string): boolean {
  return /Z/.test(format.replace(/\[[^\]]*\]/g, ''));
}

function legacyDateText(value: Record<string, unknown>): string | undefined {
  if (typeof value.date !== 'string') return undefined;
  return [value.date, value.time, value.timezone].filter((p) => typeof p === 'string' && p !== '').join(' ');
}

/** A date argument -> instant; `zone` is how zone-less text is read (UTC for consumers, §4.9.4). */
function readInstant(value: unknown, zone: string, fn: string): number {
  let instant = Number.NaN;
  if (typeof value === 'number') instant = value;
  else if (typeof value === 'string') instant = parseDateText(value, zone);
  else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const text = legacyDateText(value as Record<string, unknown>);
    if (text !== undefined) instant = parseDateText(text, zone);
  }
  if (!Number.isFinite(instant) || Math.abs(instant) > 8.64e15) invalid(`${fn}: ${describe(value)} is not a date`);
  return instant;
}

/** DATE(text, format): Day.js custom parsing; fields read as a wall clock in `zone` unless the format has Z. */
function parseWithFormat(text: string, format: string, zone: string): number {
  if (format === 'x' || format === 'X') {
    const n = toNum(text, 'DATE');
    return format === 'X' ? n * 1000 : n;
  }
  const parsed = dayjs.utc(text, format);
  if (!parsed.isValid()) return Number.NaN;
  const ms = parsed.valueOf();
  return formatHasZone(format) ? ms : wallToInstant(ms, zone);
}

function offsetMs(value: unknown, fn: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'string') return invalid(`${fn}: ${describe(value)} is not an offset like "+08:00"`);
  if (value === 'Z' || value === 'z') return 0;
  const m = OFFSET.exec(value.trim());
  if (!m) return invalid(`${fn}: ${describe(value)} is not an offset like "+08:00"`);
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (minutes > 18 * 60) invalid(`${fn}: ${describe(value)} is not an offset like "+08:00"`);
  return (m[1] === '-' ? -minutes : minutes) * 60_000;
}

const DIFF_UNITS: Record<string, dayjs.OpUnitType> = {
  s: 'second',
  m: 'minute',
  h: 'hour',
  H: 'hour',
  d: 'day',
  D: 'day',
  w: 'week',
  W: 'week',
  M: 'month',
  y: 'year',
  Y: 'year',
};

function unitOf(value: unknown, fn: string): dayjs.OpUnitType {
  const unit = typeof value === 'string' ? DIFF_UNITS[value.trim()] : undefined;
  if (!unit) invalid(`${fn}: unknown unit ${describe(value)} (use s, m, h, d, w, M or y)`);
  return unit;
}

function zonedField(value: unknown, fn: string, zone: string, field: (d: Date) => number): number {
  const wall = instantToWall(readInstant(value, 'UTC', fn), zone);
  return field(new Date(wall));
}

function extreme(args: unknown[], fn: string, later: boolean): unknown {
  const values = spread(args);
  if (values.length === 0) invalid(`${fn}: no dates`);
  let best = values[0];
  let bestInstant = readInstant(best, 'UTC', fn);
  for (let i = 1; i < values.length; i++) {
    const instant = readInstant(values[i], 'UTC', fn);
    if (later ? instant > bestInstant : instant < bestInstant) {
      best = values[i];
      bestInstant = instant;
    }
  }
  return best;
}

export const dateFunctions: FunctionDef[] = [
  {
    kind: 'eager',
    name: 'NOW',
    params: '[offset]',
    min: 0,
    max: 1,
    contextual: true,
    fixedPerSolve: true,
    impl: ([offset], f) => formatInstant(f.ctx.now + offsetMs(offset, 'NOW')),
  },
  {
    kind: 'eager',
    name: 'CURDATE',
    params: '[offset]',
    min: 0,
    max: 1,
    contextual: true,
    fixedPerSolve: true,
    impl: ([offset], f) => datePart(new Date(f.ctx.now + offsetMs(offset, 'CURDATE'))),
  },
  {
    kind: 'eager',
    name: 'CURTIME',
    params: '[offset]',
    min: 0,
    max: 1,
    contextual: true,
    fixedPerSolve: true,
    impl: ([offset], f) => timePart(new Date(f.ctx.now + offsetMs(offset, 'CURTIME'))),
  },
  {
    kind: 'eager',
    name: 'DATE',
    params: 'text, [format], [floor]',
    min: 1,
    max: 3,
    contextual: true,
    fixedPerSolve: true,
    impl: ([value, format, floor], f) => {
      const zone = f.ctx.timeZone;
      let instant: number;
      if (format === undefined || format === null || format === '') {
        // DATE reads text (§4.9.4); epoch milliseconds need the "x" format (docs/decisions/dates-date-of-a-number.md)
        if (typeof value === 'number') invalid(`DATE: the number ${describe(value)} is not a date text (for epoch milliseconds use DATE(value, "x"))`);
        instant = readInstant(value, zone, 'DATE');
      }
      else {
        if (typeof format !== 'string') invalid(`DATE: ${describe(format)} is not a format`);
        if (typeof value !== 'string' && typeof value !== 'number') invalid(`DATE: ${describe(value)} is not a date text`);
        instant = parseWithFormat(String(value), format, zone);
        if (!Number.isFinite(instant) || Math.abs(instant) > 8.64e15) {
          invalid(`DATE: ${describe(value)} does not match the format ${describe(format)}`);
        }
      }
      if (floor === undefined || floor === null || floor === 'm') return formatInstant(instant, 'm');
      if (floor === 's' || floor === 'h') return formatInstant(instant, floor);
      return invalid(`DATE: unknown precision ${describe(floor)} (use "s", "m" or "h")`);
    },
  },
  { kind: 'eager', name: 'DATE_MAX', params: 'date…', min: 1, max: Infinity, impl: (args) => extreme(args, 'DATE_MAX', true) },
  { kind: 'eager', name: 'DATE_MIN', params: 'date…', min: 1, max: Infinity, impl: (args) => extreme(args, 'DATE_MIN', false) },
  {
    // whole units of a - b, truncated toward zero; months and years are calendar-aware
    kind: 'eager',
    name: 'DATEDIFF',
    params: 'date1, date2, unit',
    min: 3,
    max: 3,
    impl: ([a, b, unit]) => {
      const u = unitOf(unit, 'DATEDIFF');
      const diff = dayjs.utc(readInstant(a, 'UTC', 'DATEDIFF')).diff(dayjs.utc(readInstant(b, 'UTC', 'DATEDIFF')), u);
      return diff === 0 ? 0 : diff;
    },
  },
  {
    // the calendar date (in the context zone) `days` after the date: "YYYY-MM-DD"
    kind: 'eager',
    name: 'DATE_COMPUTE',
    params: 'date, days',
    min: 2,
    max: 2,
    contextual: true,
    fixedPerSolve: true,
    impl: ([date, days], f) => {
      const wall = new Date(instantToWall(readInstant(date, 'UTC', 'DATE_COMPUTE'), f.ctx.timeZone));
      const shift = Math.round(toNum(days, 'DATE_COMPUTE'));
      return datePart(new Date(utcFields(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + shift)));
    },
  },
  {
    kind: 'eager',
    name: 'DATETIME_COMPUTE',
    params: 'date, amount, unit',
    min: 3,
    max: 3,
    impl: ([date, amount, unit]) => {
      const u = unitOf(unit, 'DATETIME_COMPUTE');
      const instant = readInstant(date, 'UTC', 'DATETIME_COMPUTE');
      const result = dayjs.utc(instant).add(toNum(amount, 'DATETIME_COMPUTE'), u as dayjs.ManipulateType);
      if (!result.isValid()) invalid('DATETIME_COMPUTE: the result is out of range');
      return formatInstant(result.valueOf(), 's');
    },
  },
  {
    // Day.js display tokens over the UTC wall clock; only the value model's date strings are dates here
    kind: 'eager',
    name: 'DATE_FORMAT',
    params: 'date, format',
    min: 2,
    max: 2,
    impl: ([date, format]) => {
      if (typeof date !== 'string' || !DATE_STRING.test(date.trim())) {
        invalid(`DATE_FORMAT: ${describe(date)} is not a date from DATE, NOW or CURDATE`);
      }
      return dayjs.utc(readInstant(date, 'UTC', 'DATE_FORMAT')).format(toText(format));
    },
  },
  {
    kind: 'eager',
    name: 'DAY',
    params: 'date',
    min: 1,
    max: 1,
    contextual: true,
    fixedPerSolve: true,
    impl: ([date], f) => zonedField(date, 'DAY', f.ctx.timeZone, (d) => d.getUTCDate()),
  },
  {
    kind: 'eager',
    name: 'MONTH',
    params: 'date',
    min: 1,
    max: 1,
    contextual: true,
    fixedPerSolve: true,
    impl: ([date], f) => zonedField(date, 'MONTH', f.ctx.timeZone, (d) => d.getUTCMonth() + 1),
  },
  {
    kind: 'eager',
    name: 'YEAR',
    params: 'date',
    min: 1,
    max: 1,
    contextual: true,
    fixedPerSolve: true,
    impl: ([date], f) => zonedField(date, 'YEAR', f.ctx.timeZone, (d) => d.getUTCFullYear()),
  },
  {
    kind: 'eager',
    name: 'WEEKDAY',
    params: 'date',
    min: 1,
    max: 1,
    contextual: true,
    fixedPerSolve: true,
    impl: ([date], f) => zonedField(date, 'WEEKDAY', f.ctx.timeZone, (d) => d.getUTCDay()),
  },
];
