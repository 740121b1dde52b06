// Date values of date cells and row time windows (§2.11, §2.3): text such as `2024-05-15 01:25 +00:00`,
// `01:25 +00:00`, `+00:00`, extended ISO-8601, or the legacy object {date, time, timezone}. A missing time is
// 00:00:00; a missing date is "today" in the value's own zone, taken from the solve's `now` (never a clock).
import { isKnownZone, zoneOffsetMs } from '../time-zone.ts';

export { isKnownZone, zoneOffsetMs };

export interface DateParts {
  readonly year: number | undefined;
  readonly month: number;
  readonly day: number;
  /** False when the text gave no time: 00:00:00.000 is used. */
  readonly hasTime: boolean;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  /** Fixed offset in minutes east of UTC, when the text gave one. */
  readonly offsetMinutes: number | undefined;
  /** IANA zone name, when the text gave one instead of an offset. */
  readonly zone: string | undefined;
}

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?/;
const OFFSET = /^(?:GMT|UTC)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)+$/;

/** Parses date text; undefined when it is not one of the accepted shapes. */
export function parseDateText(input: string): DateParts | undefined {
  let rest = input.trim();
  if (rest === '') return undefined;
  let year: number | undefined;
  let month = 1;
  let day = 1;
  const date = DATE.exec(rest);
  if (date) {
    year = Number(date[1]);
    month = Number(date[2]);
    day = Number(date[3]);
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
    rest = rest.slice(date[0].length);
    if (rest.startsWith('T') || rest.startsWith('t')) rest = rest.slice(1);
    rest = rest.trimStart();
  }
  let hasTime = false;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let millisecond = 0;
  const time = TIME.exec(rest);
  if (time) {
    hasTime = true;
    hour = Number(time[1]);
    minute = Number(time[2]);
    second = time[3] === undefined ? 0 : Number(time[3]);
    millisecond = time[4] === undefined ? 0 : Math.floor(Number(`0.${time[4]}`) * 1000);
    if (hour > 23 || minute > 59 || second > 59) return undefined;
    rest = rest.slice(time[0].length).trimStart();
  }
  let offsetMinutes: number | undefined;
  let zone: string | undefined;
  if (rest !== '') {
    const parsed = parseZone(rest);
    if (parsed === undefined) return undefined;
    if (typeof parsed === 'number') offsetMinutes = parsed;
    else zone = parsed;
  } else if (!date && !hasTime) {
    return undefined;
  }
  return { year, month, day, hasTime, hour, minute, second, millisecond, offsetMinutes, zone };
}

/** `Z`, `UTC`, `GMT`, `+02:00`, `+0200`, `+2`, `GMT+3`, or an IANA zone name. */
function parseZone(text: string): number | string | undefined {
  const upper = text.toUpperCase();
  if (upper === 'Z' || upper === 'UTC' || upper === 'GMT') return 0;
  const offset = OFFSET.exec(text);
  if (offset) {
    const hours = Number(offset[2]);
    const minutes = offset[3] === undefined ? 0 : Number(offset[3]);
    if (hours > 18 || minutes > 59) return undefined;
    return (offset[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  if (ZONE_NAME.test(text) && isKnownZone(text)) return text;
  return undefined;
}

/** Parses the legacy `{date, time, timezone}` object (§2.6, §2.11). */
export function parseDateObject(value: Record<string, unknown>): DateParts | undefined {
  const date = typeof value.date === 'string' ? value.date.trim() : '';
  const time = typeof value.time === 'string' ? value.time.trim() : '';
  const zone = typeof value.timezone === 'string' ? value.timezone.trim() : '';
  const text = [date, time, zone].filter((part) => part !== '').join(' ');
  return text === '' ? undefined : parseDateText(text);
}

/** Any accepted representation of a date: text, the legacy object, or epoch milliseconds. */
export function parseDateValue(value: unknown): DateParts | number | undefined {
  if (typeof value === 'string') return parseDateText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return parseDateObject(value as Record<string, unknown>);
  return undefined;
}

/** True when the instant depends on the current date (no date part given). */
export function dependsOnNow(parts: DateParts | number): boolean {
  return typeof parts !== 'number' && parts.year === undefined;
}

/**
 * The instant (epoch ms) of parsed date parts. `now` supplies "today" for values without a date; `defaultZone`
 * is used when the value names no zone (§11 D3).
 */
export function instantOf(parts: DateParts | number, now: number, defaultZone: string): number {
  if (typeof parts === 'number') return parts;
  const zone = parts.offsetMinutes === undefined ? (parts.zone ?? defaultZone) : undefined;
  let { year, month, day } = parts;
  if (year === undefined) {
    const today = localDate(now, parts.offsetMinutes, zone);
    year = today.year;
    month = today.month;
    day = today.day;
  }
  const wall = Date.UTC(year, month - 1, day, parts.hour, parts.minute, parts.second, parts.millisecond);
  // Date.UTC maps years 0-99 to 1900-1999; set the full year explicitly.
  const fixedWall = year < 100 ? new Date(wall).setUTCFullYear(year) : wall;
  if (parts.offsetMinutes !== undefined) return fixedWall - parts.offsetMinutes * 60_000;
  return zonedWallToInstant(fixedWall, zone!);
}

/** The instant of a wall-clock time (given as if it were UTC) in an IANA zone. */
export function zonedWallToInstant(wall: number, zone: string): number {
  if (zone === 'UTC' || zone === 'Etc/UTC') return wall;
  const first = wall - zoneOffsetMs(wall, zone);
  const second = wall - zoneOffsetMs(first, zone);
  return second;
}

function localDate(now: number, offsetMinutes: number | undefined, zone: string | undefined): { year: number; month: number; day: number } {
  const shifted = new Date(now + (offsetMinutes !== undefined ? offsetMinutes * 60_000 : zoneOffsetMs(now, zone!)));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
