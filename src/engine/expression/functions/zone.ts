// Time-zone arithmetic over Intl (the same source Day.js' timezone plugin reads), written so that results never
// depend on the process time zone or on the clock: instants are epoch ms, "wall clocks" are epoch ms of the
// same calendar fields read as UTC.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let dtf = formatters.get(zone);
  if (!dtf) {
    // throws RangeError for an unknown zone; callers turn that into "invalid"
    dtf = new Intl.DateTimeFormat('en-US', {
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
    formatters.set(zone, dtf);
  }
  return dtf;
}

/** Epoch ms of calendar fields read as UTC; months and days roll over, years below 100 stay as given. */
export function utcFields(year: number, month0: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month0, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

function isUtc(zone: string): boolean {
  return zone === 'UTC' || zone === 'Etc/UTC' || zone === 'GMT' || zone === 'Z';
}

/** Offset of `zone` from UTC at `instant`, in ms (Europe/Prague in summer: 7_200_000). */
export function zoneOffset(instant: number, zone: string): number {
  if (isUtc(zone)) return 0;
  const whole = Math.floor(instant / 1000) * 1000;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const part of formatter(zone).formatToParts(new Date(whole))) {
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
        bc = part.value === 'BC' || part.value === 'B';
        break;
      default:
        break;
    }
  }
  if (bc) year = 1 - year;
  return utcFields(year, month - 1, day, hour, minute, second) - whole;
}

/** The wall clock of `instant` in `zone`. */
export function instantToWall(instant: number, zone: string): number {
  return instant + zoneOffset(instant, zone);
}

/**
 * The instant at which `zone` shows the wall clock `wall`. A wall time inside a DST gap moves forward by the gap (like Day.js);
 * in an overlap the first guess (the offset valid at the wall time read as UTC) decides, deterministically.
 */
export function wallToInstant(wall: number, zone: string): number {
  if (isUtc(zone)) return wall;
  const o0 = zoneOffset(wall, zone);
  const guess = wall - o0;
  const o2 = zoneOffset(guess, zone);
  if (o0 === o2) return guess;
  const second = wall - o2;
  const o3 = zoneOffset(second, zone);
  if (o2 === o3) return second;
  return wall - Math.min(o2, o3);
}
