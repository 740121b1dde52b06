// FEEL temporal values: reading their ISO 8601 text, printing it back, their arithmetic and their order.
// Instants are computed from calendar fields in whole seconds plus nanoseconds; zones come from Intl through
// src/engine/time-zone.ts, so nothing depends on the process time zone.
import { isKnownZone, zoneOffsetMs } from '../time-zone.ts';
import { FeelDate, FeelDateTime, FeelDaysTimeDuration, FeelNumber, FeelTime, FeelYearsMonthsDuration } from './values.ts';

const DATE = /^(-?(?:[1-9]\d{4,8}|\d{4}))-(\d\d)-(\d\d)$/;
const TIME = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9})\d*)?(?:(Z|z)|([+-])(\d\d):(\d\d)(?::(\d\d))?)?(?:@([A-Za-z0-9_/+-]+))?$/;
const DT_DURATION = /^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d*)?)S)?)?$/;
const YM_DURATION = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?$/;

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (exact for years of any size JS integers hold). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of a day count since 1970-01-01. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** A zone's offset in ms at an instant; instants beyond what Date holds use the offset at Date's limit. */
function safeZoneOffsetMs(instantMs: number, zone: string): number {
  const limit = 8.64e15;
  return zoneOffsetMs(Math.max(-limit + 86_400_000, Math.min(limit - 86_400_000, instantMs)), zone);
}

export function validDate(year: number, month: number, day: number): boolean {
  return Number.isInteger(year) && Math.abs(year) <= 999_999_999 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function parseDate(text: string): FeelDate | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return validDate(year, month, day) ? new FeelDate(year, month, day) : null;
}

export function parseTime(text: string): FeelTime | null {
  const m = TIME.exec(text);
  if (!m) return null;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const nano = m[4] ? Number(m[4].padEnd(9, '0')) : 0;
  let offset: number | null = null;
  if (m[5]) offset = 0;
  else if (m[6]) {
    const [oh, om, os] = [Number(m[7]), Number(m[8]), Number(m[9] ?? 0)];
    if (oh > 18 || om > 59) return null;
    offset = (m[6] === '-' ? -1 : 1) * (oh * 3600 + om * 60 + os);
  }
  const zone = m[10] ?? null;
  if (zone !== null && (offset !== null || !isKnownZone(zone))) return null;
  return new FeelTime(hour, minute, second, nano, offset, zone);
}

export function parseDateTime(text: string): FeelDateTime | null {
  const t = text.indexOf('T');
  if (t < 0) {
    const date = parseDate(text);
    return date ? new FeelDateTime(date.year, date.month, date.day, 0, 0, 0, 0, null, null) : null;
  }
  const date = parseDate(text.slice(0, t));
  const timeText = text.slice(t + 1);
  // 24:00:00 is the midnight that ends the day
  if (date && /^24:00:00(?:\.0+)?(?![\d.])/.test(timeText)) {
    const time = parseTime(`00${timeText.slice(2)}`);
    if (!time) return null;
    const next = civilFromDays(daysFromCivil(date.year, date.month, date.day) + 1);
    return dateTimeOf(new FeelDate(next.year, next.month, next.day), time);
  }
  const time = parseTime(timeText);
  if (!date || !time) return null;
  return dateTimeOf(date, time);
}

export function dateTimeOf(date: FeelDate, time: FeelTime): FeelDateTime {
  return new FeelDateTime(date.year, date.month, date.day, time.hour, time.minute, time.second, time.nano, time.offset, time.zone);
}

export function parseDuration(text: string): FeelDaysTimeDuration | FeelYearsMonthsDuration | null {
  const ym = YM_DURATION.exec(text);
  if (ym && text !== 'P' && text !== '-P') {
    const months = Number(ym[2] ?? 0) * 12 + Number(ym[3] ?? 0);
    return new FeelYearsMonthsDuration(ym[1] ? -months || 0 : months);
  }
  const dt = DT_DURATION.exec(text);
  if (!dt || text.endsWith('P') || text.endsWith('T')) return null;
  let seconds = new FeelNumber(dt[5] ?? 0)
    .plus(Number(dt[4] ?? 0) * 60)
    .plus(Number(dt[3] ?? 0) * 3600)
    .plus(new FeelNumber(dt[2] ?? 0).times(86400));
  if (dt[1]) seconds = seconds.negated();
  return new FeelDaysTimeDuration(seconds.isZero() ? new FeelNumber(0) : seconds);
}

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

