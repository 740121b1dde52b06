// Time-zone offsets over Intl (the same source Day.js' timezone plugin reads), shared by date cells and the
// date functions of the expression language. Results never depend on the process time zone or on the clock:
// instants are epoch ms, "wall clocks" are epoch ms of the same calendar fields read as UTC.

const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter for `zone`; throws RangeError for a zone Intl does not know. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    FORMATTERS.set(zone, formatter);
  }
  return formatter;
}

/** Zone names that are UTC without asking Intl (`Z` is not an Intl zone, but means UTC wherever it is written). */
export function isUtcZone(zone: string): boolean {
  return zone === 'UTC' || zone === 'Etc/UTC' || zone === 'GMT' || zone === 'Z';
}

/** True when Intl knows the zone name. */
export function isKnownZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** Epoch ms of calendar fields read as UTC; months and days roll over, years below 100 stay as given. */
export function utcFields(year: number, month0: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month0, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** Offset of `zone` from UTC at `instant`, in ms (Europe/Prague in summer: 7_200_000). */
export function zoneOffsetMs(instant: number, zone: string): number {
  if (isUtcZone(zone)) return 0;
  const whole = Math.floor(instant / 1000) * 1000;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const part of formatterFor(zone).formatToParts(new Date(whole))) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value) % 24;
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
      case 'era':
        bc = part.value.startsWith('B');
        break;
      default:
        break;
    }
  }
  if (bc) year = 1 - year;
  return utcFields(year, month - 1, day, hour, minute, second) - whole;
}
