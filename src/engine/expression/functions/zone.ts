// Wall-clock arithmetic for the date functions, written so that results never depend on the process time zone
// or on the clock: instants are epoch ms, "wall clocks" are epoch ms of the same calendar fields read as UTC.
// The offsets come from the engine's time-zone module, shared with date cells.
import { isUtcZone, utcFields, zoneOffsetMs } from '../../time-zone.ts';

export { utcFields };

/** The wall clock of `instant` in `zone`. */
export function instantToWall(instant: number, zone: string): number {
  return instant + zoneOffsetMs(instant, zone);
}

/**
 * The instant at which `zone` shows the wall clock `wall`. A wall time inside a DST gap moves forward by the gap (like Day.js);
 * in an overlap the first guess (the offset valid at the wall time read as UTC) decides, deterministically.
 */
export function wallToInstant(wall: number, zone: string): number {
  if (isUtcZone(zone)) return wall;
  const o0 = zoneOffsetMs(wall, zone);
  const guess = wall - o0;
  const o2 = zoneOffsetMs(guess, zone);
  if (o0 === o2) return guess;
  const second = wall - o2;
  const o3 = zoneOffsetMs(second, zone);
  if (o2 === o3) return second;
  return wall - Math.min(o2, o3);
}