export function formatDate(d: { year: number; month: number; day: number }): string {
  return `${d.year < 0 ? '-' : ''}${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

function formatOffset(offset: number): string {
  if (offset === 0) return 'Z';
  const abs = Math.abs(offset);
  const seconds = abs % 60;
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}:${pad(Math.floor(abs / 60) % 60)}${seconds ? `:${pad(seconds)}` : ''}`;
}

export function formatTime(t: { hour: number; minute: number; second: number; nano: number; offset: number | null; zone: string | null }): string {
  const fraction = t.nano ? `.${String(t.nano).padStart(9, '0').replace(/0+$/, '')}` : '';
  const zone = t.zone !== null ? `@${t.zone}` : t.offset !== null ? formatOffset(t.offset) : '';
  return `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${fraction}${zone}`;
}

export function formatDateTime(dt: FeelDateTime): string {
  return `${formatDate(dt)}T${formatTime(dt)}`;
}

export function formatDaysTime(d: FeelDaysTimeDuration): string {
  const negative = d.seconds.isNegative() && !d.seconds.isZero();
  const total = d.seconds.abs();
  const whole = total.floor();
  const days = whole.dividedToIntegerBy(86400);
  const rest = whole.minus(days.times(86400)).toNumber();
  const hours = Math.floor(rest / 3600);
  const minutes = Math.floor(rest / 60) % 60;
  const seconds = total.minus(whole).plus(rest % 60);
  let text = 'P';
  if (!days.isZero()) text += `${days.toFixed()}D`;
  if (hours || minutes || !seconds.isZero()) {
    text += 'T';
    if (hours) text += `${hours}H`;
    if (minutes) text += `${minutes}M`;
    if (!seconds.isZero()) text += `${seconds.toFixed()}S`;
  }
  if (text === 'P') return 'PT0S';
  return negative ? `-${text}` : text;
}

export function formatYearsMonths(d: FeelYearsMonthsDuration): string {
  const abs = Math.abs(d.months);
  const years = Math.floor(abs / 12);
  const months = abs % 12;
  let text = 'P';
  if (years) text += `${years}Y`;
  if (months || !years) text += `${months}M`;
  return d.months < 0 ? `-${text}` : text;
}

/** Seconds since the epoch of the fields read as UTC (the "wall clock"). */
export function wallSeconds(v: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number }): number {
  return daysFromCivil(v.year, v.month, v.day) * 86400 + (v.hour ?? 0) * 3600 + (v.minute ?? 0) * 60 + (v.second ?? 0);
}

/** Offset in seconds of a zoned value at its wall clock; null for a local value. */
export function offsetOf(v: FeelDateTime): number | null {
  if (v.offset !== null) return v.offset;
  if (v.zone === null) return null;
  const wall = wallSeconds(v) * 1000;
  const first = safeZoneOffsetMs(wall, v.zone);
  return safeZoneOffsetMs(wall - first, v.zone) / 1000;
}

/** Epoch seconds of a date and time; a local one is read as UTC (`local` tells the caller). */
export function epochSeconds(v: FeelDateTime): number {
  return wallSeconds(v) - (offsetOf(v) ?? 0);
}

export function isLocal(v: FeelDateTime | FeelTime): boolean {
  return v.offset === null && v.zone === null;
}

/** Fields of an epoch-seconds wall clock. */
export function fieldsOfWall(wall: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const days = Math.floor(wall / 86400);
  const rest = wall - days * 86400;
  return { ...civilFromDays(days), hour: Math.floor(rest / 3600), minute: Math.floor(rest / 60) % 60, second: rest % 60 };
}

/** A date and time from a wall clock in seconds and nanoseconds, keeping `like`'s offset and zone. */
export function dateTimeFromWall(wall: number, nano: number, like: { offset: number | null; zone: string | null }): FeelDateTime {
  const f = fieldsOfWall(wall);
  return new FeelDateTime(f.year, f.month, f.day, f.hour, f.minute, f.second, nano, like.offset, like.zone);
}

/** The instant `epoch` (seconds) seen in `zone`. */
export function dateTimeAt(epochMs: number, zone: string): FeelDateTime {
  const offset = zoneOffsetMs(epochMs, zone);
  const wallMs = epochMs + offset;
  const whole = Math.floor(wallMs / 1000);
  return dateTimeFromWall(whole, (wallMs - whole * 1000) * 1_000_000, { offset: zone === 'UTC' || zone === 'Z' ? 0 : null, zone: zone === 'UTC' || zone === 'Z' ? null : zone });
}

