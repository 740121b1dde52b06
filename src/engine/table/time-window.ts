// Row time validity (§2.3, §11 F7): `timeValidation: {from, to}`, each bound either the legacy object
// {date, time, timezone} or text "YYYY-MM-DD HH:MM Z". Bounds are inclusive; a bound without a time of day covers
// its whole day when it is the `to` bound. A row outside its window behaves like an inactive row.
import type { Problem } from '../errors.ts';
import { instantOf, parseDateValue, type DateParts } from '../cells/dates.ts';

export interface TimeWindow {
  contains(now: number): boolean;
}

const DAY_MS = 86_400_000;

interface Bound {
  readonly parts: DateParts | number;
  /** Fixed instant when the bound names a date; undefined when it is "today at …" (time only). */
  readonly fixed: number | undefined;
  readonly endOfDay: boolean;
}

export function compileTimeWindow(stored: unknown, where: string, zone: string, problems: Problem[]): TimeWindow | undefined {
  if (stored === undefined || stored === null) return undefined;
  if (typeof stored !== 'object' || Array.isArray(stored)) {
    problems.push({ path: where, message: 'timeValidation must be an object {from, to}' });
    return undefined;
  }
  const { from, to } = stored as Record<string, unknown>;
  const fromBound = readBound(from, `${where}.from`, zone, false, problems);
  const toBound = readBound(to, `${where}.to`, zone, true, problems);
  if (fromBound === undefined && toBound === undefined) return undefined;
  const at = (bound: Bound, now: number): number => {
    const instant = bound.fixed ?? instantOf(bound.parts, now, zone);
    return bound.endOfDay ? instant + DAY_MS - 1 : instant;
  };
  return {
    contains: (now) => (fromBound === undefined || now >= at(fromBound, now)) && (toBound === undefined || now <= at(toBound, now)),
  };
}

function readBound(value: unknown, where: string, zone: string, isEnd: boolean, problems: Problem[]): Bound | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return undefined;
  const parts = parseDateValue(value);
  if (parts === undefined) {
    problems.push({ path: where, message: `${JSON.stringify(value)} is not a date (expected "YYYY-MM-DD HH:MM +01:00" or {date, time, timezone})` });
    return undefined;
  }
  const endOfDay = isEnd && typeof parts !== 'number' && !parts.hasTime && parts.year !== undefined;
  const fixed = typeof parts === 'number' || parts.year !== undefined ? instantOf(parts, 0, zone) : undefined;
  return { parts, fixed, endOfDay };
}