export function addMonths<T extends { year: number; month: number; day: number }>(v: T, months: number): { year: number; month: number; day: number } {
  const index = v.year * 12 + (v.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(v.day, daysInMonth(year, month)) };
}

/**
 * Adds seconds (a FEEL number, maybe fractional) to a date and time. In an IANA zone the seconds are elapsed time
 * (across a daylight-saving change the wall clock moves by an hour more or less, as java.time does); a local or
 * fixed-offset value moves on its wall clock.
 */
export function addSeconds(v: FeelDateTime, seconds: FeelNumber): FeelDateTime {
  const totalNanos = seconds.times(1e9).plus(v.nano).round();
  const wholeSeconds = totalNanos.dividedBy(1e9).floor();
  const nano = totalNanos.minus(wholeSeconds.times(1e9)).toNumber();
  if (v.zone === null) return dateTimeFromWall(wallSeconds(v) + wholeSeconds.toNumber(), nano, v);
  const instant = epochSeconds(v) + wholeSeconds.toNumber();
  return dateTimeFromWall(instant + safeZoneOffsetMs(instant * 1000, v.zone) / 1000, nano, v);
}

export function secondsOfDay(t: FeelTime): number {
  return t.hour * 3600 + t.minute * 60 + t.second;
}

export function timeFromSeconds(seconds: FeelNumber, like: FeelTime): FeelTime {
  const nanos = seconds.times(1e9).round();
  const day = 86400 * 1e9;
  const wrapped = nanos.mod(day).plus(day).mod(day);
  const whole = wrapped.dividedBy(1e9).floor().toNumber();
  const nano = wrapped.minus(new FeelNumber(whole).times(1e9)).toNumber();
  return new FeelTime(Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60, nano, like.offset, like.zone);
}

/** Seconds (with fraction) of a time of day, as a number with its offset removed when it has one. */
export function timeInstant(t: FeelTime, toMillis = false): FeelNumber {
  let offset = t.offset ?? 0;
  if (t.zone !== null) offset = zoneOffsetMs(Date.UTC(1970, 0, 1, t.hour, t.minute, t.second), t.zone) / 1000;
  const fraction = toMillis ? new FeelNumber(Math.floor(t.nano / 1e6)).dividedBy(1e3) : new FeelNumber(t.nano).dividedBy(1e9);
  return new FeelNumber(secondsOfDay(t) - offset).plus(fraction);
}

/** The instant of a date and time in seconds; `toMillis` cuts it to the millisecond (what comparisons use, as the TCK expects). */
export function dateTimeInstant(v: FeelDateTime, toMillis = false): FeelNumber {
  const fraction = toMillis ? new FeelNumber(Math.floor(v.nano / 1e6)).dividedBy(1e3) : new FeelNumber(v.nano).dividedBy(1e9);
  return new FeelNumber(epochSeconds(v)).plus(fraction);
}

export function dateOf(v: FeelDateTime): FeelDate {
  return new FeelDate(v.year, v.month, v.day);
}

export function timeOf(v: FeelDateTime): FeelTime {
  return new FeelTime(v.hour, v.minute, v.second, v.nano, v.offset, v.zone);
}

export function atMidnight(d: FeelDate): FeelDateTime {
  return new FeelDateTime(d.year, d.month, d.day, 0, 0, 0, 0, null, null);
}

/** Day of the week 1 (Monday) .. 7 (Sunday). */
export function isoWeekday(d: { year: number; month: number; day: number }): number {
  // 1970-01-01 was a Thursday (4)
  const weekday = (((daysFromCivil(d.year, d.month, d.day) + 3) % 7) + 7) % 7;
  return weekday + 1;
}

export function dayOfYear(d: { year: number; month: number; day: number }): number {
  return daysFromCivil(d.year, d.month, d.day) - daysFromCivil(d.year, 1, 1) + 1;
}

/** ISO 8601 week number. */
export function isoWeek(d: { year: number; month: number; day: number }): number {
  const thursday = daysFromCivil(d.year, d.month, d.day) + 4 - isoWeekday(d);
  const year = civilFromDays(thursday).year;
  return Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1;
}

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
